import { type FormEvent, useState } from 'react'
import { FIELD, TextField } from '../../components/form/fields'
import { showToast } from '../toasts/store'
import { register } from './api'
import { $user } from './auth-store'
import { registrationError } from './messages'
import { NeedsScriptNote } from './NeedsScriptNote'
import { NewPasswordFields } from './PasswordField'
import { SUCCESS_PAUSE_MS } from './redirects'
import { useFormFields } from './use-field-errors'
import { useHydrated } from './use-hydrated'
import { useOnwardWhenSignedIn } from './use-onward-when-signed-in'
import { type SignupField, signupProblem } from './validation'

type Form = Record<SignupField, string>

const EMPTY: Form = { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' }

/**
 * /signup (docs/product.md#sign-in): 'Create Account'. A new account is signed in at once and goes to /profile.
 * `google` is false in the page built for a shop without Google sign-in (core/rules/site-variants.ts).
 */
export default function SignupForm({ google }: { google: boolean }) {
  const hydrated = useHydrated()
  useOnwardWhenSignedIn()
  const [busy, setBusy] = useState(false)
  const [status, setStatus] = useState('')
  const fields = useFormFields<SignupField>(EMPTY)
  const { values: form, bind } = fields

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const problem = signupProblem(form)
    if (problem) return fields.report(problem)
    fields.reset()
    setBusy(true)
    try {
      const answer = await register({
        firstName: form.firstName.trim(),
        lastName: form.lastName.trim(),
        email: form.email.trim(),
        password: form.password,
      })
      $user.set(answer.user)
      setStatus('Welcome to the Crew!')
      showToast({ title: 'Welcome to the Crew!', description: answer.message })
      // After a moment, as sign-in does, so the welcome is read before the page leaves; replace: Back from
      // the account goes to where the visitor was, not to the sign-up form. Stays busy: the page is leaving.
      const next = answer.authenticated ? '/profile' : '/login'
      window.setTimeout(() => window.location.replace(next), SUCCESS_PAUSE_MS)
    } catch (error) {
      setBusy(false)
      showToast({ ...registrationError(error), variant: 'error' })
    }
  }

  return (
    <div className="mx-auto w-full max-w-md">
      <h1 className="font-display text-3xl font-bold uppercase sm:text-4xl">Create Account</h1>
      <p className="mt-2 text-muted">Track your orders, save your address and check out faster.</p>

      <form
        method="post"
        action="/signup"
        noValidate
        onSubmit={onSubmit}
        className="mt-6 grid gap-4 rounded-lg border border-line bg-surface p-4 sm:p-6"
        aria-label="Create account"
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField {...FIELD.firstName} {...bind('firstName')} />
          <TextField {...FIELD.lastName} {...bind('lastName')} />
        </div>
        <TextField {...FIELD.email} {...bind('email')} />
        <NewPasswordFields
          bind={bind}
          labels={{ password: 'Password', confirmPassword: 'Confirm password' }}
        />
        <button type="submit" className="btn-primary w-full" disabled={!hydrated || busy}>
          {busy ? 'Creating account...' : 'Create Account'}
        </button>
        <p role="status" className="text-center font-semibold text-success empty:hidden">
          {status}
        </p>
        <NeedsScriptNote action="create an account" />
      </form>

      <div className="mt-6 grid gap-3">
        {google && (
          <a href="/google-sign-in" className="btn-outline w-full">
            Sign up with Google
          </a>
        )}
        <p className="text-center text-sm">
          Already have an account?{' '}
          <a href="/login" className="tap-tall font-semibold text-brand underline-offset-4 hover:underline">
            Sign In
          </a>
        </p>
      </div>
    </div>
  )
}
