import { type FormEvent, useRef, useState } from 'react'
import { FIELD, TextField } from '../../components/form/fields'
import { useFocusAfterSwap } from '../../lib/use-focus-after-swap'
import { showToast } from '../toasts/store'
import { requestPasswordReset } from './api'
import { forgotPasswordError } from './messages'
import { NeedsScriptNote } from './NeedsScriptNote'
import { useFieldErrors } from './use-field-errors'
import { useHydrated } from './use-hydrated'
import { forgotProblem } from './validation'

/** /forgot-password (docs/product.md#password-reset): the e-mail form, then 'Email Sent' with 'Back to Login' and 'Try again'. */
export default function ForgotPasswordForm() {
  const hydrated = useHydrated()
  const [email, setEmail] = useState('')
  const [busy, setBusy] = useState(false)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const fields = useFieldErrors<'email'>()
  const sentHeading = useRef<HTMLHeadingElement>(null)
  // The form gives way to 'Email Sent': focus goes to its heading once it is on the page.
  const swap = useFocusAfterSwap(sentTo !== null, (sent) => (sent ? sentHeading.current : null))

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const problem = forgotProblem({ email })
    if (problem) return fields.report(problem)
    fields.reset()
    setBusy(true)
    try {
      await requestPasswordReset(email.trim())
      swap(() => setSentTo(email.trim()))
      showToast({ title: 'Reset Email Sent', description: 'Check your inbox for the link.' })
    } catch (error) {
      showToast({ ...forgotPasswordError(error), variant: 'error' })
    } finally {
      setBusy(false)
    }
  }

  if (sentTo !== null) {
    return (
      <div className="mx-auto w-full max-w-md rounded-lg border border-line bg-surface p-4 sm:p-6">
        <h1 ref={sentHeading} tabIndex={-1} className="font-display text-3xl font-bold uppercase">
          Email Sent
        </h1>
        <p className="mt-3">
          If an account exists for <strong className="break-all">{sentTo}</strong>, we have sent it a link to
          reset the password. The link works for 1 hour.
        </p>
        <p className="mt-2 text-sm text-muted">No e-mail after a few minutes? Check your spam folder.</p>
        <div className="mt-6 grid gap-3 sm:grid-cols-2">
          <a href="/login" className="btn-primary">
            Back to Login
          </a>
          <button type="button" className="btn-outline" onClick={() => setSentTo(null)}>
            Try again
          </button>
        </div>
      </div>
    )
  }

  return (
    <div className="mx-auto w-full max-w-md">
      <h1 className="font-display text-3xl font-bold uppercase sm:text-4xl">Forgot Password</h1>
      <p className="mt-2 text-muted">
        Enter the e-mail of your account and we will send you a link to choose a new password.
      </p>
      <form
        method="post"
        action="/forgot-password"
        noValidate
        onSubmit={onSubmit}
        className="mt-6 grid gap-4 rounded-lg border border-line bg-surface p-4 sm:p-6"
        aria-label="Send reset link"
      >
        <TextField
          {...FIELD.email}
          id="email"
          value={email}
          onChange={(value) => {
            setEmail(value)
            fields.clear('email')
          }}
          error={fields.errors.email}
        />
        <button type="submit" className="btn-primary w-full" disabled={!hydrated || busy}>
          {busy ? 'Sending...' : 'Send Reset Link'}
        </button>
        <NeedsScriptNote action="send the link" />
      </form>
      <p className="mt-6 text-center text-sm">
        <a href="/login" className="tap-tall font-semibold text-brand underline-offset-4 hover:underline">
          Back to Login
        </a>
      </p>
    </div>
  )
}
