import { CartIcon, UserIcon } from '../../components/shell/icons'
import { ThemeToggle } from '../theme/ThemeToggle'
import { badgeText, cartLabel } from './badge'
import { NAV_GROUPS, TOP_LINKS } from './nav'

/** The phone menu: every link, the account and cart, and the theme switch. A link closes it on the way. */
export function MobileMenu(props: {
  open: boolean
  accountHref: string
  count: number
  onNavigate: () => void
}) {
  const { onNavigate } = props
  const badge = badgeText(props.count)
  return (
    <nav id="mobile-menu" aria-label="Mobile" className="mobile-menu" hidden={!props.open}>
      <div className="container">
        <ul className="mobile-menu-list">
          {TOP_LINKS.map((link) => (
            <li key={link.href}>
              <a href={link.href} onClick={onNavigate}>
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
                  <a href={link.href} onClick={onNavigate}>
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
        <ul className="mobile-menu-list mobile-menu-account">
          <li>
            <a href={props.accountHref} onClick={onNavigate}>
              <UserIcon /> Account
            </a>
          </li>
          <li>
            {/* The name ('Cart, 3 items') contains the visible text ('Cart 3'), as speech users expect. */}
            <a href="/cart" onClick={onNavigate} aria-label={cartLabel(props.count)}>
              <CartIcon /> Cart {/* As the header's badge: nothing for an empty cart, '99+' past 99. */}
              {badge && <span className="mobile-cart-count">{badge}</span>}
            </a>
          </li>
          <li>
            <ThemeToggle className="mobile-menu-theme" showLabel />
          </li>
        </ul>
      </div>
    </nav>
  )
}
