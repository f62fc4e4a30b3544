import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { PasswordField } from '../account/PasswordField'
import { deleteErrorText, GOOGLE_AGAIN_HREF, type Reauthenticate, reauthenticateFrom } from './account-data'
import { deleteAccount, type PublicUser } from './api'

/**
 * 'Delete your account?' in a modal dialog. The browser's modal dialog keeps focus inside it (the page
 * behind is inert) and closes on Escape; the opener gets focus back (`onClose`). An account with a password
 * types it; one made with Google confirms with a fresh Google sign-in when the server asks for one. When
 * the server answers 204 the account is gone and every session ended: `onDeleted` moves on.
 */
export function DeleteAccountDialog(props: { user: PublicUser; onClose: () => void; onDeleted: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null)
  const ids = useId()
  const [password, setPassword] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [wanted, setWanted] = useState<Reauthenticate | null>(null)
  const { onClose } = props
  const withPassword = props.user.hasPassword

  useEffect(() => {
    const element = dialog.current
    if (element && !element.open) element.showModal()
    // The password field when there is one; otherwise Cancel, the safe choice (not the first link).
    const first = withPassword ? `${ids}-password` : `${ids}-cancel`
    document.getElementById(first)?.focus()
    const closed = () => onClose()
    element?.addEventListener('close', closed)
    return () => element?.removeEventListener('close', closed)
  }, [onClose, withPassword, ids])

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    if (withPassword && password === '') {
      setError('Please enter your password to delete your account.')
      document.getElementById(`${ids}-password`)?.focus()
      return
    }
    setBusy(true)
    setError(null)
    try {
      await deleteAccount(withPassword ? password : null)
      props.onDeleted()
    } catch (caught) {
      setWanted(reauthenticateFrom(caught))
      setError(deleteErrorText(caught))
      setBusy(false)
    }
  }

  const titleId = `${ids}-title`
  const errorId = `${ids}-error`
  return (
    <dialog
      ref={dialog}
      className="account-dialog"
      aria-labelledby={titleId}
      aria-describedby={`${ids}-what`}
      // Not while the request is under way: its answer decides what the visitor sees next.
      onCancel={(event) => {
        if (busy) event.preventDefault()
      }}
    >
      <form className="grid gap-4 p-5 sm:p-6" onSubmit={submit} noValidate aria-busy={busy}>
        <h2 id={titleId} className="text-2xl font-bold uppercase">
          Delete your account?
        </h2>
        <div id={`${ids}-what`} className="grid gap-2 text-sm">
          <p>
            This signs you out everywhere and removes your name, phone, address, preferences, password and
            Google sign-in, and takes your e-mail off our newsletter list. It cannot be undone.
          </p>
          <p>
            Orders you placed stay in our accounts, without your name, e-mail or street address: we keep what
            was bought and paid, and the state, country and first three characters of the ZIP code, for tax.{' '}
            <a href="/privacy-policy#download-or-delete-your-data" className="font-semibold underline">
              Read more
            </a>
          </p>
        </div>
        {withPassword ? (
          <PasswordField
            id={`${ids}-password`}
            label="Password"
            hint="Enter your password to confirm it is you."
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
          />
        ) : (
          <p className="text-sm">
            You sign in with Google. If you signed in more than 10 minutes ago, we will ask you to sign in
            with Google again to confirm it is you.
          </p>
        )}
        <p id={errorId} role="alert" className="min-h-5 text-sm font-semibold text-danger">
          {error ?? ''}
        </p>
        {wanted === 'google' && (
          <a href={GOOGLE_AGAIN_HREF} className="btn-primary">
            Sign in with Google again
          </a>
        )}
        <div className="flex flex-wrap justify-end gap-3">
          <button
            type="button"
            className="btn-outline"
            disabled={busy}
            id={`${ids}-cancel`}
            onClick={() => dialog.current?.close()}
          >
            Cancel
          </button>
          <button
            type="submit"
            className="btn border-2 border-danger bg-danger text-bg"
            disabled={busy}
            aria-describedby={errorId}
          >
            {busy ? 'Deleting...' : 'Delete my account'}
          </button>
        </div>
      </form>
    </dialog>
  )
}
