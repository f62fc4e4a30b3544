import { type FormEvent, useEffect, useRef, useState } from 'react'
import { ApiError } from '../../lib/api'
import { showToast } from '../toasts/store'
import { checkResetToken, resetPassword } from './api'
import { resetPasswordError } from './messages'
import { NeedsScriptNote } from './NeedsScriptNote'
import { NewPasswordFields } from './PasswordField'
import { useFormFields } from './use-field-errors'
import { type ResetField, resetProblem } from './validation'

type Phase = 'checking' | 'form' | 'done' | 'invalid'

/**
 * /reset-password?token=… (docs/product.md#password-reset): checks the link (spinner), then the 'Update Password' form,
 * 'Password Updated' with a 'Sign In' link, or 'Invalid Reset Link'.
 */
export default function ResetPasswordForm() {
  const [phase, setPhase] = useState<Phase>('checking')
  const [busy, setBusy] = useState(false)
  const fields = useFormFields<ResetField>({ password: '', confirmPassword: '' })
  const form = fields.values
  const token = useRef('')
  const heading = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    token.current = new URLSearchParams(window.location.search).get('token') ?? ''
    // The token is a credential: once read, it leaves the address bar and the history.
    window.history.replaceState(null, '', window.location.pathname)
    if (!token.current) return setPhase('invalid')
    checkResetToken(token.current).then(
      () => setPhase('form'),
      () => setPhase('invalid'),
    )
  }, [])

  useEffect(() => {
    if (phase !== 'checking') heading.current?.focus()
  }, [phase])

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const problem = resetProblem(form)
    if (problem) return fields.report(problem)
    fields.reset()
    setBusy(true)
    try {
      await resetPassword(token.current, form.password)
      setPhase('done')
    } catch (error) {
      // A link that was used or ran out meanwhile cannot be retried.
      if (error instanceof ApiError && error.status === 422 && /reset link/i.test(error.message)) {
        setPhase('invalid')
      }
      showToast({ ...resetPasswordError(error), variant: 'error' })
    } finally {
      setBusy(false)
    }
  }

  if (phase === 'checking') {
    return (
      <div className="mx-auto grid w-full max-w-md justify-items-center gap-4 py-8 text-center">
        <h1 className="sr-only">Reset Password</h1>
        <div className="spinner" aria-hidden="true" />
        <p role="status">Checking your reset link...</p>
        <NeedsScriptNote action="reset your password" />
      </div>
    )
  }

  if (phase === 'invalid') {
    return (
      <div className="mx-auto w-full max-w-md rounded-lg border border-line bg-surface p-4 sm:p-6">
        <h1 ref={heading} tabIndex={-1} className="font-display text-3xl font-bold uppercase">
          Invalid Reset Link
        </h1>
        <p className="mt-3">This reset link is invalid or has expired. Links work once, for 1 hour.</p>
        <a href="/forgot-password" className="btn-primary mt-6 w-full">
          Request a new link
        </a>
      </div>
    )
  }

  if (phase === 'done') {
    return (
      <div className="mx-auto w-full max-w-md rounded-lg border border-line bg-surface p-4 sm:p-6">
        <h1 ref={heading} tabIndex={-1} className="font-display text-3xl font-bold uppercase">
          Password Updated
        </h1>
        <p className="mt-3">Your password has been changed and you have been signed out everywhere.</p>
        <a href="/login" className="btn-primary mt-6 w-full">
          Sign In
        </a>
      </div>
    )
  }

  return (
    <div className="mx-auto w-full max-w-md">
      <h1 ref={heading} tabIndex={-1} className="font-display text-3xl font-bold uppercase sm:text-4xl">
        Update Password
      </h1>
      <p className="mt-2 text-muted">Choose a new password for your account.</p>
      <form
        method="post"
        action="/reset-password"
        noValidate
        onSubmit={onSubmit}
        className="mt-6 grid gap-4 rounded-lg border border-line bg-surface p-4 sm:p-6"
        aria-label="Update password"
      >
        <NewPasswordFields
          bind={fields.bind}
          labels={{ password: 'New password', confirmPassword: 'Confirm new password' }}
          // The page cannot tell whose link it is before the server answers: both rules, said up front.
          hint="At least 6 characters, 12 for a staff account."
        />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? 'Updating...' : 'Update Password'}
        </button>
      </form>
    </div>
  )
}
