// Live stock on the storefront: a scent at 0 shows Sold out and cannot be added, one at 2 shows "Only 2
// left", the note arrives without moving the page, the shop card's button says Sold out, and the cart
// offers to lower a line that asks for more than is left. Stock is set in the server's database as staff's
// PATCH /api/products/{id}/stock leaves it (tests/api/stock/staff.test.ts covers that call).
import { createClient } from '@libsql/client'
import { expect, test } from './support/fixtures'
import { DATABASE_URL } from './support/staff'

/** Barrel & Timber (whisker-tamer): scents Barrel & Timber, Fresh Cut Pine, Unscented. */
const BALM = 2

test.beforeAll(async () => {
  const db = createClient({ url: DATABASE_URL })
  try {
    // The first scent (what the page preselects and the shop card adds) is gone; Fresh Cut Pine has 2;
    // Unscented is not counted, so the product as a whole is not sold out.
    for (const [variant, onHand] of [
      ['Barrel & Timber', 0],
      ['Fresh Cut Pine', 2],
    ] as const) {
      await db.execute({
        sql: `insert into stock_levels (product_id, variant, on_hand, updated_at) values (?, ?, ?, ?)
              on conflict (product_id, variant) do update set on_hand = excluded.on_hand`,
        args: [BALM, variant, onHand, Date.now()],
      })
    }
  } finally {
    db.close()
  }
})

test('a sold-out scent cannot be added, one with 2 left says so, and the cart offers to lower a line', async ({
  page,
  axe,
}) => {
  // Hold the catalogue answer back, to see that its note takes no room the page had not kept for it.
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route('**/api/catalog', async (route) => {
    await held
    await route.continue()
  })
  await page.goto('/products/whisker-tamer')
  const add = page.locator('[data-add-button]')
  await expect(add).toBeEnabled()
  const before = await add.boundingBox()
  release()

  const note = page.locator('[data-add-form] [data-stock-note]')
  await expect(note).toHaveText('Sold out')
  await expect(add).toBeDisabled()
  await expect(add).toHaveText('Sold out')
  expect(await add.boundingBox()).toEqual(before)

  await page.getByLabel(/Fresh Cut Pine/).check()
  await expect(note).toHaveText('Only 2 left')
  await expect(add).toBeEnabled()
  await axe()

  // Three of the two left: the cart takes them, and then says what is left and offers to lower the line.
  await page.getByLabel('Quantity', { exact: true }).fill('3')
  await add.click()
  await page.goto('/cart')
  const warning = page.locator('[data-stock-warning]')
  await expect(warning).toContainText('Only 2 left of Barrel & Timber (Fresh Cut Pine).')
  await axe()
  await warning.getByRole('button', { name: 'Lower to 2 Barrel & Timber (Fresh Cut Pine)' }).click()
  await expect(page.getByLabel('Quantity of Barrel & Timber', { exact: true })).toHaveValue('2')
  await expect(warning).toHaveCount(0)
})

test('the shop card of a product whose first scent is gone cannot add it', async ({ page }) => {
  await page.goto('/shop')
  const card = page.locator('[data-product-card][data-id="2"]')
  const button = card.locator('[data-add-to-cart]')
  await expect(button).toBeDisabled()
  await expect(button).toHaveAccessibleName('Sold out: Barrel & Timber')
  // Unscented is not counted: the product as a whole is not sold out, so the card makes no claim.
  await expect(card.locator('[data-stock-note]')).toHaveText('')
  // A product nobody counts sells as before.
  await expect(page.locator('[data-product-card][data-id="4"] [data-add-to-cart]')).toHaveAccessibleName(
    'Add to Cart: Workforce Repair Original Grit',
  )
})
