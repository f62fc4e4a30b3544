import { startTransition, useCallback, useEffect, useRef, useState } from 'react'

/**
 * After a failure the next try comes this soon, whatever the interval: a section saying the shop could not be
 * reached should stop saying so within seconds of the shop answering again.
 */
export const RETRY_AFTER_FAILURE_MS = 5000

export interface Polled<T> {
  data: T | null
  /** The last failure, cleared by the next success; earlier data stays on screen meanwhile. */
  error: Error | null
  loading: boolean
  /** Loads now (and restarts the interval); resolves when done, rejects with the failure. */
  refresh: () => Promise<void>
}

/**
 * Loads now, then every `intervalMs` while the tab is visible (docs/product.md#dashboard: 30 s, 15 s, 10 s). A hidden tab
 * stops polling; coming back loads at once. `onError` sees each failure (401 and 403 end the page's access).
 * A new `key` (what `load` asks for has changed) loads at once and starts the interval again.
 */
export function usePolling<T>(
  load: (signal: AbortSignal) => Promise<T>,
  intervalMs: number | null,
  onError?: (error: Error) => void,
  key = '',
): Polled<T> {
  const [data, setData] = useState<T | null>(null)
  const [error, setError] = useState<Error | null>(null)
  const [loading, setLoading] = useState(true)
  const loadRef = useRef(load)
  loadRef.current = load
  const onErrorRef = useRef(onError)
  onErrorRef.current = onError
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const controller = useRef<AbortController | null>(null)
  const active = useRef(true)

  const run = useCallback(async (): Promise<void> => {
    clearTimeout(timer.current)
    controller.current?.abort()
    const current = new AbortController()
    controller.current = current
    setLoading(true)
    let failed = false
    try {
      const answer = await loadRef.current(current.signal)
      if (current.signal.aborted || !active.current) return
      // Rendering what came back (tables of orders and events) is a transition: React renders it in slices
      // that yield to the browser, so a slow phone never freezes for a whole table, and the old data stays
      // on screen until the new is ready.
      startTransition(() => {
        setData(answer)
        setError(null)
        setLoading(false)
      })
    } catch (caught) {
      if (current.signal.aborted || !active.current) return
      failed = true
      const failure = caught instanceof Error ? caught : new Error(String(caught))
      // At once, unlike a success's (set with its data), so no render shows the list loaded before the data.
      setLoading(false)
      setError(failure)
      onErrorRef.current?.(failure)
      throw failure
    } finally {
      const next = !current.signal.aborted && active.current && intervalMs !== null
      if (next && document.visibilityState === 'visible') {
        const wait = failed ? Math.min(intervalMs, RETRY_AFTER_FAILURE_MS) : intervalMs
        timer.current = setTimeout(() => void run().catch(() => undefined), wait)
      }
    }
    // `key` is not read here: a new one makes a new `run`, which the effect below starts at once.
    void key
  }, [intervalMs, key])

  useEffect(() => {
    active.current = true
    void run().catch(() => undefined)
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        clearTimeout(timer.current)
      } else {
        void run().catch(() => undefined)
      }
    }
    document.addEventListener('visibilitychange', onVisibility)
    return () => {
      active.current = false
      clearTimeout(timer.current)
      controller.current?.abort()
      document.removeEventListener('visibilitychange', onVisibility)
    }
  }, [run])

  return { data, error, loading, refresh: run }
}
