// Staff cancel and refund on the dashboard: a search by the customer's e-mail finds their two orders; the
// unshipped one is cancelled, one unit of a line of the shipped one is refunded with restock. The shopper's
// order pages show the cancellation and the refund. axe on the order dialog with its refund form. An order
// refunded in full before it shipped tells its shopper nothing will be sent, and shows no tracking number.
import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext } from '@playwright/test'
import { register } from './support/accounts'
import { expect, test, waitForIsland } from './support/fixtures'
import { addStaff, signInToDashboard } from './support/staff'

const HOME = {
  name: 'Robin Refund',
  street1: '12 Mill Rd',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  country: 'US',
}
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', name: 'Robin Refund' }

function unique(name: string): string {
  return `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}`
}

/** Buys `items` through the shop's own calls with the page's cookies (the order joins the account). */
async function buy(
  request: APIRequestContext,
  origin: string,
  email: string,
  items: { id: number; quantity: number; variant?: string }[],
) {
  const headers = { origin }
  const rates = await request.post('/api/shipping/rates', {
    headers,
    data: {
      address: HOME,
      items: items.map((item) => ({ ...item, name: 'x', weight: '3.0' })),
      subtotal: '1.00',
    },
  })
  const rate = ((await rates.json()) as { rates: { id: string }[] }).rates[0]
  const session = await request.post('/api/create-checkout-session', {
    headers,
    data: {
      line_items: items.map((item) => ({
        product_id: item.id,
        quantity: item.quantity,
        ...(item.variant ? { variant: item.variant } : {}),
      })),
      customer_email: email,
      shipping_address: HOME,
      shipping_rate: { id: rate?.id },
    },
  })
  expect(session.status()).toBe(200)
  const { sessionId } = (await session.json()) as { sessionId: string }
  expect((await request.post(`/api/demo-payments/${sessionId}/pay`, { headers, data: CARD })).status()).toBe(
    200,
  )
}

