import { useEffect, useState } from 'react'

/**
 * False in the server-rendered HTML and until the island has hydrated, then true. Forms keep their submit
 * button disabled until then (docs/decisions/009-forms-before-hydration.md): a press before the page is ready does nothing, instead of
 * a native submission that would put what was typed somewhere it must not go.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return hydrated
}
