import { useCallback, useEffect, useRef, useState } from 'react'
import { isPublicUser } from '../account/api'
import { clearUser, loadUser } from '../account/auth-store'
import { DELETE_FRAGMENT, DELETED_PAGE, EXPORT_HREF } from './account-data'
import type { PublicUser } from './api'
import { DeleteAccountDialog } from './DeleteAccountDialog'

/**
 * 'Your Data' on /profile and /account (docs/decisions/018-account-data.md): download everything the shop
 * holds about the account, or delete the account. An island of its own beside the account page. The
 * download is a plain link, working from the server's HTML before any script has run (the answer is an
 * attachment, so the page stays); 'Delete account' waits for the island and the signed-in customer.
 */
export default function AccountData() {
  const [user, setUser] = useState<PublicUser | null>(null)
  const [deleting, setDeleting] = useState(false)
  const opener = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    let active = true
    // The same request the header and the account page share: one per page.
    loadUser().then((answer) => {
      if (!active || !isPublicUser(answer)) return
      setUser(answer)
      // Back from signing in with Google again to confirm a deletion: the dialog opens where it was.
      if (window.location.hash === DELETE_FRAGMENT) {
        window.history.replaceState(null, '', window.location.pathname)
        setDeleting(true)
      }
    })
    return () => {
      active = false
    }
  }, [])

  const close = useCallback(() => {
    setDeleting(false)
    opener.current?.focus()
  }, [])

  const deleted = useCallback(() => {
    // The server ended every session and cleared the cookies; the page forgets the user too.
    clearUser()
    window.location.assign(DELETED_PAGE)
  }, [])

  return (
    <section
      aria-labelledby="your-data-heading"
      className="rounded-lg border border-line bg-surface p-4 sm:p-6"
    >
      <h2 id="your-data-heading" className="text-xl font-bold uppercase">
        Your Data
      </h2>
      <p className="mt-2 text-sm text-muted">
        Download a copy of what we hold about you (your profile, address, preferences, orders and newsletter
        sign-up, as a JSON file), or delete your account.{' '}
        <a href="/privacy-policy#download-or-delete-your-data" className="font-semibold text-ink underline">
          How we handle your data
        </a>
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <a href={EXPORT_HREF} className="btn-outline">
          Download my data
        </a>
        <button
          ref={opener}
          type="button"
          className="btn border-2 border-danger text-danger hover:bg-danger hover:text-bg"
          disabled={user === null}
          aria-haspopup="dialog"
          onClick={() => setDeleting(true)}
        >
          Delete account
        </button>
      </div>
      <p className="needs-js-note mt-3 text-sm text-muted">Deleting your account needs JavaScript.</p>
      {deleting && user && <DeleteAccountDialog user={user} onClose={close} onDeleted={deleted} />}
    </section>
  )
}
