import { useEffect, useRef } from 'react'
import { CartIcon, CloseIcon, MenuIcon, SearchIcon, UserIcon } from '../../components/shell/icons'
import { useHydratedStore } from '../../components/shell/use-hydrated-store'
import { $user, loadUser } from '../account/auth-store'
import { cartCount } from '../cart/store'
import { ThemeToggle } from '../theme/ThemeToggle'
import { badgeText, cartLabel } from './badge'
import { EARLY_PRESS } from './early-press'
import { MobileMenu } from './MobileMenu'
import { NavDropdown } from './NavDropdown'
import { NAV_GROUPS, TOP_LINKS } from './nav'
import { SearchPanel } from './SearchPanel'
import { useHeaderPanels, useHeaderScroll } from './use-header-panels'

interface Props {
  /** URL of the brand mark, resolved by the layout from site/assets. */
  logoSrc: string
}

/**
 * The fixed site header. Its full markup is rendered to static HTML (links work without JavaScript and
 * nothing shifts on hydration); hydration adds the scroll behaviour, menus, search, badge and account link.
 * A press on its buttons before then is kept and carried out as it hydrates (early-press.ts).
 */
export default function SiteHeader({ logoSrc }: Props) {
  const headerRef = useRef<HTMLElement>(null)
  const { scroll, focusInside } = useHeaderScroll(headerRef)
  const panels = useHeaderPanels()
  const { menuOpen, searchOpen, openGroup } = panels
  const count = useHydratedStore(cartCount, 0)
  const user = useHydratedStore($user, undefined)

  useEffect(() => {
    void loadUser()
  }, [])

  // Never hide the bar while the visitor is using it.
  const hidden = scroll.hidden && !menuOpen && !searchOpen && !focusInside && openGroup === null
  const accountHref = user ? '/profile' : '/login'
  const badge = badgeText(count)

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
                <NavDropdown group={group} openGroup={openGroup} setOpenGroup={panels.setOpenGroup} />
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
          {/* Shown only where scripts cannot run (site/styles/shell.css), as the menu's link below. */}
          <a
            href="#site-search"
            className="icon-button search-link-without-script"
            aria-label="Search the shop"
          >
            <SearchIcon />
          </a>
          <button
            ref={panels.searchButtonRef}
            type="button"
            className="icon-button search-button"
            aria-label="Search the shop"
            aria-expanded={searchOpen}
            aria-controls="site-search"
            data-early-press={EARLY_PRESS.search}
            onClick={panels.toggleSearch}
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
          {/* Shown only where scripts cannot run (site/styles/shell.css): the button above it would do
              nothing there, and this link opens the same menu through :target. */}
          <a
            href="#mobile-menu"
            className="icon-button phone-only menu-link-without-script"
            aria-label="Menu"
          >
            <MenuIcon />
          </a>
          <button
            ref={panels.menuButtonRef}
            type="button"
            className="icon-button phone-only menu-button"
            aria-label="Menu"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            data-early-press={EARLY_PRESS.menu}
            onClick={panels.toggleMenu}
          >
            {menuOpen ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>
      </div>

      <SearchPanel open={searchOpen} />
      <MobileMenu open={menuOpen} accountHref={accountHref} count={count} onNavigate={panels.closeMenu} />
    </header>
  )
}
