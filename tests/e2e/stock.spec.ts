// Live stock on the storefront: a scent at 0 shows Sold out and cannot be added, one at 2 shows "Only 2
// left", the note arrives without moving the page, the shop card's button says Sold out, and the cart
// offers to lower a line that asks for more than is left. For these, stock is set in the server's database
// as staff's PATCH /api/products/{id}/stock leaves it; the last test sets it on the dashboard.
import { expect, test } from './support/fixtures'
import { addStaff, insertShippedOrder, oneAtATime, serverDatabase, signInToDashboard } from './support/staff'

/** Barrel & Timber (whisker-tamer): scents Barrel & Timber, Fresh Cut Pine, Unscented. */
const BALM = 2
/** Alpine Wash (whisker-wash): scents Alpine, Hammered Citrus. */
const WASH = 3

/** Barrel & Timber's scents as GET /api/catalog answers them now: units available, or null if not counted. */
async function scentsOnSale(baseURL: string): Promise<Record<string, number | null>> {
  const res = await fetch(`${baseURL}/api/catalog`)
  const { products } = (await res.json()) as {
    products: { id: number; variants: { name: string; stock: { tracked: boolean; available: number } }[] }[]
  }
  const balm = products.find((product) => product.id === BALM)
  return Object.fromEntries(
    (balm?.variants ?? []).map((variant) => [
      variant.name,
      variant.stock.tracked ? variant.stock.available : null,
    ]),
  )
}

