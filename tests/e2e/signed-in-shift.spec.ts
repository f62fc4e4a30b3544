// The signed-in pages are painted before the server has said who is signed in: their islands fill in once
// it answers. Nothing on screen may move when they do (docs/architecture.md#performance-budgets: no shift
// on /dashboard, none on /profile), even when the answers come slowly and one after another. "None" is as
// Lighthouse reports layout shift, to three decimals: a font's sub-pixel rounding may leave 0.0001.
import type { Page } from '@playwright/test'
import { PASSWORD } from './support/accounts'
import { expect, test, waitForIsland } from './support/fixtures'
import { layoutShiftTotal, watchLayoutShifts } from './support/layout-shift'
import { addStaff, STAFF_PASSWORD } from './support/staff'

/** Under what Lighthouse shows as 0.000. */
const NO_SHIFT = 0.0005

const uniqueEmail = (name: string) => `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`

/** Holds every API answer back a little longer than the one before, so each island fills in on its own. */
async function slowAnswers(page: Page) {
  let delay = 0
  await page.route('**/api/**', async (route) => {
    delay += 200
    await new Promise((resolve) => setTimeout(resolve, delay))
    await route.continue()
  })
}

async function signIn(page: Page, email: string, password: string) {
  const res = await page.request.post('/api/auth/login', {
    data: { email, password },
    headers: { origin: new URL(test.info().project.use.baseURL ?? '').origin },
  })
  expect(res.status()).toBe(200)
}

test('/dashboard does not move while its panels load', async ({ page }) => {
  test.setTimeout(60_000)
  const email = uniqueEmail('shift.staff')
  addStaff(email)
  await signIn(page, email, STAFF_PASSWORD)
  await watchLayoutShifts(page)
  await slowAnswers(page)
  await page.goto('/dashboard')
  await waitForIsland(page, 'DashboardPage')
  await expect(page.locator('[data-stat="ordersToday"]')).toHaveText(/^\d+$/, { timeout: 20_000 })
  await expect(page.getByText('Loading events...')).toHaveCount(0, { timeout: 20_000 })
  expect(await layoutShiftTotal(page)).toBeLessThan(NO_SHIFT)
})

test('/profile does not move while the account loads', async ({ page }) => {
  const email = uniqueEmail('shift.customer')
  const res = await page.request.post('/auth/register', {
    data: { firstName: 'Sam', lastName: 'Carpenter', email, password: PASSWORD },
    headers: { origin: new URL(test.info().project.use.baseURL ?? '').origin },
  })
  expect(res.status()).toBe(200)
  await watchLayoutShifts(page)
  await slowAnswers(page)
  await page.goto('/profile')
  await waitForIsland(page, 'AccountPage')
  await expect(page.getByText('Loading your account...')).toHaveCount(0, { timeout: 20_000 })
  await expect(page.getByRole('heading', { name: 'Your Data' })).toBeVisible()
  expect(await layoutShiftTotal(page)).toBeLessThan(NO_SHIFT)
})
