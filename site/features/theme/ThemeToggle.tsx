import { useEffect, useState } from 'react'
import { ThemeIcon } from '../../components/shell/icons'
import { EARLY_PRESS, takeEarlyThemePress } from '../header/early-press'
import { $storedTheme, applyTheme, currentTheme, oppositeTheme, setTheme, type Theme } from './store'

/** A toggle button: pressed means the dark theme. The choice is saved under the local-storage key `theme`. */
export function ThemeToggle({
  className = '',
  showLabel = false,
}: {
  className?: string
  showLabel?: boolean
}) {
  // The static HTML cannot know the visitor's theme; the head script has set the class before this runs.
  const [theme, setShown] = useState<Theme>('light')

  useEffect(() => {
    // Pressed before the header hydrated (header/early-press.ts): switch now, once.
    if (takeEarlyThemePress()) setTheme(oppositeTheme(currentTheme()))
    setShown(currentTheme())
    // Another tab changed the theme: follow it.
    return $storedTheme.listen((stored) => {
      if (!stored) return
      applyTheme(stored)
      setShown(stored)
    })
  }, [])

  return (
    <button
      type="button"
      className={className}
      aria-pressed={theme === 'dark'}
      data-early-press={EARLY_PRESS.theme}
      aria-label={showLabel ? undefined : 'Dark theme'}
      title={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
      onClick={() => {
        const next = oppositeTheme(currentTheme())
        setTheme(next)
        setShown(next)
      }}
    >
      <ThemeIcon />
      {showLabel && <span>Dark theme</span>}
    </button>
  )
}
