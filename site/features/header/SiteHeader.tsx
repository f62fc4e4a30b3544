import { type FormEvent, useEffect, useRef, useState } from 'react'
import { CartIcon, CloseIcon, MenuIcon, SearchIcon, UserIcon } from '../../components/shell/icons'
import { useHydratedStore } from '../../components/shell/use-hydrated-store'
import { $user, loadUser } from '../account/auth-store'
import { cartCount } from '../cart/store'
import { ThemeToggle } from '../theme/ThemeToggle'
import { badgeText, cartLabel } from './badge'
import { NavDropdown } from './NavDropdown'
import { NAV_GROUPS, TOP_LINKS } from './nav'
import { initialScrollState, nextScrollState } from './scroll-state'
import { searchHref } from './search'

interface Props {
  /** URL of the brand mark, resolved by the layout from site/assets. */
  logoSrc: string
}

const SEARCH_HINT = 'Popular: Whisker Oil, Whisker Tamer, Whisker Wash, HEAL HER'

/**
 * The fixed site header. Its full markup is rendered to static HTML (links work without JavaScript and
 * nothing shifts on hydration); hydration adds the scroll behaviour, menus, search, badge and account link.
 */
export default function SiteHeader({ logoSrc }: Props) {
  const [scroll, setScroll] = useState(() => initialScrollState(0))
  const [openGroup, setOpenGroup] = useState<string | null>(null)
  const [menuOpen, setMenuOpen] = useState(false)
  const [searchOpen, setSearchOpen] = useState(false)
  const [focusInside, setFocusInside] = useState(false)
  const count = useHydratedStore(cartCount, 0)
  const user = useHydratedStore($user, undefined)
  const headerRef = useRef<HTMLElement>(null)
  const menuButtonRef = useRef<HTMLButtonElement>(null)
  const searchButtonRef = useRef<HTMLButtonElement>(null)
  const searchInputRef = useRef<HTMLInputElement>(null)
  // The document-level Escape handler reads the panels from here rather than re-subscribing on each change.
  const panels = useRef({ menuOpen, searchOpen })
  panels.current = { menuOpen, searchOpen }

  useEffect(() => {
    let frame = 0
    const update = () => {
      frame = 0
      setScroll((previous) => nextScrollState(previous, window.scrollY))
    }
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update)
    }
    setScroll(initialScrollState(window.scrollY))
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      window.removeEventListener('scroll', onScroll)
      cancelAnimationFrame(frame)
    }
  }, [])

  useEffect(() => {
    void loadUser()
  }, [])

  // A keyboard user tabbing into a hidden bar must see where focus went.
  useEffect(() => {
    const header = headerRef.current
    if (!header) return
    const onFocusIn = () => setFocusInside(true)
    const onFocusOut = (event: FocusEvent) => {
      if (!header.contains(event.relatedTarget as Node | null)) setFocusInside(false)
    }
    header.addEventListener('focusin', onFocusIn)
    header.addEventListener('focusout', onFocusOut)
    return () => {
      header.removeEventListener('focusin', onFocusIn)
      header.removeEventListener('focusout', onFocusOut)
    }
  }, [])

  // Pages are separate documents, so a real route change resets everything; in-page moves (hash, history,
  // a page restored from the back/forward cache) must close the panels too.
  useEffect(() => {
    const closeAll = () => {
      setMenuOpen(false)
      setSearchOpen(false)
      setOpenGroup(null)
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      const { menuOpen: menuWasOpen, searchOpen: searchWasOpen } = panels.current
      closeAll()
      if (searchWasOpen) searchButtonRef.current?.focus()
      else if (menuWasOpen) menuButtonRef.current?.focus()
    }
    window.addEventListener('hashchange', closeAll)
    window.addEventListener('popstate', closeAll)
    window.addEventListener('pageshow', closeAll)
    document.addEventListener('keydown', onKeyDown)
    return () => {
      window.removeEventListener('hashchange', closeAll)
      window.removeEventListener('popstate', closeAll)
      window.removeEventListener('pageshow', closeAll)
      document.removeEventListener('keydown', onKeyDown)
    }
  }, [])

  useEffect(() => {
    if (searchOpen) searchInputRef.current?.focus()
  }, [searchOpen])

  function toggleMenu() {
    setMenuOpen(!menuOpen)
    setSearchOpen(false)
    setOpenGroup(null)
  }

  function toggleSearch() {
    setSearchOpen(!searchOpen)
    setMenuOpen(false)
    setOpenGroup(null)
  }

  function submitSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const href = searchHref(searchInputRef.current?.value ?? '')
    if (href) window.location.assign(href)
  }

  // Never hide the bar while the visitor is using it.
  const hidden = scroll.hidden && !menuOpen && !searchOpen && !focusInside && openGroup === null
  const accountHref = user ? '/profile' : '/login'
  const badge = badgeText(count)
  const closeMenu = () => setMenuOpen(false)

  return (
    <header ref={headerRef} className="site-header" data-compact={scroll.compact} data-hidden={hidden}>
      <div className="site-header-bar container">
        <a href="/" className="site-brand">
          <img src={logoSrc} width={40} height={40} alt="" className="site-brand-mark" />
          <span>Grit &amp; Whisker</span>
        </a>

        <nav aria-label="Main" className="desktop-nav">
          <ul>
            <li>
              <a className="nav-link" href={TOP_LINKS[0]?.href}>
                {TOP_LINKS[0]?.label}
              </a>
            </li>
            {NAV_GROUPS.map((group) => (
              <li key={group.id}>
                <NavDropdown group={group} openGroup={openGroup} setOpenGroup={setOpenGroup} />
              </li>
            ))}
            {TOP_LINKS.slice(1).map((link) => (
              <li key={link.href}>
                <a className="nav-link" href={link.href}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <div className="header-actions">
          <button
            ref={searchButtonRef}
            type="button"
            className="icon-button"
            aria-label="Search the shop"
            aria-expanded={searchOpen}
            aria-controls="site-search"
            onClick={toggleSearch}
          >
            {searchOpen ? <CloseIcon /> : <SearchIcon />}
          </button>
          <ThemeToggle className="icon-button desktop-only" />
          <a href={accountHref} className="icon-button desktop-only" aria-label="Account">
            <UserIcon />
          </a>
          <a href="/cart" className="icon-button cart-link" aria-label={cartLabel(count)}>
            <CartIcon />
            <span className="cart-badge" aria-hidden="true" hidden={!badge}>
              {badge}
            </span>
          </a>
          <button
            ref={menuButtonRef}
            type="button"
            className="icon-button phone-only"
            aria-label="Menu"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={toggleMenu}
          >
            {menuOpen ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>
      </div>

      <search id="site-search" className="search-panel" hidden={!searchOpen}>
        <form action="/shop" method="get" className="container search-form" onSubmit={submitSearch}>
          <label htmlFor="site-search-input" className="sr-only">
            Search products
          </label>
          <input
            ref={searchInputRef}
            id="site-search-input"
            className="field"
            type="search"
            name="search"
            placeholder="Search for products..."
            autoComplete="off"
            enterKeyHint="search"
            aria-describedby="site-search-hint"
          />
          <button type="submit" className="btn-primary">
            Search
          </button>
          <p id="site-search-hint" className="search-hint">
            {SEARCH_HINT}
          </p>
        </form>
      </search>

      <nav id="mobile-menu" aria-label="Mobile" className="mobile-menu" hidden={!menuOpen}>
        <div className="container">
          <ul className="mobile-menu-list">
            {TOP_LINKS.map((link) => (
              <li key={link.href}>
                <a href={link.href} onClick={closeMenu}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
          {NAV_GROUPS.map((group) => (
            <div key={group.id} className="mobile-menu-group">
              <p id={`mobile-${group.id}`} className="mobile-menu-heading">
                {group.label}
              </p>
              <ul className="mobile-menu-list" aria-labelledby={`mobile-${group.id}`}>
                {group.links.map((link) => (
                  <li key={link.href}>
                    <a href={link.href} onClick={closeMenu}>
                      {link.label}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
          <ul className="mobile-menu-list mobile-menu-account">
            <li>
              <a href={accountHref} onClick={closeMenu}>
                <UserIcon /> Account
              </a>
            </li>
            <li>
              {/* The name ('Cart, 3 items') contains the visible text ('Cart 3'), as speech users expect. */}
              <a href="/cart" onClick={closeMenu} aria-label={cartLabel(count)}>
                <CartIcon /> Cart <span className="mobile-cart-count">{count}</span>
              </a>
            </li>
            <li>
              <ThemeToggle className="mobile-menu-theme" showLabel />
            </li>
          </ul>
        </div>
      </nav>
    </header>
  )
}
