// The dashboard from the keyboard: after a press whose button goes or is redrawn, the focus stays on what
// the staff member was working on and never falls to the page's start (docs/product.md#dashboard): Mark
// Shipped on an order's row (and, with 'Ready to ship' shown, on the row that takes its place, from the row
// and from the order's dialog), a refund the server refuses, a stock figure saved. The refund form's review
// refuses more than is left, and Escape in it, or in the cancel confirmation, leaves that, not the order's
// dialog.
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures'
import {
  addStaff,
  insertShippedOrder,
  oneAtATime,
  serverDatabase,
  signInToDashboard,
  unique,
} from './support/staff'

/**
 * A paid order of one Whisker Oil ($30.35 with shipping) written into the server's database, in `status`:
 * its padded number. Each test's customer has an e-mail of their own, which the search finds alone.
 */
async function insertOrder(email: string, status: 'label_created' | 'shipped'): Promise<string> {
  const db = await serverDatabase()
  try {
    const now = Date.now()
    const id = await insertShippedOrder(db, { email, name: 'Kim Keys', placedAt: now, updatedAt: now })
    await db.batch([
      {
        sql: `insert into order_lines (order_id, position, product_id, name, variant, unit_cents, quantity,
                discount_cents, weight_tenths_oz) values (?, 0, 1, 'Whisker Oil', null, 2100, 1, 0, 30)`,
        args: [id],
      },
      { sql: 'update orders set status = ? where id = ?', args: [status, id] },
    ])
    return String(id).padStart(6, '0')
  } finally {
    db.close()
  }
}

/** Signs a new staff member in and finds the customer's orders (`rows` of them) with the search. */
async function dashboardFor(page: Page, name: string, email: string, rows = 1) {
  const staff = `${unique(name)}@example.com`
  addStaff(staff)
  await signInToDashboard(page, staff)
  await page.getByRole('searchbox', { name: 'Search orders' }).fill(email)
  await expect(page.locator('tr[data-order]')).toHaveCount(rows)
}

/**
 * `count` orders with a label, of one customer, found by the search with 'Ready to ship' shown: their
 * numbers as listed, newest first. An order marked shipped no longer matches, so its row leaves the list.
 */
async function readyToShip(page: Page, name: string, count: number): Promise<string[]> {
  const email = `${unique(`${name}.customer`)}@example.com`
  const numbers: string[] = []
  for (let made = 0; made < count; made++) numbers.unshift(await insertOrder(email, 'label_created'))
  await dashboardFor(page, name, email, count)
  await page.getByLabel('Show', { exact: true }).selectOption({ label: 'Ready to ship (LABEL CREATED)' })
  await expect(page).toHaveURL(/status=label_created/)
  await expect(page.locator('tr[data-order]')).toHaveCount(count)
  return numbers
}

/** The page's polite announcement (the toasts' live region), as a screen reader hears it. */
const announcement = (page: Page) => page.getByRole('region', { name: 'Notification' }).getByRole('status')

test('after Mark Shipped on a row the focus stays on that order', async ({ page }, testInfo) => {
  test.setTimeout(90_000)
  const email = `${unique(`ship-keys.${testInfo.project.name}`)}@example.com`
  const number = await insertOrder(email, 'label_created')
  await dashboardFor(page, `shipper.${testInfo.project.name}`, email)

  const row = page.locator(`tr[data-order="${number}"]`)
  const ship = row.getByRole('button', { name: `Mark Shipped: order ${number}` })
  await ship.focus()
  await page.keyboard.press('Enter')
  await expect(row.getByText('SHIPPED', { exact: true })).toBeVisible()
  await expect(ship).toHaveCount(0)
  // The button pressed is gone: the focus is on the order's number, the row's first control.
  await expect(row.getByRole('button', { name: `#${number} details` })).toBeFocused()
})

test("with Ready to ship shown, the focus goes from a shipped row to the next order's Mark Shipped", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000)
  const [newest, middle, oldest] = await readyToShip(page, `ship-filtered.${testInfo.project.name}`, 3)
  const row = (number: string | undefined) => page.locator(`tr[data-order="${number}"]`)
  const ship = (number: string | undefined) =>
    page.getByRole('button', { name: `Mark Shipped: order ${number}` })

  // The middle row leaves the list: the focus is on the same button of the row that took its place.
  await ship(middle).focus()
  await page.keyboard.press('Enter')
  await expect(row(middle)).toHaveCount(0)
  await expect(ship(oldest)).toBeFocused()
  await expect(announcement(page)).toContainText(`Order ${middle} is marked shipped`)
  // The last row: the one before it.
  await page.keyboard.press('Enter')
  await expect(row(oldest)).toHaveCount(0)
  await expect(ship(newest)).toBeFocused()
  await expect(announcement(page)).toContainText(`Order ${oldest} is marked shipped`)
  // The only row: the list's heading, over what it now says.
  await page.keyboard.press('Enter')
  await expect(page.getByText('No orders match.', { exact: false })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Recent Orders' })).toBeFocused()
  await expect(announcement(page)).toContainText(`Order ${newest} is marked shipped`)
})