test.beforeAll(async () => {
  // The first scent (what the page preselects and the shop card adds) is gone; Fresh Cut Pine has 2;
  // Unscented is not counted, so the product as a whole is not sold out.
  await setOnHand(BALM, 'Barrel & Timber', 0)
  await setOnHand(BALM, 'Fresh Cut Pine', 2)
  // Written beside the server, as another instance would: the server reads the figures again once the ones
  // in hand are a second old (api/modules/stock/levels.ts), so the tests start once it has.
  const baseURL = String(test.info().project.use.baseURL)
  await expect
    .poll(() => scentsOnSale(baseURL), { timeout: 10_000 })
    .toMatchObject({ 'Barrel & Timber': 0, 'Fresh Cut Pine': 2 })
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

test('staff count a product on the dashboard, are told what is wrong, and stop counting it', async ({
  page,
  axe,
}, testInfo) => {
  // A staff account hashes a password in a process of its own: slow on a busy machine.
  test.setTimeout(90_000)
  // Both projects' copies set the same shelves (the Duo's, Alpine Wash's Hammered Citrus): one at a time.
  await oneAtATime('stock-figures', async () => {
    const staff = `stock.${testInfo.project.name}.${Date.now()}@example.com`
    // Paid orders found too few of Alpine Wash in Hammered Citrus: its shelf is below 0 (docs/decisions/026).
    // Not the scent the storefront's tests add (the first, Alpine, never counted here).
    await setOnHand(WASH, 'Hammered Citrus', -1)
    addStaff(staff)
    await signInToDashboard(page, staff)

    // The Brush & Comb Duo: no scents, so one field.
    const form = page.locator('[data-product="5"] [data-stock-form]')
    const field = form.getByLabel('Units of The Brush & Comb Duo', { exact: true })
    await expect(field).toHaveValue('')
    await expect(form.getByText('Not counted', { exact: true })).toBeVisible()
    const toasts = page.locator('.toast-list li')

    await field.fill('2.5')
    await form.getByRole('button', { name: 'Save stock of The Brush & Comb Duo' }).click()
    await expect(toasts.filter({ hasText: 'Update Failed' }).first()).toContainText(
      'The Brush & Comb Duo: Stock must be a whole number of units from 0 to 99,999, or empty to stop counting it.',
    )
    await expect(field).toHaveAttribute('aria-invalid', 'true')

    await field.fill('40')
    await form.getByRole('button', { name: 'Save stock of The Brush & Comb Duo' }).click()
    await expect(toasts.filter({ hasText: 'Stock Updated' }).first()).toContainText(
      'The Brush & Comb Duo: 40 on the shelf, 40 free.',
    )
    await expect(form.getByText('40 free', { exact: true })).toBeVisible()
    await axe({ include: ['[data-product="5"]'] })

    await field.fill('')
    await form.getByRole('button', { name: 'Save stock of The Brush & Comb Duo' }).click()
    await expect(toasts.filter({ hasText: 'The Brush & Comb Duo: not counted.' }).first()).toBeVisible()
    await expect(form.getByText('Not counted', { exact: true })).toBeVisible()

    // A product with scents: the one owed says so; 'Save' sends only the figures staff changed, so a figure
    // not touched (and sales made since the page loaded) is left alone.
    const wash = page.locator(`[data-product="${WASH}"] [data-stock-form]`)
    const owed = wash.getByLabel('Hammered Citrus of Alpine Wash (Hammered Citrus)', { exact: true })
    await expect(owed).toHaveValue('-1')
    await expect(wash.getByText('1 owed to paid orders', { exact: true })).toBeVisible()
    const save = wash.getByRole('button', { name: 'Save stock of Alpine Wash' })
    await save.click()
    await expect(toasts.filter({ hasText: 'Nothing To Save' }).first()).toContainText(
      'No figure of Alpine Wash was changed.',
    )
    // A delivery of 5: what came in is added, so the 1 owed is paid back first (a recount typed over -1
    // would wipe the debt).
    const received = wash.getByLabel('Received units of Alpine Wash (Hammered Citrus)', { exact: true })
    await expect(received).toHaveAccessibleDescription('1 owed to paid orders')
    await received.fill('5')
    const sent = page.waitForRequest((request) => request.url().endsWith(`/api/products/${WASH}/stock`))
    await save.click()
    expect((await sent).postDataJSON()).toEqual({ variants: { 'Hammered Citrus': { received: 5 } } })
    // Sent again after a lost answer, the same key adds them once (api/modules/stock/levels.ts).
    expect((await sent).headers()['idempotency-key']).toMatch(/^[\x21-\x7e]{1,255}$/)
    await expect(toasts.filter({ hasText: 'Stock Updated' }).first()).toContainText(
      'Alpine Wash (Alpine): not counted. Alpine Wash (Hammered Citrus): 4 on the shelf, 4 free.',
    )
    await expect(wash.getByText('4 free', { exact: true })).toBeVisible()
    await expect(owed).toHaveValue('4')
    await expect(received).toHaveValue('')
    await axe({ include: [`[data-product="${WASH}"]`] })
    // A sale elsewhere: Refresh brings the figure into the field staff did not touch, so a later save of
    // another field could not send the old one back.
    await setOnHand(WASH, 'Hammered Citrus', 3)
    await page.getByRole('button', { name: 'Refresh' }).click()
    await expect(owed).toHaveValue('3')
    await expect(wash.getByText('3 free', { exact: true })).toBeVisible()
    await owed.fill('')
    await save.click()
    await expect(
      toasts.filter({ hasText: 'Alpine Wash (Hammered Citrus): not counted.' }).first(),
    ).toBeVisible()
  })
})

test('a delivery whose answer was lost, saved again after Refresh showed it added, is added once', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000)
  // The Duo's shelf is the first test's too: one at a time.
  await oneAtATime('stock-figures', async () => {
    const staff = `lost-receipt.${testInfo.project.name}.${Date.now()}@example.com`
    addStaff(staff)
    await signInToDashboard(page, staff)
    const form = page.locator('[data-product="5"] [data-stock-form]')
    const field = form.getByLabel('Units of The Brush & Comb Duo', { exact: true })
    const received = form.getByLabel('Received units of The Brush & Comb Duo', { exact: true })
    const save = form.getByRole('button', { name: 'Save stock of The Brush & Comb Duo' })
    const toasts = page.locator('.toast-list li')
    await field.fill('10')
    await save.click()
    await expect(field).toHaveValue('10')
    await expect(form.getByText('10 free', { exact: true })).toBeVisible()

    // A delivery of 3, saved; the server adds it but its answer never reaches the browser.
    await received.fill('3')
    await page.route(
      '**/api/products/5/stock',
      async (route) => {
        await route.fetch()
        await route.abort('failed')
      },
      { times: 1 },
    )
    await save.click()
    await expect(toasts.filter({ hasText: 'Update Failed' }).first()).toBeVisible()
    // Refresh shows the 3 added; the field still holds them, so staff press Save again.
    await page.getByRole('button', { name: 'Refresh' }).click()
    await expect(field).toHaveValue('13')
    await expect(received).toHaveValue('3')
    await save.click()
    await expect(toasts.filter({ hasText: 'Stock Updated' }).first()).toContainText(
      'The Brush & Comb Duo: 13 on the shelf, 13 free.',
    )
    await expect(received).toHaveValue('')
    await expect(field).toHaveValue('13')
    await field.fill('')
    await save.click()
    await expect(toasts.filter({ hasText: 'The Brush & Comb Duo: not counted.' }).first()).toBeVisible()
  })
})

