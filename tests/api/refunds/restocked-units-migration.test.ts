// The migration that records on each refund line the units it put back on the shelf: refunds marked
// restocked before it are given what the rule of the time put back, in the order they were marked (each
// line's units, at most the order line's quantity less what earlier ones put back), so a refund made after
// the upgrade compares against what really moved (docs/decisions/027-cancel-and-refund.md).
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import { migrate } from 'drizzle-orm/libsql/migrator'
import { migrationsFolder } from '../../../db/client'
import { insertOldOrder, migrationsBefore } from '../support/migrations'

const dir = mkdtempSync(join(tmpdir(), 'restocked-units-migration-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('refund lines marked restocked before the upgrade get the units the rule of the time put back', async () => {
  const client = createClient({ url: `file:${join(dir, 'shop.db')}` })
  const db = drizzle(client)
  await migrate(db, { migrationsFolder: migrationsBefore(dir, 'ADD `restocked_quantity`') })
  await insertOldOrder(client, { totalCents: 5200, status: 'shipped' })
  // Line 1: 2 units; line 2: 2 units.
  for (const position of [0, 1]) {
    await client.execute({
      sql: `insert into order_lines (order_id, position, product_id, name, unit_cents, quantity, discount_cents,
              weight_tenths_oz) values (1, ?, 4, 'Workforce Repair', 1300, 2, 0, 26)`,
      args: [position],
    })
  }
  // [id, restock, restocked_at, status, [line, units]...]: a failed refund of one unit kept on the shelf, the
  // same unit refunded again (the old rule put it back twice: 2 on the shelf, the line's cap), then a third
  // refund of one unit (nothing left under the cap); a refund without restock; one not made yet.
  const refunds: [string, number, number | null, string, [number, number][]][] = [
    ['rf_a', 1, 10, 'failed', [[1, 1]]],
    ['rf_b', 1, 20, 'succeeded', [[1, 1]]],
    ['rf_c', 1, 30, 'succeeded', [[1, 1]]],
    ['rf_d', 0, null, 'succeeded', [[2, 1]]],
    ['rf_e', 1, null, 'requested', [[2, 1]]],
  ]
  for (const [id, restock, restockedAt, status, lines] of refunds) {
    await client.execute({
      sql: `insert into order_refunds (id, order_id, origin, amount_cents, status, restock, restocked_at, actor,
              created_at, updated_at) values (?, 1, 'refund', 1300, ?, ?, ?, 'staff', 1, 1)`,
      args: [id, status, restock, restockedAt],
    })
    for (const [lineId, quantity] of lines) {
      await client.execute({
        sql: 'insert into order_refund_lines (refund_id, line_id, quantity, amount_cents) values (?, ?, ?, 1300)',
        args: [id, lineId, quantity],
      })
    }
  }

  await migrate(db, { migrationsFolder })
  const rows = await client.execute(
    'select refund_id, restocked_quantity from order_refund_lines order by refund_id',
  )
  expect(rows.rows.map((row) => [row.refund_id, row.restocked_quantity])).toEqual([
    ['rf_a', 1],
    ['rf_b', 1],
    ['rf_c', 0],
    ['rf_d', 0],
    ['rf_e', 0],
  ])
  client.close()
})
