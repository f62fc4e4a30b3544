/**
 * `client:painted`: hydrate the island right after the page's first paint, not while it is still being
 * parsed; `client:painted="idle"`: at the browser's first idle moment after that paint (`client:idle` can
 * find its idle moment before anything is painted). `client:load` starts fetching the island and React as
 * soon as the parser meets it, and on a slow phone those downloads share the network with the page and its
 * images before anything is on screen; the island's static HTML already works until then
 * (docs/decisions/030-nothing-fetched-before-first-paint.md).
 *
 * The browser reports the first contentful paint once that frame is on screen; the island starts loading
 * then. A browser that reports no paints waits two frames instead, and a tab opened in the background, which
 * paints nothing, hydrates after LATEST_MS anyway.
 */
import type { ClientDirective } from 'astro'

/** Past this, hydrate even if nothing has been painted (a hidden tab). */
const LATEST_MS = 1500

function afterFirstPaint(then: () => void): void {
  if (
    typeof PerformanceObserver !== 'undefined' &&
    PerformanceObserver.supportedEntryTypes?.includes('paint')
  ) {
    const observer = new PerformanceObserver((list) => {
      if (!list.getEntriesByName('first-contentful-paint').length) return
      observer.disconnect()
      then()
    })
    // buffered: a paint that happened before the island was reached counts too.
    observer.observe({ type: 'paint', buffered: true })
  } else {
    requestAnimationFrame(() => requestAnimationFrame(then))
  }
}

const painted: ClientDirective = (load, options) => {
  let started = false
  const hydrate = async () => {
    if (started) return
    started = true
    await (await load())()
  }
  const whenIdle = options.value === 'idle' && 'requestIdleCallback' in window
  afterFirstPaint(() => (whenIdle ? requestIdleCallback(() => void hydrate()) : void hydrate()))
  setTimeout(() => void hydrate(), LATEST_MS)
}

export default painted
