import { persistentAtom } from '@nanostores/persistent'
import { THEME_COLORS } from './colors'

export type Theme = 'light' | 'dark'

export function isTheme(value: unknown): value is Theme {
  return value === 'light' || value === 'dark'
}

/** Local-storage key `theme`, a plain string. Undefined until the visitor picks one: the system setting decides. */
export const $storedTheme = persistentAtom<Theme | undefined>('theme', undefined, {
  encode: (value) => value,
  decode: (raw) => (isTheme(raw) ? raw : undefined),
})

/** The theme on screen: the head script has already applied the stored or system choice. */
export function currentTheme(): Theme {
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light'
}

export function applyTheme(theme: Theme): void {
  document.documentElement.classList.toggle('dark', theme === 'dark')
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_COLORS[theme])
}

export function setTheme(theme: Theme): void {
  $storedTheme.set(theme)
  applyTheme(theme)
}

export function oppositeTheme(theme: Theme): Theme {
  return theme === 'dark' ? 'light' : 'dark'
}
