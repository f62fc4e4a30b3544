import type { ReadableAtom } from 'nanostores'
import { useCallback, useSyncExternalStore } from 'react'

/**
 * Reads a browser-only store (localStorage, session) in an island without a hydration mismatch: the static
 * HTML was rendered with `serverValue`, so hydration uses it too, and React re-renders with the real value
 * right after.
 */
export function useHydratedStore<T>(store: ReadableAtom<T>, serverValue: T): T {
  const subscribe = useCallback((onChange: () => void) => store.listen(onChange), [store])
  return useSyncExternalStore(subscribe, store.get, () => serverValue)
}
