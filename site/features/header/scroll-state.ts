/** docs/product.md#every-page: the bar turns compact after 50 px of scroll and may hide only past 100 px. */
export const COMPACT_AFTER_PX = 50
export const HIDE_AFTER_PX = 100

export interface HeaderScrollState {
  compact: boolean
  hidden: boolean
  lastY: number
}

export function initialScrollState(y = 0): HeaderScrollState {
  const top = Math.max(0, y)
  return { compact: top > COMPACT_AFTER_PX, hidden: false, lastY: top }
}

/**
 * The header's next state for a new scroll position: hidden while moving down past the hide line, shown
 * again on any move up or near the top. Negative positions (overscroll bounce) count as the top.
 */
export function nextScrollState(previous: HeaderScrollState, y: number): HeaderScrollState {
  const top = Math.max(0, y)
  let hidden = previous.hidden
  if (top <= HIDE_AFTER_PX) hidden = false
  else if (top > previous.lastY) hidden = true
  else if (top < previous.lastY) hidden = false
  return { compact: top > COMPACT_AFTER_PX, hidden, lastY: top }
}
