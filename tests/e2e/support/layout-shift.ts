import type { Page } from '@playwright/test'

/** Starts recording layout shifts from the first paint of every page `page` opens (input-driven ones left out). */
export async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: number[] = []
    ;(window as unknown as { layoutShifts: number[] }).layoutShifts = shifts
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number
        hadRecentInput: boolean
      })[]) {
        if (!entry.hadRecentInput) shifts.push(entry.value)
      }
    }).observe({ type: 'layout-shift', buffered: true })
  })
}

/** The layout shift the current page has made so far (its CLS, as one session window or more). */
export async function layoutShiftTotal(page: Page): Promise<number> {
  return page.evaluate(() =>
    (window as unknown as { layoutShifts: number[] }).layoutShifts.reduce((sum, value) => sum + value, 0),
  )
}

/**
 * Counts the layout shifts of the current page from now on, those that follow an input too: Lighthouse
 * leaves out the half second after a press, but an answer that comes later than that (a phone's network)
 * is counted there, so what a press brings must move nothing either way. The function returned waits for
 * the page to draw twice and says the total since.
 */
export async function shiftsFromNow(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const values: number[] = []
    const take = (entries: PerformanceEntryList) => {
      for (const entry of entries) values.push((entry as PerformanceEntry & { value: number }).value)
    }
    const observer = new PerformanceObserver((list) => take(list.getEntries()))
    observer.observe({ type: 'layout-shift' })
    ;(window as unknown as { shiftsSince: () => number }).shiftsSince = () => {
      // Entries of the frames just drawn may not have been handed to the callback yet.
      take(observer.takeRecords())
      return values.reduce((sum, value) => sum + value, 0)
    }
  })
  return () =>
    page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() =>
              resolve((window as unknown as { shiftsSince: () => number }).shiftsSince()),
            ),
          ),
        ),
    )
}
