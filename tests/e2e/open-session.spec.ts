// Back from the payment page to change the cart (docs/decisions/032-one-open-session-per-cart.md): the
// code's last use and the last units the cart's own payment session holds stay the cart's. The cart keeps
// the code and warns of nothing, and the changed cart opens its payment page, ending the earlier session.
import type { Page } from '@playwright/test'
import { expect, test, waitForIsland } from './support/fixtures'
import { serverDatabase } from './support/staff'

/** Hammered Citrus in Cedar Shop: two on the shelf, one for each project's cart; no other test counts it. */
const OIL = { id: 1, name: 'Hammered Citrus', variant: 'Cedar Shop' }
const REPAIR = { id: 4, name: 'Workforce Repair Original Grit' }

async function sql(statement: string, args: (string | number)[] = []) {
  const db = await serverDatabase()
  try {
    return (await db.execute({ sql: statement, args })).rows
  } finally {
    db.close()
  }
}

function cartLine(product: { id: number; name: string }, price: string, quantity: number, variant?: string) {
  const line = { product: { ...product, slug: 'whisker-oil', category: 'whisker-oil', price, weight: '2.0' } }
  return { ...line, quantity, ...(variant ? { selectedVariant: variant } : {}) }
}

async function toPayment(page: Page) {
  await page.getByRole('button', { name: 'Continue to Shipping' }).click()
  await waitForIsland(page, 'ShippingCheckout')
  await page.getByRole('button', { name: 'Get Shipping Rates' }).click()
  await page.getByRole('group', { name: 'Select Shipping Method' }).getByRole('radio').first().check()
  await page.getByRole('button', { name: 'Continue to Payment' }).click()
  await expect(page).toHaveURL(/\/checkout\?client_secret=cs_test_/)
  await expect(page.getByRole('heading', { level: 1, name: 'Secure Checkout' })).toBeVisible()
}

/**
 * From the cart to its first payment page: the address entered on /shipping (kept when the shopper goes back
 * to the cart), then on to payment. Answers the payment session's id.
 */
async function firstPayment(page: Page, email: string): Promise<string> {
  await page.getByRole('button', { name: 'Continue to Shipping' }).click()
  await waitForIsland(page, 'ShippingCheckout')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Full name').fill('Sam Carpenter')
  await page.getByLabel('Street address').fill('12 Workshop Lane')
  await page.getByLabel('City').fill('Austin')
  await page.getByLabel('State').selectOption('TX')
  await page.getByLabel('ZIP').fill('73301')
  await page.getByRole('link', { name: 'Back to Cart' }).click()
  await waitForIsland(page, 'CartView')
  await toPayment(page)
  return new URL(page.url()).searchParams.get('client_secret')?.split('_secret_')[0] ?? ''
}

test.beforeAll(async () => {
  await sql(
    `insert into stock_levels (product_id, variant, on_hand, updated_at) values (?, ?, 2, ?)
     on conflict (product_id, variant) do update set on_hand = excluded.on_hand`,
    [OIL.id, OIL.variant, Date.now()],
  )
})

test('back from the payment page, the cart keeps its code and units and opens a new payment page', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000)
  const email = `back.${testInfo.project.name}.${Date.now()}@example.com`
  // One use in all, $5 off.
  const code = `BACK${testInfo.project.name.toUpperCase()}${Date.now()}`
  await sql(
    'insert into discount_codes (code, type, amount, max_redemptions, created_at) values (?, ?, ?, ?, ?)',
    [code, 'fixed', 500, 1, Date.now()],
  )

  await page.goto('/about')
  await page.evaluate(
    (lines) => window.localStorage.setItem('cart', JSON.stringify(lines)),
    [cartLine(OIL, '21.00', 1, OIL.variant), cartLine(REPAIR, '13.00', 1)],
  )
  await page.goto('/cart')
  await waitForIsland(page, 'CartView')
  await page.getByLabel('Discount code').fill(code)
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByText(`Code ${code} applied`)).toBeVisible()

  const first = await firstPayment(page, email)

  // Back in the cart: the session holds the code's only use and one of this scent's units, both its own.
  await page.goto('/cart')
  await waitForIsland(page, 'CartView')
  await expect(page.getByText(`Code ${code} applied`)).toBeVisible()
  await expect(page.getByLabel(`Quantity of ${OIL.name}`, { exact: true })).toBeVisible()
  await expect(page.locator('[data-stock-warning]')).toHaveCount(0)
  await expect(page.locator('.toast-list li', { hasText: 'Discount Removed' })).toHaveCount(0)

  // A second jar of repair balm: a new payment page, with the code, and the earlier session ended.
  await page.getByRole('button', { name: `Increase quantity of ${REPAIR.name}` }).click()
  await expect(page.getByLabel(`Quantity of ${REPAIR.name}`, { exact: true })).toHaveValue('2')
  await toPayment(page)

  const sessions = await sql('select id, status from checkout_sessions where email = ? order by created_at', [
    email,
  ])
  expect(sessions.map((row) => row.status)).toEqual(['expired', 'open'])
  expect(sessions[0]?.id).toBe(first)
})

test('a payment page whose session has ended says so for the whole form and offers the cart', async ({
  page,
}) => {
  await page.goto('/about')
  await page.evaluate(
    (lines) => window.localStorage.setItem('cart', JSON.stringify(lines)),
    [cartLine(REPAIR, '13.00', 1)],
  )
  await page.goto('/cart')
  await waitForIsland(page, 'CartView')
  const id = await firstPayment(page, 'ended.session@example.com')
  // The form is on the page (what it shows was read while the session was open); then the session ends
  // (another tab's checkout, or a day gone by).
  await expect(page.getByLabel('Card number')).toBeVisible()
  await sql(`update demo_payment_sessions set status = 'expired' where id = ?`, [id])

  await page.getByLabel('Card number').fill('4242 4242 4242 4242')
  await page.getByLabel('Expiry (MM/YY)').fill('12/30')
  await page.getByLabel('CVC').fill('123')
  await page.getByLabel('Name on card').fill('Sam Carpenter')
  await page.getByRole('button', { name: /^Pay / }).click()
  const alert = page.getByRole('alert').filter({ hasText: 'This checkout session has expired.' })
  await expect(alert).toBeVisible()
  await expect(page.getByLabel('Expiry (MM/YY)')).not.toHaveAttribute('aria-invalid', 'true')
  await alert.getByRole('link', { name: 'Return to Cart' }).click()
  await expect(page).toHaveURL(/\/cart$/)
})