test('beside each figure, staff read how many units paid orders still have to ship, to leave out of the count', async ({
  page,
  axe,
}, testInfo) => {
  test.setTimeout(90_000)
  // Both projects' copies put orders on the same scent (Alpine Wash's Hammered Citrus, which no other test
  // buys): one at a time, each gone before the other starts.
  await oneAtATime('stock-figures', async () => {
    const staff = `to-ship.${testInfo.project.name}.${Date.now()}@example.com`
    await setOnHand(WASH, 'Hammered Citrus', 4)
    // Two paid orders of it: one labelled, still to ship, and one shipped, whose jars have left.
    const toShip = await insertOrderOf(WASH, 'Hammered Citrus', 3, 'label_created')
    const shipped = await insertOrderOf(WASH, 'Hammered Citrus', 5, 'shipped')
    try {
      addStaff(staff)
      await signInToDashboard(page, staff)
      const wash = page.locator(`[data-product="${WASH}"] [data-stock-form]`)
      const field = wash.getByLabel('Hammered Citrus of Alpine Wash (Hammered Citrus)', { exact: true })
      const note = '3 in paid orders still to ship: leave them out of the count'
      // Written beside the server just before: staff's list reads the figures as they are now.
      await expect(field).toHaveAccessibleDescription(`4 free ${note}`)
      await expect(wash.getByText(note, { exact: true })).toBeVisible()
      // Alpine, which no paid order of this test holds, says nothing of it.
      await expect(wash.locator('[data-to-ship]')).toHaveCount(1)
      // On a phone, the note wraps under its field: the form stays within the screen.
      const box = await wash.boundingBox()
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0)
      await axe({ include: [`[data-product="${WASH}"]`] })

      // Once the order ships, its jars leave the shelf: nothing is left to leave out.
      await setStatus(toShip, 'shipped')
      await page.getByRole('button', { name: 'Refresh' }).click()
      await expect(field).toHaveAccessibleDescription('4 free')
      await expect(wash.locator('[data-to-ship]')).toHaveCount(0)
    } finally {
      await deleteOrders([toShip, shipped])
      await setOnHand(WASH, 'Hammered Citrus', null)
    }
  })
})

