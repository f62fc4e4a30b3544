// The migration that keeps on each order line the stock it was sold from: lines sold before it are named as
// the catalogue maps them at the upgrade (what a cancel or refund did until then), so later content edits
// move none of their units (docs/decisions/026-stock-reserved-at-checkout.md).
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import { migrate } from 'drizzle-orm/libsql/migrator'
import { loadCatalogFromContent } from '../../../api/modules/catalog/content'
import { syncCatalog } from '../../../api/modules/catalog/service'
import { migrationsFolder } from '../../../db/client'
import { insertOldOrder, migrationsBefore } from '../support/migrations'

const dir = mkdtempSync(join(tmpdir(), 'stock-variant-migration-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('lines sold before the upgrade are named as the catalogue maps them; a scent the product lacks, none', async () => {
  const client = createClient({ url: `file:${join(dir, 'shop.db')}` })
  const db = drizzle(client)
  await migrate(db, { migrationsFolder: migrationsBefore(dir, 'ADD `stock_variant`') })
  await syncCatalog(db as never, loadCatalogFromContent(), new Date())
  await insertOldOrder(client, { totalCents: 9000, status: 'pending' })
  // Hammered Citrus (scents Hammered Citrus, Cedar Shop, Unscented), Alpine Wash (Alpine first),
  // Workforce Repair (no scents).
  const lines: [number, string | null][] = [
    [1, null],
    [1, 'Cedar Shop'],
    [1, 'Motor Oil'],
    [3, null],
    [4, null],
    [4, 'Original'],
  ]
  for (const [position, [productId, variant]] of lines.entries()) {
    await client.execute({
      sql: `insert into order_lines (order_id, position, product_id, name, variant, unit_cents, quantity,
              discount_cents, weight_tenths_oz)
            values (1, ?, ?, 'Old line', ?, 1800, 1, 0, 30)`,
      args: [position, productId, variant],
    })
  }

  await migrate(db, { migrationsFolder })
  const rows = await client.execute('select stock_variant from order_lines order by position')
  expect(rows.rows.map((row) => row.stock_variant)).toEqual([
    'Hammered Citrus',
    'Cedar Shop',
    null,
    'Alpine',
    '',
    '',
  ])
  client.close()
})
