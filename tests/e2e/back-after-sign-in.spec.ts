// Back after signing in (docs/product.md#sign-in): a shopper who signed in and presses Back never sees the
// sign-in form again while signed in. Signing in and up leave their page out of the history, and /login or
// /signup, shown to a visitor who is signed in already (loaded again, or restored from the back-forward
// cache), sends them on to where signing in would have. A `signed_in` hint outliving its session never
// makes /login and /profile send the visitor to each other.
import type { Page } from '@playwright/test'
import { input, PASSWORD, register } from './support/accounts'
import { expect, test, waitForIsland } from './support/fixtures'

function uniqueEmail(project: string, name: string): string {
  return `${name}.${project}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`
}

const signInForm = (page: Page) => page.getByRole('form', { name: 'Sign in' })

/**
 * Notes, in the tab's sessionStorage, each time /login or /signup is first laid out, and whether its body
 * could be seen then: a form shown to a signed-in visitor even for a moment is on this list as 'visible'.
 */
async function recordFormPages(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      if (!/^\/(login|signup)$/.test(location.pathname)) return
      const seen = JSON.parse(sessionStorage.getItem('form-pages') ?? '[]') as string[]
      seen.push(`${location.pathname} ${getComputedStyle(document.body).visibility}`)
      sessionStorage.setItem('form-pages', JSON.stringify(seen))
    })
  })
}

const formPages = (page: Page) =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem('form-pages') ?? '[]') as string[])

async function signInAt(page: Page, path: string, email: string) {
  await page.goto(path)
  await waitForIsland(page, 'LoginForm')
  await input(page, 'Email').fill(email)
  await input(page, 'Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
}

async function signedInCookie(page: Page): Promise<string | undefined> {
  return (await page.context().cookies()).find((cookie) => cookie.name === 'signed_in')?.value
}

test.beforeEach(() => {
  test.setTimeout(60_000)
})

test('after signing in at /login?next=, Back goes to the page before the sign-in, not the form', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail(testInfo.project.name, 'back')
  await register(page, email)
  await page.context().clearCookies()

  await page.goto('/shop')
  await signInAt(page, '/login?next=%2Fcart', email)
  await expect(page).toHaveURL(/\/cart$/)
  await page.goBack()
  await expect(page).toHaveURL(/\/shop$/)
  await expect(signInForm(page)).toHaveCount(0)
})

test('/login left in the history (sign-up taken from it) sends a signed-in visitor on to its next, unseen', async ({
  page,
}, testInfo) => {
  await recordFormPages(page)
  await page.goto('/shop')
  await page.goto('/login?next=%2Fcart')
  await waitForIsland(page, 'LoginForm')
  await page.getByRole('link', { name: 'Sign Up' }).click()
  await waitForIsland(page, 'SignupForm')
  await input(page, 'First name').fill('Bea')
  await input(page, 'Last name').fill('Carpenter')
  await input(page, 'Email').fill(uniqueEmail(testInfo.project.name, 'signup'))
  await input(page, 'Password').fill(PASSWORD)
  await input(page, 'Confirm password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page).toHaveURL(/\/profile$/)

  // Back skips the sign-up form (left out of the history) and lands on /login, which goes on to its next.
  await page.goBack()
  await expect(page).toHaveURL(/\/cart$/)
  // The two forms as the signed-out visitor saw them, then /login again, hidden while it moved on.
  expect(await formPages(page)).toEqual(['/login visible', '/signup visible', '/login hidden'])
  // It replaced itself too: one more Back is the page before it.
  await page.goBack()
  await expect(page).toHaveURL(/\/shop$/)
})

test('a signed-in visitor to /login or /signup goes on at once, to a next on this site only', async ({
  page,
}, testInfo) => {
  await register(page, uniqueEmail(testInfo.project.name, 'again'))
  await page.goto('/signup')
  await expect(page).toHaveURL(/\/account$/)
  await page.goto('/login?next=%2Fcart')
  await expect(page).toHaveURL(/\/cart$/)
  // With an empty cart, /shipping sends the shopper on to the cart.
  await page.goto('/login?checkout=true')
  await expect(page).toHaveURL(/\/(shipping|cart)$/)
  await page.goto(`/login?next=${encodeURIComponent('//evil.example')}`)
  await expect(page).toHaveURL(/\/account$/)
})

test('/login restored from the back-forward cache, signed in meanwhile, goes on to its next', async ({
  page,
}, testInfo) => {
  await page.goto('/login?next=%2Fcart')
  await waitForIsland(page, 'LoginForm')
  await expect(signInForm(page)).toBeVisible()
  // Signed in elsewhere in the meantime (another tab, or the sign-up this page led to).
  await register(page, uniqueEmail(testInfo.project.name, 'cached'))
  // Playwright's Chromium runs without the back-forward cache, so the event it fires on restoring a page
  // is fired here by hand, on the page as it was left.
  await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })))
  await expect(page).toHaveURL(/\/cart$/)
})

test('a stale signed_in hint: /login shows its form and removes the hint; /profile and /login never loop', async ({
  page,
  baseURL,
}) => {
  const stale = async () =>
    page.context().addCookies([
      { name: 'signed_in', value: '1', url: baseURL ?? '' },
      { name: 'session', value: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', url: baseURL ?? '' },
    ])
  const visited: string[] = []
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname)
  })

  await stale()
  await page.goto('/login?next=%2Fprofile')
  await expect(signInForm(page)).toBeVisible()
  await expect.poll(() => signedInCookie(page)).toBeUndefined()
  await expect(page).toHaveURL(/\/login\?next=%2Fprofile$/)

  await stale()
  await page.goto('/profile')
  await expect(page).toHaveURL(/\/login$/)
  await expect(signInForm(page)).toBeVisible()
  await expect.poll(() => signedInCookie(page)).toBeUndefined()
  // Settled: nothing moves any more.
  await page.waitForTimeout(1000)
  expect(visited).toEqual(['/login', '/profile', '/login'])
})

test('after Google sign-in, Back does not show the sign-in form', async ({ page, baseURL }, testInfo) => {
  await page
    .context()
    .addCookies([
      { name: 'fake_google_email', value: uniqueEmail(testInfo.project.name, 'gback'), url: baseURL ?? '' },
    ])
  await page.goto('/shop')
  await page.goto('/login')
  await waitForIsland(page, 'LoginForm')
  await page.getByRole('link', { name: 'Sign in with Google' }).click()
  await expect(page).toHaveURL(/\/account$/)
  await page.goBack()
  await expect(page).toHaveURL(/\/account$/)
  await expect(signInForm(page)).toHaveCount(0)
  await page.goBack()
  await expect(page).toHaveURL(/\/shop$/)
})
