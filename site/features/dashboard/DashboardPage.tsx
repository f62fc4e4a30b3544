import { useEffect, useState } from 'react'
import { loadUser } from '../account/auth-store'
import { loginUrlFor } from '../account/sign-in-guard'
import { Dashboard } from './Dashboard'

type Access = { kind: 'checking' } | { kind: 'staff' } | { kind: 'customer'; email: string }

/**
 * /dashboard. The server decides who may see orders: this only asks it who is signed in, sends visitors
 * who are not to sign in (and back here after), and tells a customer the page is for staff. Every call the
 * dashboard makes is refused by the server for anyone but staff, whatever this page shows.
 */
export default function DashboardPage() {
  const [access, setAccess] = useState<Access>({ kind: 'checking' })

  useEffect(() => {
    let active = true
    loadUser().then((user) => {
      if (!active) return
      if (!user) {
        window.location.replace(loginUrlFor('/dashboard'))
        return
      }
      setAccess(
        user.role === 'staff'
          ? { kind: 'staff' }
          : { kind: 'customer', email: typeof user.email === 'string' ? user.email : '' },
      )
    })
    return () => {
      active = false
    }
  }, [])

  if (access.kind === 'checking') {
    return (
      <p role="status" className="mt-6 text-muted">
        Checking your access...
      </p>
    )
  }
  if (access.kind === 'customer') return <StaffOnly email={access.email} />
  return <Dashboard onForbidden={(email) => setAccess({ kind: 'customer', email })} />
}

function StaffOnly({ email }: { email: string }) {
  return (
    <section
      aria-labelledby="staff-only-heading"
      className="mt-6 max-w-xl rounded-lg border border-line bg-surface p-4 sm:p-6"
    >
      <h2 id="staff-only-heading" className="text-2xl font-bold uppercase">
        Staff only
      </h2>
      <p className="mt-2">
        This dashboard is for Grit &amp; Whisker staff.{' '}
        {email ? (
          <>
            You are signed in as <strong>{email}</strong>, a customer account.
          </>
        ) : (
          'Your account is a customer account.'
        )}
      </p>
      <p className="mt-2 text-muted">If you work here, ask the shop owner to add your account as staff.</p>
      <a href="/account" className="btn-primary mt-4">
        Go to My Account
      </a>
    </section>
  )
}
