// Shared Playwright fixtures for every browser test of the shop.
//
//   import { test, expect } from './support/fixtures'
//   test('…', async ({ page, axe }) => { await page.goto('/'); await axe() })
//
// - `axe(options?)` runs axe-core on the page as it is now and fails on any violation, listing each rule,
//   its help text and the offending elements. It ends the intro splash first (it covers the page for 1.2 s
//   and would only confuse the colour-contrast checks) by finishing its animations: the page is then as it
//   is once the splash has faded, without waiting for it.
// - `waitForIsland(page, 'SiteHeader')` waits for a React island to hydrate before a test uses it;
//   `delayScript(page, /…/)` holds scripts back, to act before an island hydrates.
// - The first-visit welcome popup is suppressed by default, so it never covers what a test clicks. Tests
//   of the popup itself opt back in with `test.use({ welcomePopup: true })`. Pages or contexts made by hand
//   can call `suppressWelcomePopup(pageOrContext)`.
import AxeBuilder from '@axe-core/playwright'
import { type BrowserContext, test as base, expect, type Page } from '@playwright/test'
import { WELCOME_FLAGS } from '../../../site/features/welcome/flags'

export { expect }

export interface AxeOptions {
  /** CSS selectors to check (default: the whole page). */
  include?: string[]
  /** CSS selectors to leave out, e.g. a third-party iframe. Say why in the test. */
  exclude?: string[]
  /** Rule ids to switch off for this call only. Say why in the test. */
  disableRules?: string[]
}

export type AxeCheck = (options?: AxeOptions) => Promise<void>

/** Sets the visit flags before any page script runs, so the welcome popup stays away. */
export async function suppressWelcomePopup(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript((keys: readonly string[]) => {
    for (const key of keys) window.localStorage.setItem(key, 'true')
  }, WELCOME_FLAGS)
}

/**
 * Waits until Astro has handed an island to React (it drops the `ssr` attribute then). `name` is the
 * component's name, e.g. 'SiteHeader'. Until then its buttons are only static HTML; after it a press
 * reaches React, which replays it once hydrated. React hydrates in a transition, so the island's effects
 * (the header's sign-in check, say) may still be to come: a test whose set-up they could undo arranges
 * things before the page loads (tests/e2e/shell.spec.ts, the account link).
 */
export async function waitForIsland(page: Page, name: string): Promise<void> {
  await expect(page.locator(`astro-island[opts*='"name":"${name}"']`).first()).not.toHaveAttribute('ssr', {
    timeout: 10_000,
  })
}

/**
 * Holds back the scripts whose URLs match `file` until `deliver()` is called, as on a slow connection: the
 * page's islands stay static HTML until then.
 */
export async function delayScript(page: Page, file: RegExp): Promise<() => void> {
  let deliver = () => {}
  const delivered = new Promise<void>((resolve) => {
    deliver = resolve
  })
  await page.route(file, async (route) => {
    await delivered
    await route.continue()
  })
  return deliver
}

/**
 * A busy phone: the page's own work queued as tasks (React renders an update through a MessageChannel task)
 * runs `ms` later, after the next animation frame, as it does when the main thread is behind.
 */
export async function slowRenders(page: Page, ms = 80): Promise<void> {
  await page.evaluate((delay) => {
    const post = MessagePort.prototype.postMessage
    MessagePort.prototype.postMessage = function (this: MessagePort, ...args: Parameters<typeof post>) {
      setTimeout(() => post.apply(this, args), delay)
    } as typeof post
  }, ms)
}

/**
 * Jumps the intro splash's animations to their end (faded out and hidden, as they leave it 1.6 s after
 * the load), for checks that judge the page at rest rather than the splash itself.
 */
export async function endSplash(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const animation of document.getAnimations()) {
      if ((animation as CSSAnimation).animationName?.startsWith('splash-')) animation.finish()
    }
  })
  await waitForSplash(page)
}

/** Waits until the intro splash (if the page has one) has faded out. */
export async function waitForSplash(page: Page): Promise<void> {
  await expect(page.locator('.splash')).toBeHidden({ timeout: 5_000 })
}

/**
 * Each test is a different shopper: the test server trusts X-Forwarded-For (TRUST_PROXY=true in
 * playwright.config.ts), so per-address rate limits count each test on its own, as they would count
 * separate customers, instead of the whole run adding up against one address.
 */
function shopperAddress(testId: string, repeat: number): string {
  let hash = 0
  for (const char of `${testId}:${repeat}`) hash = (hash * 31 + char.charCodeAt(0)) >>> 0
  return `10.${(hash >>> 16) & 255}.${(hash >>> 8) & 255}.${hash & 255}`
}

export const test = base.extend<{ axe: AxeCheck; welcomePopup: boolean }>({
  welcomePopup: [false, { option: true }],

  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    const address = shopperAddress(
      `${testInfo.testId}:${testInfo.project.name}`,
      testInfo.repeatEachIndex + testInfo.retry * 1000,
    )
    await use({ ...extraHTTPHeaders, 'x-forwarded-for': address })
  },

  page: async ({ page, welcomePopup }, use) => {
    if (!welcomePopup) await suppressWelcomePopup(page)
    await use(page)
  },

  axe: async ({ page }, use) => {
    await use(async (options = {}) => {
      if ((await page.locator('.splash').count()) > 0) await endSplash(page)
      // Only violations fail a test, so axe collects only those, not every rule's passes as well. A page
      // without frames is judged in one run inside it: the default runs each frame apart and joins the
      // results in a second, blank page (for frames from other origins). The same violations either way,
      // found on the shop's pages in 0.5 s instead of 1.7 s.
      let builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] })
      if (page.frames().length === 1) builder = builder.setLegacyMode(true)
      for (const selector of options.include ?? []) builder = builder.include(selector)
      for (const selector of options.exclude ?? []) builder = builder.exclude(selector)
      if (options.disableRules?.length) builder = builder.disableRules(options.disableRules)
      const { violations } = await builder.analyze()
      const report = violations
        .map(
          (violation) =>
            `${violation.id} (${violation.impact}): ${violation.help}\n` +
            violation.nodes
              .map((node) => `    ${node.target.join(' ')}: ${node.failureSummary ?? ''}`)
              .join('\n'),
        )
        .join('\n')
      expect(violations, `axe found accessibility violations on ${page.url()}:\n${report}`).toEqual([])
    })
  },
})
