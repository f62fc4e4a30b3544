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
