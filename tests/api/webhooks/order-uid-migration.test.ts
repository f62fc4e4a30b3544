// The migration that gives orders their uid: every existing order gets one of its own, and an order whose
// label purchase was under way keeps its carrier reference (the number alone), so a Retry still finds a
// label bought under it before the upgrade instead of buying a second.
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import { migrate } from 'drizzle-orm/libsql/migrator'
import { createRateTableShipping } from '../../../api/adapters/rate-table'
import { migrationsBefore, OLD_ADDRESS } from '../support/migrations'
import { orderRow } from '../support/orders'
import { createTestApp, type TestApp } from '../support/test-app'

const dir = mkdtempSync(join(tmpdir(), 'order-uid-migration-'))
let shop: TestApp | undefined
afterAll(() => {
  shop?.close()
  rmSync(dir, { recursive: true, force: true })
})

test('existing orders get distinct uids; a failed one keeps its reference and Retry finds its label', async () => {
  const url = `file:${join(dir, 'shop.db')}`
  const client = createClient({ url })
  await migrate(drizzle(client), {
    migrationsFolder: migrationsBefore(dir, 'ALTER TABLE `orders` ADD `uid`'),
  })
  // Order 1's label was bought under "000001" and the answer lost, then the order failed; order 2 waits.
  for (const [status, reference] of [
    ['failed', '000001'],
    ['pending', null],
  ] as const) {
    await client.execute({
      sql: `insert into orders (checkout_session_id, source_event_id, email, customer_key, customer_name,
              shipping_address, billing_address, subtotal_cents, discount_cents, shipping_cents, total_cents,
              item_count, total_weight_tenths_oz, shipping_carrier, shipping_service, shipping_service_token,
              status, label_reference, failure_reason, created_at, updated_at)
            values (?, ?, 'old@example.com', 'old@example.com', 'Old Customer', ?, ?, 2100, 0, 935, 3035,
              1, 30, 'USPS', 'USPS Priority Mail', 'usps_priority', ?, ?, null, 1, 1)`,
      args: [`cs_old_${status}`, `evt_old_${status}`, OLD_ADDRESS, OLD_ADDRESS, status, reference],
    })
  }
  client.close()
  const carrier = createRateTableShipping({ dataDir: dir })
  const earlier = await carrier.buyLabel({
    reference: '000001',
    serviceToken: 'usps_priority',
    parcel: { weightOz: 3, lengthIn: 6, widthIn: 4, heightIn: 2 },
    address: JSON.parse(OLD_ADDRESS),
  })

  shop = await createTestApp({ DATABASE_URL: url, DATA_DIR: dir })
  const [failed, pending] = [await orderRow(shop, 1), await orderRow(shop, 2)]
  expect(failed?.uid).toMatch(/^[0-9a-f]{20}$/)
  expect(pending?.uid).toMatch(/^[0-9a-f]{20}$/)
  expect(failed?.uid).not.toBe(pending?.uid)
  expect(failed?.labelReference).toBe('000001')

  expect(await shop.services.orders.retry(1)).toBe(true)
  await shop.runDueJobs()
  expect(await orderRow(shop, 1)).toMatchObject({
    status: 'label_created',
    labelReference: '000001',
    shippoTrackingNumber: earlier.trackingNumber,
  })
  // The order still waiting buys under its number and uid.
  await shop.services.orders.purchaseLabel(2, { lastAttempt: false })
  expect(await orderRow(shop, 2)).toMatchObject({
    status: 'label_created',
    labelReference: `000002-${pending?.uid}`,
  })
})
