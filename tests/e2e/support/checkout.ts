import type { Page } from '@playwright/test'
import { expect } from './fixtures'

/** On /checkout with the demo provider: pays with the test card that always pays; the new order's number. */
export async function payWithTestCard(page: Page, nameOnCard: string): Promise<string> {
  await expect(page).toHaveURL(/\/checkout\?client_secret=cs_test_/)
  await page.getByLabel('Card number').fill('4242 4242 4242 4242')
  await page.getByLabel('Expiry (MM/YY)').fill('1234')
  await page.getByLabel('CVC').fill('123')
  await page.getByLabel('Name on card').fill(nameOnCard)
  await page.getByRole('button', { name: /^Pay \$/ }).click()
  await expect(page).toHaveURL(/\/success\?session_id=/)
  const orderNumber = page.getByText(/^Order number #\d{6}$/)
  await expect(orderNumber).toBeVisible({ timeout: 15_000 })
  return ((await orderNumber.textContent()) ?? '').replace(/\D/g, '')
}
