import { useEffect, useRef, useState } from 'react'
import { EARLY_GROUP_PREFIX, EARLY_PRESS, takeEarlyPanel } from './early-press'
import { initialScrollState, nextScrollState } from './scroll-state'

/**
 * The header's panels: the phone menu, the search panel and the desktop dropdowns. Opening the menu or the
 * search closes the others; Escape closes them and returns focus to the button that opened one. Pages are
 * separate documents, so a real route change resets everything; in-page moves (hash, history, a page
 * restored from the back/forward cache) must close the panels too. A panel pressed before the header hydrated
 * opens as it does (early-press.ts).
 */
export function useHeaderPanels() {
  const [openGroup, setOpenGroup] = useState<string | null>(null)
  const [menuOpen, setMenuOpen] = useState(false)
  const [searchOpen, setSearchOpen] = useState(false)
  const menuButtonRef = useRef<HTMLButtonElement>(null)
  const searchButtonRef = useRef<HTMLButtonElement>(null)
  // The document-level Escape handler reads the panels from here rather than re-subscribing on each change.
  const panels = useRef({ menuOpen, searchOpen })
  panels.current = { menuOpen, searchOpen }

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
    const panel = takeEarlyPanel()
    if (panel === EARLY_PRESS.menu) setMenuOpen(true)
    else if (panel === EARLY_PRESS.search) setSearchOpen(true)
    else if (panel?.startsWith(EARLY_GROUP_PREFIX)) setOpenGroup(panel.slice(EARLY_GROUP_PREFIX.length))
  }, [])

  return {
    openGroup,
    setOpenGroup,
    menuOpen,
    searchOpen,
    menuButtonRef,
    searchButtonRef,
    toggleMenu() {
      setMenuOpen(!menuOpen)
      setSearchOpen(false)
      setOpenGroup(null)
    },
    toggleSearch() {
      setSearchOpen(!searchOpen)
      setMenuOpen(false)
      setOpenGroup(null)
    },
    closeMenu: () => setMenuOpen(false),
  }
}

/**
 * Where the bar stands as the page scrolls (compact, hidden), and whether focus is inside it: a keyboard
 * user tabbing into a hidden bar must see where focus went.
 */
export function useHeaderScroll(headerRef: { current: HTMLElement | null }) {
  const [scroll, setScroll] = useState(() => initialScrollState(0))
  const [focusInside, setFocusInside] = useState(false)

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
  }, [headerRef])

  return { scroll, focusInside }
}
