// The migration that records on each order line the units its sale took off the shelf: lines sold before it
// keep the rule of their time, all their units (docs/decisions/027-cancel-and-refund.md).
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import { migrate } from 'drizzle-orm/libsql/migrator'
import { migrationsFolder } from '../../../db/client'
import { insertOldOrder, migrationsBefore } from '../support/migrations'

const dir = mkdtempSync(join(tmpdir(), 'taken-off-shelf-migration-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('lines sold before the upgrade count all their units as taken off the shelf', async () => {
  const client = createClient({ url: `file:${join(dir, 'shop.db')}` })
  const db = drizzle(client)
  await migrate(db, { migrationsFolder: migrationsBefore(dir, 'ADD `taken_off_shelf`') })
  await insertOldOrder(client, { totalCents: 9000, status: 'pending' })
  for (const [position, quantity] of [3, 1].entries()) {
    await client.execute({
      sql: `insert into order_lines (order_id, position, product_id, name, variant, stock_variant, unit_cents,
              quantity, discount_cents, weight_tenths_oz)
            values (1, ?, 4, 'Old line', null, '', 1800, ?, 0, 30)`,
      args: [position, quantity],
    })
  }

  await migrate(db, { migrationsFolder })
  const rows = await client.execute('select taken_off_shelf from order_lines order by position')
  expect(rows.rows.map((row) => row.taken_off_shelf)).toEqual([3, 1])
  client.close()
})
