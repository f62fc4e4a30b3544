import { useEffect, useRef, useState } from 'react'
import { CloseIcon, MinusIcon } from '../../components/shell/icons'
import { isFirstVisit, markVisited, offersWelcome, WELCOME_MINIMISE_AFTER_MS } from './flags'

type View = 'none' | 'open' | 'minimised'

function storage(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

/**
 * A non-modal welcome for first-time visitors. It never traps focus, shrinks to a pill by itself after
 * 10 s, and stays off the cart and checkout pages so it cannot sit over their buttons.
 */
export default function WelcomePopup() {
  const [view, setView] = useState<View>('none')
  const rootRef = useRef<HTMLElement>(null)
  const focusAfterRender = useRef<'pill' | 'panel' | null>(null)

  useEffect(() => {
    const store = storage()
    if (!store || !isFirstVisit(store) || !offersWelcome(window.location.pathname)) return
    markVisited(store)
    setView('open')
  }, [])

  useEffect(() => {
    if (view !== 'open') return
    const timer = window.setTimeout(() => {
      if (rootRef.current?.contains(document.activeElement)) focusAfterRender.current = 'pill'
      setView('minimised')
    }, WELCOME_MINIMISE_AFTER_MS)
    return () => window.clearTimeout(timer)
  }, [view])

  useEffect(() => {
    const target = focusAfterRender.current
    focusAfterRender.current = null
    if (target === 'pill') rootRef.current?.querySelector<HTMLElement>('.welcome-expand')?.focus()
    if (target === 'panel') rootRef.current?.querySelector<HTMLElement>('.welcome-title')?.focus()
  })

  function focusIsInside(): boolean {
    return !!rootRef.current?.contains(document.activeElement)
  }

  function minimise() {
    if (focusIsInside()) focusAfterRender.current = 'pill'
    setView('minimised')
  }

  function expand() {
    focusAfterRender.current = 'panel'
    setView('open')
  }

  function close() {
    // Focus must not be lost with the popup: send it back to the page's content.
    if (focusIsInside()) document.getElementById('main')?.focus()
    setView('none')
  }

  if (view === 'none') return null

  if (view === 'minimised') {
    return (
      <aside ref={rootRef} className="welcome-pill" aria-label="Welcome offer">
        <button type="button" className="welcome-expand" aria-expanded="false" onClick={expand}>
          Welcome, crew
        </button>
        <button
          type="button"
          className="welcome-icon-button"
          aria-label="Close welcome message"
          onClick={close}
        >
          <CloseIcon size={16} />
        </button>
      </aside>
    )
  }

  return (
    <aside ref={rootRef} className="welcome-popup" aria-labelledby="welcome-title">
      <div className="welcome-controls">
        <button
          type="button"
          className="welcome-icon-button"
          aria-label="Minimise welcome message"
          onClick={minimise}
        >
          <MinusIcon />
        </button>
        <button
          type="button"
          className="welcome-icon-button"
          aria-label="Close welcome message"
          onClick={close}
        >
          <CloseIcon size={18} />
        </button>
      </div>
      <h2 id="welcome-title" className="welcome-title" tabIndex={-1}>
        Welcome to Grit &amp; Whisker
      </h2>
      <p className="welcome-text">
        Natural care for hands and beards that work hard. Create an account to track orders and get crew-only
        offers.
      </p>
      <div className="welcome-actions">
        <a href="/signup" className="btn-primary" onClick={close}>
          Create account
        </a>
        <a href="/shop" className="btn-outline" onClick={close}>
          Learn More<span className="sr-only"> about our products</span>
        </a>
      </div>
    </aside>
  )
}