test('with Ready to ship shown, closing the dialog of an order shipped in it puts the focus on the next order', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000)
  const [newest, older] = await readyToShip(page, `ship-dialog.${testInfo.project.name}`, 2)
  await page.getByRole('button', { name: `#${newest} details` }).click()
  const dialog = page.getByRole('dialog', { name: `Order #${newest}` })
  const ship = dialog.getByRole('button', { name: `Mark Shipped: order ${newest}` })
  await ship.focus()
  await page.keyboard.press('Enter')
  await expect(ship).toHaveCount(0)
  await expect(dialog.getByRole('heading', { name: `Order #${newest}` })).toBeFocused()
  await expect(dialog.getByRole('status').filter({ hasText: 'marked shipped' })).toContainText(
    `Order ${newest} is marked shipped`,
  )
  // Its row has left the list behind the dialog: the focus goes to the order that took its place.
  await expect(page.locator(`tr[data-order="${newest}"]`)).toHaveCount(0)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('button', { name: `#${older} details` })).toBeFocused()
})

/** A shipped order's dialog with its refund form open, by amount. */
async function refundByAmount(page: Page, name: string) {
  const email = `${unique(`${name}.customer`)}@example.com`
  const number = await insertOrder(email, 'shipped')
  await dashboardFor(page, name, email)
  const opener = page.getByRole('button', { name: `#${number} details` })
  await opener.click()
  const dialog = page.getByRole('dialog', { name: `Order #${number}` })
  const refund = dialog.getByRole('button', { name: 'Refund', exact: true })
  await refund.click()
  await dialog.getByRole('radio', { name: 'By amount' }).check()
  return { number, opener, dialog, refund, amount: dialog.getByLabel('Amount in dollars') }
}

test('the refund review refuses more than the heading says is left, on the amount field', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000)
  const { dialog, amount } = await refundByAmount(page, `refund-left.${testInfo.project.name}`)
  await expect(dialog.getByRole('group', { name: 'Refund (up to $30.35)' })).toBeVisible()
  await amount.fill('999')
  await dialog.getByRole('button', { name: 'Review Refund' }).click()
  // Nothing is asked: the field says what is wrong, as it does of an empty amount.
  await expect(dialog.getByText(/to the customer's card\?/)).toHaveCount(0)
  await expect(amount).toBeFocused()
  await expect(amount).toHaveAttribute('aria-invalid', 'true')
  await expect(amount).toHaveAccessibleDescription('Only $30.35 is left to refund: $999.00 is more.')
  // Typing clears the mark; all that is left can be refunded.
  await amount.fill('30.35')
  await expect(amount).not.toHaveAttribute('aria-invalid', 'true')
  await dialog.getByRole('button', { name: 'Review Refund' }).click()
  await expect(dialog.getByText("Refund $30.35 to the customer's card?")).toBeVisible()
  await dialog.getByRole('button', { name: 'Back' }).click()
  await amount.fill('')
  await dialog.getByRole('button', { name: 'Review Refund' }).click()
  await expect(amount).toHaveAccessibleDescription('Enter an amount such as 12.50.')
})

test('a refund the server refuses leaves the focus on the amount, which its message describes', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000)
  const { number, dialog, amount } = await refundByAmount(page, `refund-refused.${testInfo.project.name}`)
  // The server stays the judge: a colleague refunded some meanwhile (its answer as the shop words it).
  const refusal = `Only $10.35 of order ${number} is left to refund: $20.00 is more.`
  await page.route(`**/api/orders/${Number(number)}/refunds`, (route) =>
    route.fulfill({ status: 409, json: { error: refusal } }),
  )
  await amount.fill('20')
  await dialog.getByRole('button', { name: 'Review Refund' }).click()
  await dialog.getByRole('button', { name: 'Yes, Refund' }).click()
  await expect(dialog.getByRole('alert')).toHaveText(refusal)
  await expect(amount).toBeFocused()
  await expect(amount).toHaveAttribute('aria-invalid', 'true')
  await expect(amount).toHaveAccessibleDescription(refusal)
  await expect(amount).toHaveValue('20')
})

