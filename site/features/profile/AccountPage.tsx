import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import { signOut } from '../account/api'
import { clearUser } from '../account/auth-store'
import { AddressCard } from './AddressCard'
import { EmailVerification } from './EmailVerification'
import { OrderHistory } from './OrderHistory'
import { PersonalInfo } from './PersonalInfo'
import { Preferences } from './Preferences'
import { useSignedInUser } from './use-signed-in-user'

const TABS = [
  { id: 'profile', label: 'Profile' },
  { id: 'orders', label: 'Orders' },
  { id: 'wishlist', label: 'Wishlist' },
] as const

type Tab = (typeof TABS)[number]['id']

function tabFromHash(hash: string): Tab {
  const id = hash.replace(/^#/, '')
  return TABS.find((tab) => tab.id === id)?.id ?? 'profile'
}

/**
 * /profile and /account (docs/product.md#account-page): 'My Account' with side tabs Profile, Orders, Wishlist and a
 * Logout button. The tab is in the URL fragment (#orders), so 'Back to Order History' returns to it.
 */
export default function AccountPage() {
  const [user, setUser] = useSignedInUser()
  const [tab, setTab] = useState<Tab>('profile')
  const [leaving, setLeaving] = useState(false)
  const tabRefs = useRef<Record<Tab, HTMLButtonElement | null>>({
    profile: null,
    orders: null,
    wishlist: null,
  })

  useEffect(() => {
    const sync = () => setTab(tabFromHash(window.location.hash))
    sync()
    window.addEventListener('hashchange', sync)
    return () => window.removeEventListener('hashchange', sync)
  }, [])

  function choose(next: Tab, focus = false) {
    setTab(next)
    window.history.replaceState(null, '', next === 'profile' ? window.location.pathname : `#${next}`)
    if (focus) tabRefs.current[next]?.focus()
  }

  // Arrow keys move between tabs (the ARIA tabs pattern); Home and End jump to the ends.
  function onTabKey(event: KeyboardEvent<HTMLButtonElement>) {
    const index = TABS.findIndex((entry) => entry.id === tab)
    const last = TABS.length - 1
    const next =
      event.key === 'ArrowDown' || event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowUp' || event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null
    if (next === null) return
    event.preventDefault()
    const target = TABS[next]
    if (target) choose(target.id, true)
  }

  /** docs/product.md#account-page: the user is cleared whatever the server answers, and the browser goes to /. */
  async function logout() {
    setLeaving(true)
    try {
      await signOut()
    } catch (error) {
      console.warn('Sign-out failed; signing out here anyway', error)
    }
    clearUser()
    window.location.assign('/')
  }

  if (!user) {
    return (
      <p role="status" className="text-muted">
        Loading your account...
      </p>
    )
  }

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6 md:grid-cols-[13rem_minmax(0,1fr)] md:items-start">
      <nav aria-label="Account" className="grid gap-3">
        <p className="text-sm text-muted">
          Signed in as <span className="font-semibold text-ink break-all">{user.email}</span>
        </p>
        <div role="tablist" aria-label="Account sections" aria-orientation="vertical" className="grid gap-1">
          {TABS.map((entry) => (
            <button
              key={entry.id}
              ref={(element) => {
                tabRefs.current[entry.id] = element
              }}
              type="button"
              role="tab"
              id={`tab-${entry.id}`}
              aria-selected={tab === entry.id}
              aria-controls={`panel-${entry.id}`}
              tabIndex={tab === entry.id ? 0 : -1}
              onClick={() => choose(entry.id)}
              onKeyDown={onTabKey}
              className={`min-h-11 rounded-md px-4 py-2 text-left font-semibold uppercase tracking-wide focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand ${
                tab === entry.id ? 'bg-brand text-brand-ink' : 'hover:bg-surface'
              }`}
            >
              {entry.label}
            </button>
          ))}
        </div>
        {user.role === 'staff' && (
          <a href="/dashboard" className="btn-primary w-full">
            Staff Dashboard
          </a>
        )}
        <button type="button" className="btn-outline w-full" onClick={logout} disabled={leaving}>
          {leaving ? 'Signing out...' : 'Logout'}
        </button>
      </nav>

      <div id="panel-profile" role="tabpanel" aria-labelledby="tab-profile" hidden={tab !== 'profile'}>
        {/* The grid lives inside: a display class on the panel itself would override `hidden`. */}
        <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
          <h2 className="sr-only">Profile</h2>
          <PersonalInfo user={user} onSaved={setUser} />
          <EmailVerification user={user} onSaved={setUser} />
          <AddressCard user={user} onSaved={setUser} />
          <Preferences user={user} onSaved={setUser} />
        </div>
      </div>
      <div id="panel-orders" role="tabpanel" aria-labelledby="tab-orders" hidden={tab !== 'orders'}>
        {tab === 'orders' && <OrderHistory />}
      </div>
      <div id="panel-wishlist" role="tabpanel" aria-labelledby="tab-wishlist" hidden={tab !== 'wishlist'}>
        <section className="rounded-lg border border-line bg-surface p-4 sm:p-6">
          <h2 className="text-2xl font-bold uppercase">Wishlist Empty</h2>
          <p className="mt-2 text-muted">Save the products you love and find them here.</p>
          <a href="/shop" className="btn-primary mt-4">
            Browse Products
          </a>
        </section>
      </div>
    </div>
  )
}
