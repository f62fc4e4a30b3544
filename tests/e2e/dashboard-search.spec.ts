// Staff find any order on the dashboard: a search by e-mail finds the order and stays in the address over
// a reload, a status filter narrows it (and says when nothing matches), Export CSV downloads what the
// filters find, the chart of the last 30 days has its table of numbers, and a failed order e-mail is sent
// again with Retry. axe on the page with its new parts.
import { readFileSync } from 'node:fs'
import { expect, test, waitForIsland } from './support/fixtures'
import { addStaff, insertShippedOrder, serverDatabase, signInToDashboard, unique } from './support/staff'

/**
 * A shipped order of `email`, and its confirmation e-mail given up after eight refusals, as the job queue
 * leaves them when the mail server refuses the mailbox for good. Returns the order's padded number.
 */
async function shippedOrderWithFailedEmail(email: string, name: string): Promise<string> {
  const db = await serverDatabase()
  try {
    const now = Date.now()
    const id = await insertShippedOrder(db, { email, name, placedAt: now, updatedAt: now })
    await db.execute({
      sql: `insert into jobs (type, payload, status, attempts, max_attempts, run_at, last_error, dedupe_key,
              created_at, updated_at)
            values ('order-confirmation-email', json_object('orderId', ?), 'failed', 8, 8, ?,
              '550 5.1.1 Recipient address rejected: User unknown', ?, ?, ?)`,
      args: [id, now, `order-confirmation:${unique('search')}`, now, now],
    })
    return String(id).padStart(6, '0')
  } finally {
    db.close()
  }
}

test('staff find an order by e-mail, filter it by status, export it, read the chart and resend its e-mail', async ({
  page,
  axe,
}, testInfo) => {
  // A staff account hashes a password in a process of its own: slow on a busy machine.
  test.setTimeout(90_000)
  const staff = `${unique(`finder.${testInfo.project.name}`)}@example.com`
  addStaff(staff)
  const customer = `${unique(`Find.Me.${testInfo.project.name}`)}@Example.com`
  const number = await shippedOrderWithFailedEmail(customer, `Robin Finder ${testInfo.project.name}`)
  await signInToDashboard(page, staff)

  // The search by e-mail, typed as the customer wrote it: the one order, and the address keeps it.
  const search = page.getByRole('searchbox', { name: 'Search orders' })
  await search.fill(customer)
  const rows = page.locator('tr[data-order]')
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toHaveAttribute('data-order', number)
  await expect(page).toHaveURL(/\/dashboard\?q=/)
  await page.reload()
  await waitForIsland(page, 'DashboardPage')
  await expect(search).toHaveValue(customer)
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toHaveAttribute('data-order', number)

  // A status the order is not in: nothing matches, and the table says so. Its own status finds it.
  const status = page.getByLabel('Show', { exact: true })
  await status.selectOption({ label: 'Failed' })
  await expect(page.getByText('No orders match.', { exact: false })).toBeVisible()
  await expect(rows).toHaveCount(0)
  await status.selectOption({ label: 'Shipped' })
  await expect(rows).toHaveCount(1)
  await expect(page).toHaveURL(/status=shipped/)

  // Export CSV downloads what the filters find.
  const exportLink = page.getByRole('link', { name: 'Export CSV' })
  await expect(exportLink).toHaveAttribute('href', /^\/api\/orders\/export\.csv\?q=.+&status=shipped$/)
  const [download] = await Promise.all([page.waitForEvent('download'), exportLink.click()])
  expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/)
  const csv = readFileSync((await download.path()) ?? '', 'utf8').replace(/^\uFEFF/, '')
  const lines = csv.trimEnd().split('\r\n')
  expect(lines[0]).toBe('number,date,customer,e-mail,items,subtotal,discount,shipping,total,refunded,status')
  expect(lines).toHaveLength(2)
  expect(lines[1]).toContain(`${number},`)
  expect(lines[1]).toContain(customer)
  expect(lines[1]).toMatch(/,21\.00,0\.00,9\.35,30\.35,0\.00,shipped$/)

  // The chart of the last 30 days, with its numbers in a table (read by screen readers, shown on request).
  const chart = page.getByRole('figure', { name: /Orders and takings per day/ })
  await expect(chart).toBeVisible()
  const table = chart.getByRole('table', { name: 'Orders and takings per day, the last 30 days' })
  await expect(table.locator('tbody tr')).toHaveCount(30)
  await expect(table).not.toBeInViewport()
  const show = chart.getByRole('button', { name: 'Show the numbers' })
  await show.click()
  await expect(table).toBeVisible()
  await expect(chart.getByRole('button', { name: 'Hide the numbers' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  const today = table.locator('tbody tr').last()
  await expect(today.locator('td').first()).not.toHaveText('0')

  // The failed confirmation, with Retry: queued again once, and gone from the list.
  const failed = page
    .getByRole('list', { name: 'Order e-mails that failed' })
    .getByRole('listitem')
    .filter({
      hasText: `#${number}`,
    })
  await expect(failed).toContainText('Order confirmation')
  await expect(failed).toContainText('550 5.1.1')
  await axe()
  await failed.getByRole('button', { name: `Retry the e-mails of order ${number}` }).click()
  await expect(page.locator('.toast-list li', { hasText: 'E-mail Queued' }).first()).toContainText(
    `The order confirmation e-mail of order ${number} is queued to be sent again.`,
  )
  await expect(failed).toHaveCount(0)

  // Clear brings every order back, and the address loses the filters.
  await page.getByRole('button', { name: 'Clear' }).click()
  await expect(search).toHaveValue('')
  await expect(page).toHaveURL(/\/dashboard$/)
})