test('Escape in the refund form leaves the form; a second closes the dialog', async ({ page }, testInfo) => {
  test.setTimeout(90_000)
  const { dialog, refund, amount, opener } = await refundByAmount(
    page,
    `refund-escape.${testInfo.project.name}`,
  )
  await amount.fill('12.50')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeVisible()
  await expect(amount).toHaveCount(0)
  await expect(refund).toBeFocused()
  // What was typed is still there when the form is opened again.
  await refund.click()
  await expect(amount).toHaveValue('12.50')
  // From the question too; then Escape on the order's view closes the dialog, as before.
  await dialog.getByRole('button', { name: 'Review Refund' }).click()
  await expect(dialog.getByRole('button', { name: 'Yes, Refund' })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(refund).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(opener).toBeFocused()
})

test('Escape in the cancel confirmation leaves it; a second closes the dialog', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000)
  const name = `cancel-escape.${testInfo.project.name}`
  const email = `${unique(`${name}.customer`)}@example.com`
  const number = await insertOrder(email, 'label_created')
  await dashboardFor(page, name, email)
  const opener = page.getByRole('button', { name: `#${number} details` })
  await opener.click()
  const dialog = page.getByRole('dialog', { name: `Order #${number}` })
  const cancel = dialog.getByRole('button', { name: 'Cancel Order' })
  const reason = dialog.getByLabel('Reason (optional)')
  await cancel.click()
  await reason.fill('Wrong scent')
  await page.keyboard.press('Escape')
  await expect(reason).toHaveCount(0)
  await expect(cancel).toBeFocused()
  await expect(dialog).toBeVisible()
  // The reason typed is still there when the question is asked again.
  await cancel.click()
  await expect(reason).toHaveValue('Wrong scent')
  // From its buttons too; then Escape on the order's view closes the dialog, as before.
  await dialog.getByRole('button', { name: 'Keep Order' }).focus()
  await page.keyboard.press('Escape')
  await expect(cancel).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(opener).toBeFocused()
})

test('while the cancel is sent, the focus stays on its button and Escape leaves nothing half done', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000)
  const name = `cancel-wait.${testInfo.project.name}`
  const email = `${unique(`${name}.customer`)}@example.com`
  const number = await insertOrder(email, 'label_created')
  await dashboardFor(page, name, email)
  await page.getByRole('button', { name: `#${number} details` }).click()
  const dialog = page.getByRole('dialog', { name: `Order #${number}` })
  await dialog.getByRole('button', { name: 'Cancel Order' }).click()
  // The server's answer waits until the test lets it go.
  let answer: () => void = () => {}
  const answered = new Promise<void>((resolve) => {
    answer = resolve
  })
  await page.route(`**/api/orders/${Number(number)}/cancel`, async (route) => {
    await answered
    await route.continue()
  })
  const yes = dialog.getByRole('button', { name: /Yes, Cancel Order|Cancelling/ })
  await yes.focus()
  await page.keyboard.press('Enter')
  await expect(yes).toHaveText('Cancelling…')
  await expect(yes).toBeFocused()
  // Neither a second press nor Escape while it is sent: the question stays, the dialog too.
  await page.keyboard.press('Escape')
  await expect(dialog).toBeVisible()
  await expect(yes).toBeFocused()
  answer()
  await expect(dialog.getByText(/CANCELLED/).first()).toBeVisible()
  await expect(page.locator('body')).not.toBeFocused()
})

test('after saving a stock figure or a weight the focus stays on Save', async ({ page }, testInfo) => {
  test.setTimeout(90_000)
  // The Duo's figure, which tests/e2e/stock.spec.ts sets too: one at a time.
  await oneAtATime('stock-figures', async () => {
    const staff = `${unique(`stock-keys.${testInfo.project.name}`)}@example.com`
    addStaff(staff)
    await signInToDashboard(page, staff)
    const form = page.locator('[data-product="5"] [data-stock-form]')
    const field = form.getByLabel('Units of The Brush & Comb Duo', { exact: true })
    const save = form.getByRole('button', { name: 'Save stock of The Brush & Comb Duo' })
    const toasts = page.locator('.toast-list li')
    try {
      // Counted now: the form is drawn again with a 'Received' field beside the figure.
      await field.fill('12')
      await save.focus()
      await page.keyboard.press('Enter')
      await expect(toasts.filter({ hasText: 'Stock Updated' }).first()).toBeVisible()
      await expect(form.getByLabel('Received units of The Brush & Comb Duo')).toBeVisible()
      await expect(save).toBeFocused()
      // The weight's Save as well (Alpine Wash's, which no other test saves, saved as it is).
      const weight = page
        .locator('[data-product="3"]')
        .getByRole('button', { name: 'Save weight of Alpine Wash' })
      await weight.focus()
      await page.keyboard.press('Enter')
      await expect(toasts.filter({ hasText: 'Weight Updated' }).first()).toBeVisible()
      await expect(weight).toBeFocused()
    } finally {
      await field.fill('')
      await save.click()
      await expect(toasts.filter({ hasText: 'The Brush & Comb Duo: not counted.' }).first()).toBeVisible()
    }
  })
})
