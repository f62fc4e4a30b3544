// The Google buttons are shown only when Google sign-in is configured. playwright.config.ts runs the shop
// with a local OpenID provider as Google, and a second shop without Google sign-in (E2E_NO_GOOGLE_URL).
// The site is built once, before either server knew its configuration; each answers with the pages that
// fit it, so nothing moves once a page has loaded and no link leads to a page that cannot work.
import type { Page } from '@playwright/test'
import { expect, test, waitForIsland } from './support/fixtures'
import { layoutShiftTotal, watchLayoutShifts } from './support/layout-shift'

const NO_GOOGLE = process.env.E2E_NO_GOOGLE_URL ?? ''

const GOOGLE_BUTTONS = [
  { path: '/login', island: 'LoginForm', name: 'Sign in with Google' },
  { path: '/signup', island: 'SignupForm', name: 'Sign up with Google' },
]

/** How far the heading 'New to Grit & Whisker?' or 'Already have an account?' line sits, before and after hydration. */
async function signUpLineTop(page: Page): Promise<number> {
  return page
    .locator('main p', { hasText: /New to Grit|Already have an account/ })
    .evaluate((element) => element.getBoundingClientRect().top)
}

test.describe('with Google sign-in configured', () => {
  for (const { path, island, name } of GOOGLE_BUTTONS) {
    test(`${path} shows '${name}', leading to Google sign-in`, async ({ page }) => {
      await page.goto(path)
      await waitForIsland(page, island)
      await expect(page.getByRole('link', { name })).toHaveAttribute('href', /^\/google-sign-in/)
    })
  }
})

test.describe('without Google sign-in', () => {
  for (const { path, island, name } of GOOGLE_BUTTONS) {
    test(`${path} has no '${name}', in its HTML or once hydrated, and nothing moves`, async ({
      page,
      axe,
    }) => {
      await watchLayoutShifts(page)
      const answer = await page.request.get(`${NO_GOOGLE}${path}`)
      expect(answer.status()).toBe(200)
      const html = await answer.text()
      expect(html).not.toContain('/google-sign-in')
      expect(html).not.toContain('/auth/google')

      await page.goto(`${NO_GOOGLE}${path}`)
      const before = await signUpLineTop(page)
      await waitForIsland(page, island)
      await expect(page.getByRole('link', { name: /google/i })).toHaveCount(0)
      expect(await signUpLineTop(page)).toBe(before)
      const shifted = await layoutShiftTotal(page)
      expect(shifted).toBeLessThanOrEqual(0.01)
      await axe()
    })
  }

  test('/google-sign-in says Google sign-in is not set up, and sends nobody on to Google', async ({
    page,
  }) => {
    const toGoogle: string[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/auth/google')) toGoogle.push(request.url())
    })
    // Loaded: a refresh or a script that sent the visitor on would be in the page by now, and run from here.
    await page.goto(`${NO_GOOGLE}/google-sign-in`, { waitUntil: 'load' })
    await expect(page.getByRole('heading', { level: 1, name: 'Google Sign-In Is Not Set Up' })).toBeVisible()
    expect(await page.content()).not.toContain('/auth/google')
    await expect(page.locator('meta[http-equiv="refresh" i]')).toHaveCount(0)
    expect(toGoogle).toEqual([])
    expect(new URL(page.url()).pathname).toBe('/google-sign-in')
    await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toHaveAttribute('href', '/login')
  })

  test('a link checker crawling the shop finds no link to a page that fails', async ({ request }) => {
    test.setTimeout(120_000)
    const origin = new URL(NO_GOOGLE).origin
    const seen = new Map<string, number>()
    const broken: string[] = []
    const queue = ['/', '/login', '/signup', '/forgot-password']
    while (queue.length > 0) {
      const path = queue.shift() ?? '/'
      if (seen.has(path)) continue
      const res = await request.get(`${origin}${path}`, { maxRedirects: 0 })
      seen.set(path, res.status())
      if (res.status() >= 500) broken.push(`${path} → ${res.status()}`)
      if (!(res.headers()['content-type'] ?? '').startsWith('text/html')) continue
      for (const match of (await res.text()).matchAll(/<a\b[^>]*\shref="([^"#]*)[^"]*"/g)) {
        const href = match[1] ?? ''
        if (!href) continue
        const url = new URL(href.replaceAll('&amp;', '&'), `${origin}${path}`)
        if (url.origin !== origin) continue
        if (!seen.has(url.pathname + url.search)) queue.push(url.pathname + url.search)
      }
    }
    expect(seen.size).toBeGreaterThan(20)
    expect(broken).toEqual([])
    expect([...seen.keys()].filter((path) => path.includes('google'))).toEqual([])
  })
})
