/** For tests of one migration: the shop's migrations up to it, to fill a database as it stood before. */
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { migrationsFolder } from '../../../db/client'

/**
 * A copy of the migrations folder in `dir` holding those before the first whose SQL contains `sqlText`:
 * found by what it does, not by its name or number.
 */
export function migrationsBefore(dir: string, sqlText: string): string {
  const folder = join(dir, 'migrations')
  cpSync(migrationsFolder, folder, { recursive: true })
  const journalPath = join(folder, 'meta', '_journal.json')
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] }
  const at = journal.entries.findIndex((entry) =>
    readFileSync(join(folder, `${entry.tag}.sql`), 'utf8').includes(sqlText),
  )
  if (at < 1) throw new Error(`no migration after the first adds ${sqlText}`)
  journal.entries = journal.entries.slice(0, at)
  writeFileSync(journalPath, JSON.stringify(journal))
  return folder
}

/** An address as orders stored it before the upgrade under test. */
export const OLD_ADDRESS = JSON.stringify({
  name: 'Old Customer',
  street1: '12 Mill Rd',
  city: 'San Francisco',
  state: 'CA',
  zip: '94107',
  country: 'US',
})

/**
 * An order as a database before the upgrade under test holds it (order 1, its session cs_old), with
 * `totalCents` charged and `status`, through a client of that database.
 */
export async function insertOldOrder(
  client: { execute(statement: { sql: string; args: (string | number)[] }): Promise<unknown> },
  { totalCents, status }: { totalCents: number; status: string },
): Promise<void> {
  await client.execute({
    sql: `insert into orders (uid, checkout_session_id, source_event_id, email, customer_key, customer_name,
            shipping_address, billing_address, subtotal_cents, discount_cents, shipping_cents, total_cents,
            item_count, total_weight_tenths_oz, shipping_carrier, shipping_service, shipping_service_token,
            status, created_at, updated_at)
          values ('00000000000000000001', 'cs_old', 'evt_old', 'old@example.com', 'old@example.com',
            'Old Customer', ?, ?, ?, 0, 0, ?, 1, 30, 'USPS', 'USPS Priority Mail', 'usps_priority', ?, 1, 1)`,
    args: [OLD_ADDRESS, OLD_ADDRESS, totalCents, totalCents, status],
  })
}