test('staff cancel an unshipped order and refund one line of a shipped one; the shopper sees both', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000)
  const origin = baseURL ?? ''
  const email = `${unique(`refund.${testInfo.project.name}`)}@example.com`
  await register(page, email, 'Robin')
  await buy(page.request, origin, email, [{ id: 1, quantity: 1 }])
  await buy(page.request, origin, email, [
    { id: 1, quantity: 2 },
    // Unscented is never counted: tests/e2e/stock.spec.ts sells out this balm's first scent meanwhile.
    { id: 2, quantity: 1, variant: 'Unscented' },
  ])

  const staffEmail = `${unique(`refunder.${testInfo.project.name}`)}@example.com`
  addStaff(staffEmail)
  const staffContext = await browser.newContext()
  const staff = await staffContext.newPage()
  await signInToDashboard(staff, staffEmail)

  // The search by e-mail: the customer's two orders, newest first.
  await staff.getByRole('searchbox', { name: 'Search orders' }).fill(email)
  const rows = staff.locator('tr[data-order]')
  await expect(rows).toHaveCount(2)
  const shippedNumber = (await rows.nth(0).getAttribute('data-order')) ?? ''
  const cancelNumber = (await rows.nth(1).getAttribute('data-order')) ?? ''
  // The newer order's label is bought by the background job; then it is handed to the carrier.
  await expect(async () => {
    const res = await staff.request.post(`/api/orders/${Number(shippedNumber)}/ship`, { headers: { origin } })
    expect(res.status()).toBe(200)
  }).toPass({ timeout: 30_000 })

  // Its dialog, opened while the shop cannot be reached, says so and loads once asked again.
  const orderCall = (url: URL) => url.pathname === `/api/orders/${Number(cancelNumber)}`
  await staff.route(orderCall, (route) => route.abort('connectionrefused'))
  await staff.getByRole('button', { name: `#${cancelNumber} details` }).click()
  let dialog = staff.getByRole('dialog', { name: `Order #${cancelNumber}` })
  await expect(dialog.getByRole('alert')).toBeVisible()
  await staff.unroute(orderCall)
  await dialog.getByRole('button', { name: 'Try Again' }).click()
  await expect(dialog.getByRole('alert')).toHaveCount(0)

  // Cancel the older, unshipped order, after a confirmation.
  await dialog.getByRole('button', { name: 'Cancel Order' }).click()
  // Focus follows to what replaced the button pressed, and back.
  await expect(dialog.getByLabel('Reason (optional)')).toBeFocused()
  await dialog.getByRole('button', { name: 'Keep Order' }).click()
  await expect(dialog.getByRole('button', { name: 'Cancel Order' })).toBeFocused()
  await dialog.getByRole('button', { name: 'Cancel Order' }).click()
  await dialog.getByLabel('Reason (optional)').fill('Changed their mind')
  await dialog.getByRole('button', { name: 'Yes, Cancel Order' }).click()
  await expect(dialog.getByRole('status')).toContainText(`Order ${cancelNumber} is cancelled`)
  // The form pressed is gone: the focus is on what the dialog says of it.
  await expect(dialog.getByRole('status')).toBeFocused()
  await expect(dialog.getByText('CANCELLED').first()).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Cancel Order' })).toHaveCount(0)
  await dialog.getByRole('button', { name: 'Close', exact: true }).click()
  // Its row says so at once (not at the list's next poll, 15 s on), and offers nothing to do to it.
  const cancelledRow = staff.locator(`tr[data-order="${cancelNumber}"]`)
  await expect(cancelledRow).toContainText('CANCELLED', { timeout: 3_000 })
  await expect(cancelledRow.getByRole('button', { name: /Mark Shipped|Retry/ })).toHaveCount(0)

  // Refund one unit of the shipped order's first line, back on the shelf.
  await staff.getByRole('button', { name: `#${shippedNumber} details` }).click()
  dialog = staff.getByRole('dialog', { name: `Order #${shippedNumber}` })
  await expect(dialog.getByRole('button', { name: 'Cancel Order' })).toHaveCount(0)
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click()
  await expect(dialog.getByRole('radio', { name: 'By items' })).toBeFocused()
  // An amount is asked about as money, whatever way it was typed.
  await dialog.getByRole('radio', { name: 'By amount' }).check()
  await dialog.getByLabel('Amount in dollars').fill('5.5')
  await dialog.getByRole('button', { name: 'Review Refund' }).click()
  await expect(dialog.getByText("Refund $5.50 to the customer's card?")).toBeVisible()
  await dialog.getByRole('button', { name: 'Back' }).click()
  await dialog.getByRole('radio', { name: 'By items' }).check()
  // Whole units: a typed 1.5 is taken as 1 (it broke the whole page, asked about as 1.5 units).
  await dialog.getByRole('spinbutton').first().fill('1.5')
  await expect(dialog.getByRole('spinbutton').first()).toHaveValue('1')
  // On a phone too the dialog keeps to the screen's width: only the items table scrolls sideways, in its box.
  const body = dialog.locator('.dashboard-dialog-body')
  expect(await body.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0)
  // That box is a named region a keyboard can reach and scroll.
  const items = dialog.getByRole('region', { name: `Items in order ${shippedNumber}` })
  await items.focus()
  await expect(items).toBeFocused()
  await expect(dialog.getByLabel('Put the refunded units back on the shelf')).toBeChecked()
  await dialog.getByLabel('Reason (optional)').fill('Cracked lid')
  // axe on the staff page (the fixture checks the shopper's): the dialog with its refund form open.
  const audit = await new AxeBuilder({ page: staff }).include('.dashboard-dialog').analyze()
  expect(audit.violations.map((violation) => violation.id)).toEqual([])
  await dialog.getByRole('button', { name: 'Review Refund' }).click()
  // The amount asked about is the one the server refunds, to the cent.
  await expect(dialog.getByText("Refund $21.00 to the customer's card?")).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Yes, Refund' })).toBeFocused()
  // What was reviewed is what is sent: the choices wait, unchanged, until 'Back'.
  await expect(dialog.getByRole('spinbutton').first()).toBeDisabled()
  await expect(dialog.getByLabel('Put the refunded units back on the shelf')).toBeDisabled()
  await expect(dialog.getByLabel('Reason (optional)')).toBeDisabled()
  await dialog.getByRole('button', { name: 'Yes, Refund' }).click()
  await expect(dialog.getByRole('status')).toContainText(`$21.00 of order ${shippedNumber}`)
  await expect(dialog.getByRole('status')).toBeFocused()
  await expect(dialog.getByRole('list', { name: `Refunds of order ${shippedNumber}` })).toContainText(
    'Cracked lid',
  )
  await staffContext.close()

  // The shopper's order pages.
  await page.goto(`/account/orders?number=${cancelNumber}`)
  await waitForIsland(page, 'OrderPage')
  await expect(page.getByText('CANCELLED', { exact: true })).toBeVisible()
  await expect(page.getByText(/Cancelled on/)).toBeVisible()
  await expect(page.getByText('Cancellation refund')).toBeVisible()
  await page.goto(`/account/orders?number=${shippedNumber}`)
  await waitForIsland(page, 'OrderPage')
  await expect(page.getByText('SHIPPED', { exact: true })).toBeVisible()
  const refunds = page.getByRole('region', { name: 'Refunds' })
  await expect(refunds).toContainText('Refund')
  await expect(refunds).toContainText('1 ×')
  await expect(refunds).not.toContainText('Cracked lid')
})

test('an order refunded in full before it shipped tells its shopper nothing will be sent', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000)
  const origin = baseURL ?? ''
  const email = `${unique(`refunded.${testInfo.project.name}`)}@example.com`
  await register(page, email, 'Robin')
  await buy(page.request, origin, email, [{ id: 1, quantity: 1 }])
  const [order] = (await (await page.request.get('/api/user/orders')).json()) as {
    number: string
    totalAmount: number
  }[]
  if (!order) throw new Error('the order is not in the account')

  const staffEmail = `${unique(`refunder.${testInfo.project.name}`)}@example.com`
  addStaff(staffEmail)
  const staffContext = await browser.newContext()
  const staff = await staffContext.newPage()
  await signInToDashboard(staff, staffEmail)
  const id = Number(order.number)
  // Its label is bought by the background job first.
  await expect(async () => {
    const detail = (await (await staff.request.get(`/api/orders/${id}`)).json()) as { status: string }
    expect(detail.status).toBe('label_created')
  }).toPass({ timeout: 30_000 })
  const refund = await staff.request.post(`/api/orders/${id}/refunds`, {
    headers: { origin },
    data: { amount: order.totalAmount.toFixed(2), restock: false },
  })
  expect(refund.status()).toBe(201)
  await staffContext.close()

  await page.goto(`/account/orders?number=${order.number}`)
  await waitForIsland(page, 'OrderPage')
  await expect(page.getByText('REFUNDED', { exact: true })).toBeVisible()
  await expect(page.getByText('Refunded in full before it shipped: nothing will be sent.')).toBeVisible()
  await expect(page.getByText(/Tracking number/)).toHaveCount(0)
})