test('a scent the product file no longer lists still holds units: staff see it and move them', async ({
  page,
  axe,
}, testInfo) => {
  test.setTimeout(90_000)
  const staff = `former.${testInfo.project.name}.${Date.now()}@example.com`
  // The Workforce Repair balm (no scents now) once came in 'Pine': three units came back to that count after
  // the scent was taken out of its file. One name per project, as both projects run at once.
  const pine = `Pine ${testInfo.project.name}`
  await setOnHand(4, pine, 3)
  addStaff(staff)
  await signInToDashboard(page, staff)

  const form = page.locator('[data-product="4"] [data-stock-form]')
  const former = form.getByLabel(`${pine} (no longer sold) of Workforce Repair Original Grit (${pine})`, {
    exact: true,
  })
  // Written beside the server just before: staff's list reads the figures as they are now.
  await expect(former).toHaveValue('3')
  await expect(former).toHaveAccessibleDescription('3 free')
  await axe({ include: ['[data-product="4"]'] })

  // Moved to the shelf staff count now: the old count to 0, sent under `variants`; the product's own figure,
  // untouched, is not sent (null would stop counting it).
  await former.fill('0')
  const sent = page.waitForRequest((request) => request.url().endsWith('/api/products/4/stock'))
  await form.getByRole('button', { name: 'Save stock of Workforce Repair Original Grit' }).click()
  expect((await sent).postDataJSON()).toEqual({ variants: { [pine]: 0 } })
  await expect(page.locator('.toast-list li').filter({ hasText: 'Stock Updated' }).first()).toContainText(
    `Workforce Repair Original Grit (${pine}), no longer sold: 0 on the shelf, 0 free.`,
  )
  // At 0 nothing is left to move: its field goes.
  await expect(former).toHaveCount(0)
})

/** Sets a shelf in the server's database, as paid orders leave it (null: not counted). */
async function setOnHand(productId: number, variant: string, onHand: number | null) {
  const db = await serverDatabase()
  try {
    await db.execute({
      sql: `insert into stock_levels (product_id, variant, on_hand, updated_at) values (?, ?, ?, ?)
            on conflict (product_id, variant) do update set on_hand = excluded.on_hand`,
      args: [productId, variant, onHand, Date.now()],
    })
  } finally {
    db.close()
  }
}

/**
 * A paid order of `quantity` units of one scent, written into the server's database as payment and the
 * label job leave it (status `label_created` or `shipped`, with its history): its id.
 */
async function insertOrderOf(
  productId: number,
  scent: string,
  quantity: number,
  status: 'label_created' | 'shipped',
): Promise<number> {
  const db = await serverDatabase()
  try {
    const now = Date.now()
    const id = await insertShippedOrder(db, {
      email: `to-ship.${now}@example.com`,
      name: 'Sam Shelf',
      placedAt: now,
      updatedAt: now,
    })
    await db.execute({
      sql: `insert into order_lines (order_id, position, product_id, name, variant, stock_variant, unit_cents,
              quantity, discount_cents, weight_tenths_oz)
            values (?, 0, ?, 'Alpine Wash', ?, ?, 1800, ?, 0, 50)`,
      args: [id, productId, scent, scent, quantity],
    })
    await setStatus(id, status)
    return id
  } finally {
    db.close()
  }
}

/** Moves an order to `status` with its history line, as the shop's own moves write them. */
async function setStatus(id: number, status: 'label_created' | 'shipped') {
  const db = await serverDatabase()
  try {
    await db.batch([
      { sql: 'update orders set status = ? where id = ?', args: [status, id] },
      {
        sql: `insert into order_history (order_id, from_status, to_status, actor, reason, created_at)
              values (?, null, ?, 'system', 'Test', ?)`,
        args: [id, status, Date.now()],
      },
    ])
  } finally {
    db.close()
  }
}

async function deleteOrders(ids: readonly number[]) {
  const db = await serverDatabase()
  try {
    // Lines and history first: this connection does not enforce the foreign keys that would cascade.
    for (const id of ids) {
      await db.batch([
        { sql: 'delete from order_lines where order_id = ?', args: [id] },
        { sql: 'delete from order_history where order_id = ?', args: [id] },
        { sql: 'delete from orders where id = ?', args: [id] },
      ])
    }
  } finally {
    db.close()
  }
}
