// The migration that keeps, on each order line, the units whose refund failed and that no refund has taken
// over since (docs/decisions/027-cancel-and-refund.md): refunds that failed before it are counted by where the
// rule of the time left their units, less what the standing refunds made again since must have taken over
// (a line never holds more units than it has).
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import { migrate } from 'drizzle-orm/libsql/migrator'
import { migrationsFolder } from '../../../db/client'
import { insertOldOrder, migrationsBefore } from '../support/migrations'

const dir = mkdtempSync(join(tmpdir(), 'unsettled-units-migration-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test("failed refunds' units are unsettled where they were left, less what later refunds took over", async () => {
  const client = createClient({ url: `file:${join(dir, 'shop.db')}` })
  const db = drizzle(client)
  await migrate(db, { migrationsFolder: migrationsBefore(dir, 'ADD `unsettled_on_shelf`') })
  await insertOldOrder(client, { totalCents: 9100, status: 'shipped' })
  // Line 1: 3 units; line 2: 2 units; line 3: 2 units, never refunded.
  for (const [position, quantity] of [
    [0, 3],
    [1, 2],
    [2, 2],
  ]) {
    await client.execute({
      sql: `insert into order_lines (order_id, position, product_id, name, unit_cents, quantity, discount_cents,
              weight_tenths_oz) values (1, ?, 4, 'Workforce Repair', 1300, ?, 0, 26)`,
      args: [position ?? 0, quantity ?? 0],
    })
  }
  // Line 1: a restocking refund that failed but stayed marked (on the shelf), one that failed unmarked (out),
  // one without restock that failed (off). Line 2: a failed refund without restock of 2, then one of 1 made
  // again and standing: 2 + 1 of 2 units, so 1 was taken over (from those off: none are out).
  const refunds: [string, number, number | null, string, number, number][] = [
    ['rf_a', 1, 10, 'failed', 1, 1],
    ['rf_b', 1, null, 'failed', 1, 1],
    ['rf_c', 0, null, 'failed', 1, 1],
    ['rf_d', 0, null, 'failed', 2, 2],
    ['rf_e', 0, null, 'succeeded', 2, 1],
  ]
  for (const [id, restock, restockedAt, status, lineId, quantity] of refunds) {
    await client.execute({
      sql: `insert into order_refunds (id, order_id, origin, amount_cents, status, restock, restocked_at, actor,
              created_at, updated_at) values (?, 1, 'refund', 1300, ?, ?, ?, 'staff', 1, 1)`,
      args: [id, status, restock, restockedAt],
    })
    await client.execute({
      sql: 'insert into order_refund_lines (refund_id, line_id, quantity, amount_cents) values (?, ?, ?, 1300)',
      args: [id, lineId, quantity],
    })
  }

  await migrate(db, { migrationsFolder })
  const rows = await client.execute(
    'select id, unsettled_on_shelf, unsettled_out, unsettled_off from order_lines order by id',
  )
  expect(rows.rows.map((row) => [row.unsettled_on_shelf, row.unsettled_out, row.unsettled_off])).toEqual([
    [1, 1, 1],
    [0, 0, 1],
    [0, 0, 0],
  ])
  // The refund made again is recorded as having taken over the unit: on the shelf, the reading that puts
  // the fewest back later.
  const taken = await client.execute(
    'select refund_id, settles_on_shelf from order_refund_lines order by refund_id',
  )
  expect(taken.rows.map((row) => [row.refund_id, row.settles_on_shelf])).toEqual([
    ['rf_a', 0],
    ['rf_b', 0],
    ['rf_c', 0],
    ['rf_d', 0],
    ['rf_e', 1],
  ])
  client.close()
})
