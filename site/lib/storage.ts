import type { PersistentEncoder } from '@nanostores/persistent'

/**
 * A JSON encoder for persistent stores that survives whatever is in localStorage: a value that does not
 * parse or does not pass `check` is logged and replaced by the fallback, never thrown at a page.
 */
export function safeJson<T>(
  key: string,
  check: (value: unknown) => T | null,
  fallback: T,
): PersistentEncoder<T> {
  return {
    encode: (value) => JSON.stringify(value),
    decode: (raw) => {
      try {
        const value = check(JSON.parse(raw))
        if (value !== null) return value
      } catch {
        // fall through to the warning below
      }
      console.warn(`Ignoring unreadable saved ${key}`)
      return fallback
    },
  }
}
