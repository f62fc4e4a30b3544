import { useEffect, useRef } from 'react'

/**
 * Focus for a control whose press swaps what is on screen (a button for a question, a form for what it
 * became): `swap(change)` runs the change and, once `state` has rendered anew, focuses `target(state)`, so the
 * focus of the one who pressed never falls to the page's start. A render for any other reason moves nothing.
 */
export function useFocusAfterSwap<State>(
  state: State,
  target: (state: State) => HTMLElement | null | undefined,
): (change: () => void) => void {
  const swapped = useRef(false)
  const targetRef = useRef(target)
  targetRef.current = target
  useEffect(() => {
    if (!swapped.current) return
    swapped.current = false
    targetRef.current(state)?.focus()
  }, [state])
  return (change) => {
    swapped.current = true
    change()
  }
}
