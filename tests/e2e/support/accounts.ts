import type { Locator, Page } from '@playwright/test'
import { expect, test, waitForIsland } from './fixtures'

export const PASSWORD = 'cedar-and-sawdust'

/**
 * A form control by its label. Required fields' labels end in an aria-hidden '*', and the show/hide
 * buttons are named 'Show password': an anchored pattern finds the control and nothing else.
 */
export function input(scope: Page | Locator, label: string): Locator {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return scope.getByLabel(new RegExp(`^${escaped}( \\*)?( \\(optional\\))?$`))
}

/**
 * Creates an account through /signup, which signs it in and lands on /profile. For the tests of the sign-up
 * form itself; a test that only needs a signed-in customer uses `register`.
 */
export async function signUp(page: Page, email: string, firstName = 'Sam') {
  await page.goto('/signup')
  await waitForIsland(page, 'SignupForm')
  await input(page, 'First name').fill(firstName)
  await input(page, 'Last name').fill('Carpenter')
  await input(page, 'Email').fill(email)
  await input(page, 'Password').fill(PASSWORD)
  await input(page, 'Confirm password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page).toHaveURL(/\/profile$/)
}

/**
 * Creates an account and signs it in through the call the sign-up form makes (POST /auth/register, with the
 * shop's Origin as the page would send it), in the page's context: its cookies are the page's. Nothing is
 * opened: the test goes on to the page it is about.
 */
export async function register(page: Page, email: string, firstName = 'Sam') {
  const res = await page.request.post('/auth/register', {
    data: { firstName, lastName: 'Carpenter', email, password: PASSWORD },
    headers: { origin: shopOrigin() },
  })
  expect(res.status(), await res.text()).toBe(200)
}

/** The shop's own origin, which the server asks of every state-changing call (SECURITY.md). */
export function shopOrigin(): string {
  return new URL(test.info().project.use.baseURL ?? '').origin
}
