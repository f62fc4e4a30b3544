import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type DatabaseHandle, openDatabase } from '../../../db/client'
import { customerEmail, growShop, REGULAR_CUSTOMER } from '../../../scripts/bench/large-shop-data'

const NOW = new Date('2026-11-23T12:00:00Z')
const HASH = 'hash-of-the-bench-password'
const opened: { handle: DatabaseHandle; dir: string }[] = []

/** A database the real migrations made, in a temporary folder. */
async function freshShop(): Promise<DatabaseHandle> {
  const dir = mkdtempSync(join(tmpdir(), 'large-shop-test-'))
  const handle = await openDatabase(`file:${join(dir, 'shop.db')}`)
  opened.push({ handle, dir })
  return handle
}

afterEach(() => {
  for (const { handle, dir } of opened.splice(0)) {
    handle.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

const one = async (handle: DatabaseHandle, sql: string, args: (string | number)[] = []) =>
  Number((await handle.db.$client.execute({ sql, args })).rows[0]?.[0] ?? 0)

describe('large-shop data', () => {
  test('1,000 orders come with their lines, three events each and one customer account per ten orders', async () => {
    const shop = await freshShop()
    const counts = await growShop(shop.db, 1_000, { now: NOW, passwordHash: HASH })

    expect(counts).toMatchObject({ orders: 1_000, webhookEvents: 3_000, customers: 100, accounts: 100 })
    expect(counts.orderLines).toBeGreaterThanOrEqual(1_000)
    expect(counts.orderLines).toBeLessThanOrEqual(3_000)
    expect(
      await one(
        shop,
        'select count(*) from orders o where not exists (select 1 from order_lines l where l.order_id = o.id)',
      ),
    ).toBe(0)
    expect(
      await one(
        shop,
        "select count(*) from webhook_events where status = 'processed' and order_id not in (select id from orders)",
      ),
    ).toBe(0)
    expect(
      await one(shop, "select count(*) from webhook_events where event_type = 'checkout.session.completed'"),
    ).toBe(1_000)
    // What the customer was charged adds up from the lines.
    expect(
      await one(
        shop,
        `select count(*) from orders o where subtotal_cents != (select sum(unit_cents * quantity) from order_lines where order_id = o.id)
           or discount_cents != (select sum(discount_cents) from order_lines where order_id = o.id)
           or total_cents != subtotal_cents - discount_cents + shipping_cents`,
      ),
    ).toBe(0)
    // Every customer is an account with the one password, and every order belongs to one of them.
    expect(
      await one(shop, "select count(*) from users where role = 'customer' and password_hash = ?", [HASH]),
    ).toBe(100)
    expect(await one(shop, 'select count(*) from orders where user_id not in (select id from users)')).toBe(0)
    expect(
      await one(shop, 'select count(*) from orders where email = ?', [customerEmail(REGULAR_CUSTOMER)]),
    ).toBe(10)
  })

  test('growing keeps the orders there are, adds the rest, and leaves the regular customer at ten orders', async () => {
    const shop = await freshShop()
    await growShop(shop.db, 1_000, { now: NOW, passwordHash: HASH })
    const firstOrder = (await shop.db.$client.execute('select * from orders where id = 1')).rows[0]
    const counts = await growShop(shop.db, 3_000, { now: NOW, passwordHash: HASH })

    expect(counts).toMatchObject({ orders: 3_000, webhookEvents: 9_000, customers: 300, accounts: 300 })
    expect((await shop.db.$client.execute('select * from orders where id = 1')).rows[0]).toEqual(firstOrder)
    expect(
      await one(shop, 'select count(*) from orders where email = ?', [customerEmail(REGULAR_CUSTOMER)]),
    ).toBe(10)
    // Order numbers follow time, as the shop's own do: the newest order is the last one made.
    expect(
      await one(
        shop,
        'select count(*) from orders a join orders b on b.id = a.id + 1 where b.created_at < a.created_at',
      ),
    ).toBe(0)
  })
})
