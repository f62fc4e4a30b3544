import type { Locator, Page } from '@playwright/test'
import { expect, waitForIsland } from './fixtures'

export const PASSWORD = 'cedar-and-sawdust'

/**
 * A form control by its label. Required fields' labels end in an aria-hidden '*', and the show/hide
 * buttons are named 'Show password': an anchored pattern finds the control and nothing else.
 */
export function input(scope: Page | Locator, label: string): Locator {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return scope.getByLabel(new RegExp(`^${escaped}( \\*)?( \\(optional\\))?$`))
}

/** Creates an account through /signup, which signs it in and lands on /profile. */
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
