// The dashboard's times are the shop's (SHOP_TIME_ZONE, America/Chicago on the test server,
// playwright.config.ts), not the browser's: a staff member whose laptop is in Tokyo filters the orders of
// November 27th in Chicago (the day fields say 'CT') and reads each time on the shop's clock with its zone,
// in the table and in the order's dialog; before the stats have named the zone, no time is shown at all.
import { expect, test } from './support/fixtures'
import { addStaff, insertShippedOrder, serverDatabase, signInToDashboard, unique } from './support/staff'

test.use({ timezoneId: 'Asia/Tokyo' })

/** 00:05 UTC on November 28th: 6:05 PM on the 27th in Chicago (CST), 9:05 AM on the 28th in Tokyo. */
const PLACED = Date.parse('2025-11-28T00:05:00Z')
/** 11:30 PM on the 27th in Chicago, 2:30 PM on the 28th in Tokyo. */
const SHIPPED = Date.parse('2025-11-28T05:30:00Z')

/** A shipped order of `email` placed at PLACED, with its history. Returns its padded number. */
async function orderOfNovember27th(email: string): Promise<string> {
  const db = await serverDatabase()
  try {
    const id = await insertShippedOrder(db, {
      email,
      name: 'Kenji Sato',
      placedAt: PLACED,
      updatedAt: SHIPPED,
    })
    await db.execute({
      sql: `insert into order_lines (order_id, position, product_id, name, variant, unit_cents, quantity,
              discount_cents, weight_tenths_oz) values (?, 0, 1, 'Whisker Oil', null, 2100, 1, 0, 30)`,
      args: [id],
    })
    const history: [from: string | null, to: string, reason: string, at: number][] = [
      [null, 'pending', 'Payment confirmed', PLACED],
      ['pending', 'shipped', 'Marked shipped', SHIPPED],
    ]
    for (const [from, to, reason, at] of history) {
      await db.execute({
        sql: `insert into order_history (order_id, from_status, to_status, actor, reason, created_at)
              values (?, ?, ?, 'system', ?, ?)`,
        args: [id, from, to, reason, at],
      })
    }
    return String(id).padStart(6, '0')
  } finally {
    db.close()
  }
}

test("a laptop in Tokyo reads the orders of the shop's November 27th at the shop's times", async ({
  page,
}, testInfo) => {
  // A staff account hashes a password in a process of its own: slow on a busy machine.
  test.setTimeout(90_000)
  const staff = `${unique(`zone.${testInfo.project.name}`)}@example.com`
  addStaff(staff)
  const customer = `${unique(`kenji.${testInfo.project.name}`)}@example.com`
  const number = await orderOfNovember27th(customer)
  await signInToDashboard(page, staff)
  expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('Asia/Tokyo')

  // Until the stats name the shop's zone the order is listed without a time, never at Tokyo's.
  let release = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route('**/api/dashboard/stats', async (route) => {
    await held
    await route.continue()
  })
  await page.goto(`/dashboard?q=${encodeURIComponent(customer)}&from=2025-11-27&to=2025-11-27`)
  const row = page.locator(`tr[data-order="${number}"]`)
  await expect(row).toBeVisible()
  await expect(row.locator('th time')).toHaveCount(0)
  await expect(row.locator('th')).not.toContainText('Nov 28')
  // A screen reader hears that the time is to come, not a bare dash or nothing.
  await expect(row.locator('th')).toContainText('time not shown yet')
  await expect(page.getByLabel('From', { exact: true })).toHaveValue('2025-11-27')
  release()

  // The day filtered is the shop's, and the fields say so; so is the time each order reads.
  await expect(page.getByLabel('From (CT)', { exact: true })).toHaveValue('2025-11-27')
  await expect(page.getByLabel('To (CT)', { exact: true })).toHaveValue('2025-11-27')
  await expect(row.locator('th time')).toHaveText('Nov 27, 2025, 6:05 PM CST')
  await expect(row.locator('th time')).toHaveAttribute('datetime', '2025-11-28T00:05:00.000Z')

  // The order's dialog: when it was placed, and each move of its history.
  await row.getByRole('button', { name: `#${number} details` }).click()
  const dialog = page.getByRole('dialog', { name: `Order #${number}` })
  await expect(dialog).toContainText('Placed Nov 27, 2025, 6:05 PM CST')
  const history = dialog.getByRole('list', { name: `History of order ${number}` })
  await expect(history.getByRole('listitem')).toHaveText([
    /PENDING · Nov 27, 2025, 6:05 PM CST · by System/,
    /PENDING → SHIPPED · Nov 27, 2025, 11:30 PM CST · by System/,
  ])
})
