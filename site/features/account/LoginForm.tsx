import { type FormEvent, useEffect, useState } from 'react'
import { FIELD, TextField } from '../../components/form/fields'
import { showToast } from '../toasts/store'
import { signIn } from './api'
import { $user } from './auth-store'
import { googleReturnMessage, loginError } from './messages'
import { NeedsScriptNote } from './NeedsScriptNote'
import { PasswordField } from './PasswordField'
import {
  afterSignIn,
  googleSignInHref,
  isCheckoutLogin,
  SUCCESS_PAUSE_MS,
  tokenFromFragment,
} from './redirects'
import { useFormFields } from './use-field-errors'
import { useHydrated } from './use-hydrated'
import { useOnwardWhenSignedIn } from './use-onward-when-signed-in'
import { type LoginField, loginProblem } from './validation'

/**
 * /login (docs/product.md#sign-in): 'Welcome Back', or 'Checkout Options' with ?checkout=true. `google` is false in the page
 * built for a shop without Google sign-in (core/rules/site-variants.ts): no button leads to it then.
 */
export default function LoginForm({ google }: { google: boolean }) {
  const hydrated = useHydrated()
  useOnwardWhenSignedIn()
  const [checkout, setCheckout] = useState(false)
  const [googleHref, setGoogleHref] = useState('/google-sign-in')
  const [busy, setBusy] = useState(false)
  const [status, setStatus] = useState('')
  const fields = useFormFields<LoginField>({ email: '', password: '' })
  const { values, setValues, bind } = fields
  const { email, password } = values

  useEffect(() => {
    // docs/product.md#sign-in: a token in the fragment is kept under 'token', the fragment cleared, and on to /account.
    const token = tokenFromFragment(window.location.hash)
    if (token) {
      try {
        window.localStorage.setItem('token', token)
      } catch {
        // Blocked storage: the cookie session is what signs the customer in anyway.
      }
      window.history.replaceState(null, '', window.location.pathname + window.location.search)
      window.location.replace('/account')
      return
    }
    const params = new URLSearchParams(window.location.search)
    setCheckout(isCheckoutLogin(window.location.search))
    setGoogleHref(googleSignInHref(window.location.search))
    const google = googleReturnMessage(params.get('google'))
    if (google) showToast({ ...google, variant: 'error' })
  }, [])

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const problem = loginProblem({ email, password })
    if (problem) return fields.report(problem)
    fields.reset()
    setBusy(true)
    try {
      const answer = await signIn({ email: email.trim(), password })
      $user.set(answer.user)
      setStatus('Login successful!')
      showToast({ title: 'Login successful!', description: 'Welcome back.' })
      const next = afterSignIn(window.location.search)
      // replace, not assign: Back from the next page goes to where the visitor was before signing in, not
      // to a sign-in form they no longer need.
      window.setTimeout(() => window.location.replace(next), SUCCESS_PAUSE_MS)
      // Stay busy: the page is leaving.
    } catch (error) {
      setBusy(false)
      setValues((current) => ({ ...current, password: '' }))
      // The pressed button was disabled while busy, which drops focus to the page: the emptied password
      // field is where the person goes on.
      fields.focus('password')
      showToast({ ...loginError(error), variant: 'error' })
    }
  }

  return (
    <div className="mx-auto w-full max-w-md">
      <h1 className="font-display text-3xl font-bold uppercase sm:text-4xl">
        {checkout ? 'Checkout Options' : 'Welcome Back'}
      </h1>
      <p className="mt-2 text-muted">
        {checkout
          ? 'Sign in for a faster checkout, or continue as a guest.'
          : 'Sign in to see your orders and earn rewards.'}
      </p>

      {checkout && (
        <div className="mt-6 rounded-lg border border-line bg-surface p-4 sm:p-6">
          <h2 className="text-lg font-bold uppercase">New here?</h2>
          <p className="mt-1 text-sm text-muted">No account needed: pay as a guest.</p>
          <a href="/checkout?guest=true" className="btn-outline mt-4 w-full">
            Continue as Guest
          </a>
        </div>
      )}

      <form
        method="post"
        action="/login"
        noValidate
        onSubmit={onSubmit}
        className="mt-6 grid gap-4 rounded-lg border border-line bg-surface p-4 sm:p-6"
        aria-label="Sign in"
      >
        <TextField {...FIELD.email} {...bind('email')} />
        <PasswordField {...bind('password')} label="Password" autoComplete="current-password" />
        <p className="text-right text-sm">
          <a
            href="/forgot-password"
            className="tap-tall font-semibold text-brand underline-offset-4 hover:underline"
          >
            Forgot Password
          </a>
        </p>
        <button type="submit" className="btn-primary w-full" disabled={!hydrated || busy}>
          {busy ? 'Signing in...' : 'Sign In'}
        </button>
        <p role="status" className="text-center font-semibold text-success empty:hidden">
          {status}
        </p>
        <NeedsScriptNote action="sign in" />
      </form>

      <div className="mt-6 grid gap-3">
        {google && (
          <a href={googleHref} className="btn-outline w-full">
            Sign in with Google
          </a>
        )}
        <p className="text-center text-sm">
          New to Grit &amp; Whisker?{' '}
          <a href="/signup" className="tap-tall font-semibold text-brand underline-offset-4 hover:underline">
            Sign Up
          </a>
        </p>
      </div>
    </div>
  )
}
