import {
  type Dispatch,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type SetStateAction,
  useCallback,
  useEffect,
  useRef,
} from 'react'
import { ChevronIcon } from '../../components/shell/icons'
import { EARLY_PRESS } from './early-press'
import type { NavGroup } from './nav'

function linksIn(root: HTMLElement | null): HTMLAnchorElement[] {
  return Array.from(root?.querySelectorAll<HTMLAnchorElement>('.nav-dropdown-list a') ?? [])
}

interface Props {
  group: NavGroup
  /** Which of the header's dropdowns is open: only one at a time. */
  openGroup: string | null
  setOpenGroup: Dispatch<SetStateAction<string | null>>
}

/**
 * A disclosure menu for site navigation (a button and a list of links, not an ARIA menu): it opens on
 * click, tap, Enter or Space, and on hover with a mouse; Escape closes it and returns focus to its button;
 * arrow keys move between its links; leaving it closes it.
 */
export function NavDropdown({ group, openGroup, setOpenGroup }: Props) {
  const open = openGroup === group.id
  const onOpenChange = useCallback(
    (next: boolean) => setOpenGroup((current) => (next ? group.id : current === group.id ? null : current)),
    [group.id, setOpenGroup],
  )
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const openedByHover = useRef(false)
  const focusFirstOnOpen = useRef(false)
  const listId = `nav-${group.id}`

  useEffect(() => {
    if (!open) {
      openedByHover.current = false
      return
    }
    if (focusFirstOnOpen.current) {
      focusFirstOnOpen.current = false
      linksIn(rootRef.current)[0]?.focus()
    }
    const closeOnOutsidePress = (event: globalThis.PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) onOpenChange(false)
    }
    document.addEventListener('pointerdown', closeOnOutsidePress)
    return () => document.removeEventListener('pointerdown', closeOnOutsidePress)
  }, [open, onOpenChange])

  function onButtonClick(event: MouseEvent<HTMLButtonElement>) {
    // A mouse that opened the list by hovering should not close it again with the click that follows.
    if (open && openedByHover.current && event.detail > 0) {
      openedByHover.current = false
      return
    }
    // detail 0: the click came from Enter or Space, so take the keyboard into the list.
    focusFirstOnOpen.current = !open && event.detail === 0
    onOpenChange(!open)
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape' && open) {
      event.stopPropagation()
      onOpenChange(false)
      buttonRef.current?.focus()
      return
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
    event.preventDefault()
    if (!open) {
      focusFirstOnOpen.current = true
      onOpenChange(true)
      return
    }
    const items = linksIn(rootRef.current)
    const index = items.indexOf(document.activeElement as HTMLAnchorElement)
    const step = event.key === 'ArrowDown' ? 1 : -1
    items[(index + step + items.length) % items.length]?.focus()
  }

  function onPointerEnter(event: PointerEvent) {
    if (event.pointerType !== 'mouse' || open) return
    openedByHover.current = true
    onOpenChange(true)
  }

  function onPointerLeave(event: PointerEvent) {
    if (event.pointerType === 'mouse' && openedByHover.current) onOpenChange(false)
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the wrapper only routes keys and hover to the disclosure inside it
    <div
      ref={rootRef}
      className="nav-dropdown"
      onKeyDown={onKeyDown}
      onPointerEnter={onPointerEnter}
      onPointerLeave={onPointerLeave}
      onBlur={(event) => {
        if (open && !rootRef.current?.contains(event.relatedTarget as Node | null)) onOpenChange(false)
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="nav-link"
        aria-expanded={open}
        aria-controls={listId}
        data-early-press={EARLY_PRESS.group(group.id)}
        onClick={onButtonClick}
      >
        {group.label}
        <ChevronIcon />
      </button>
      <ul id={listId} className="nav-dropdown-list" hidden={!open}>
        {group.links.map((link) => (
          <li key={link.href}>
            <a href={link.href} onClick={() => onOpenChange(false)}>
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </div>
  )
}
