// The database cannot grow: SQLite answers SQLITE_FULL. Here SQLite's own limit on the file's size
// (PRAGMA max_page_count, set on every connection of the pool) stands in for a full disk: SQLite returns
// the same SQLITE_FULL either way, and the shop cannot tell them apart. tests/drills/disk-full.test.ts
// fills a real (small) filesystem instead. A write that cannot be stored answers 503 with Retry-After,
// never 500; /api/ready says so until a write succeeds again; nothing is half-written.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { DEMO_WEBHOOK_SECRET } from '../../../api/adapters/demo-payments'
import { checkoutSessions, settings } from '../../../db/schema'
import { orders } from '../../../db/schema/orders'
import { createSession, getRates, type Items, postWebhook, rateFor, sessionBody } from '../checkout/helpers'
import { createTestApp, type TestApp } from '../support/test-app'

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
})
afterAll(() => shop.close())

const ITEMS: Items = [{ id: 1, quantity: 1 }]
/**
 * The pool's 20 connections (db/connection-pool.ts): the writer every single write shares, the reader
 * every single read shares (it never writes, so the limit does not matter to it), and 18 that interactive
 * transactions take. Each that writes gets the limit, however many the shop has opened.
 */
const TRANSACTION_CONNECTIONS = 18

/** Runs `statement` on every connection of the database client's pool. */
async function onEveryConnection(statement: string): Promise<void> {
  await shop.deps.db.$client.execute(statement)
  const held = await Promise.all(
    Array.from({ length: TRANSACTION_CONNECTIONS }, () => shop.deps.db.$client.transaction('read')),
  )
  try {
    for (const transaction of held) await transaction.execute(statement)
  } finally {
    for (const transaction of held) transaction.close()
  }
}

/** The database may not grow past its present size, and what room is left in its pages is filled. */
async function fillTheDisk(): Promise<void> {
  const pages = Number((await shop.deps.db.$client.execute('PRAGMA page_count')).rows[0]?.[0])
  await onEveryConnection(`PRAGMA max_page_count = ${pages}`)
  for (let i = 0; ; i++) {
    try {
      await shop.deps.db
        .insert(settings)
        .values({ name: `filler-${i}`, value: 'x'.repeat(2000), createdAt: new Date() })
    } catch (error) {
      expect(String((error as { cause?: { code?: unknown } }).cause?.code ?? error)).toContain('SQLITE_FULL')
      return
    }
  }
}

async function freeTheDisk(): Promise<void> {
  await onEveryConnection('PRAGMA max_page_count = 1073741823')
}

function event(id: string, sessionId: string, amountTotal: number): string {
  return JSON.stringify({
    id,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(shop.clock.now().getTime() / 1000),
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        amount_total: amountTotal,
        currency: 'usd',
        payment_status: 'paid',
        status: 'complete',
        metadata: {},
      },
    },
  })
}

describe('a full disk', () => {
  test('writes answer 503 with Retry-After, /api/ready says so until a write succeeds, then all is well', async () => {
    const rate = rateFor(await getRates(shop, ITEMS), 'USPS Ground Advantage')
    // Sessions paid before the disk fills; their events arrive after.
    const paid: { sessionId: string; totalCents: number }[] = []
    for (let i = 0; i < 20; i++) {
      const { sessionId } = await createSession(shop, ITEMS, rate, {
        customer_email: `full.${i}@example.com`,
      })
      const [row] = await shop.deps.db
        .select()
        .from(checkoutSessions)
        .where(eq(checkoutSessions.id, sessionId))
      paid.push({ sessionId, totalCents: row?.totalCents ?? 0 })
    }
    expect((await shop.call('GET', '/api/ready')).status).toBe(200)

    await fillTheDisk()

    // Shoppers go on checking out until a checkout no longer fits: that one is told to come back.
    let checkout: Response | undefined
    for (let i = 0; i < 500; i++) {
      checkout = await shop.call(
        'POST',
        '/api/create-checkout-session',
        sessionBody(ITEMS, rate, { customer_email: `late.${i}@example.com` }),
        { 'x-forwarded-for': `10.44.${i >> 8}.${i & 255}` },
      )
      if (checkout.status !== 200) break
    }
    expect(checkout?.status).toBe(503)
    expect(Number(checkout?.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await checkout?.json()).toEqual({
      error: 'The shop cannot save anything right now. Please try again in a few minutes.',
    })

    // The provider's payment events: the first that cannot be stored is a 503, so it is delivered again.
    let refused = -1
    for (const [i, { sessionId, totalCents }] of paid.entries()) {
      const res = await postWebhook(shop, event(`evt_full_${i}`, sessionId, totalCents), DEMO_WEBHOOK_SECRET)
      if (res.status === 200) continue
      expect(res.status).toBe(503)
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
      refused = i
      break
    }
    expect(refused).toBeGreaterThanOrEqual(0)

    // Reads still work, but the instance is not ready: a load balancer sends traffic elsewhere.
    expect((await shop.call('GET', '/api/catalog')).status).toBeLessThan(500)
    const notReady = await shop.call('GET', '/api/ready')
    expect(notReady.status).toBe(503)
    expect(Number(notReady.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await notReady.json()).toEqual({
      error: 'The disk is full: the shop cannot save anything.',
      status: 'unavailable',
    })
    // Asked again while the disk is still full: still not ready.
    expect((await shop.call('GET', '/api/ready')).status).toBe(503)

    // Nothing was half-written: every order has its lines and its completed session.
    const partial = await shop.deps.db.$client.execute(`select o.id from orders o
      where not exists (select 1 from order_lines l where l.order_id = o.id)
         or not exists (select 1 from checkout_sessions c where c.id = o.checkout_session_id and c.status = 'complete')`)
    expect(partial.rows).toEqual([])

    await freeTheDisk()

    // Ready again once a write succeeds; the redelivered events make their orders.
    expect((await shop.call('GET', '/api/ready')).status).toBe(200)
    for (const [i, { sessionId, totalCents }] of paid.entries()) {
      const res = await postWebhook(shop, event(`evt_full_${i}`, sessionId, totalCents), DEMO_WEBHOOK_SECRET)
      expect(res.status).toBe(200)
    }
    expect(await shop.deps.db.select().from(orders)).toHaveLength(paid.length)
    const retried = await shop.call('POST', '/api/create-checkout-session', sessionBody(ITEMS, rate), {
      'x-forwarded-for': '10.45.0.1',
    })
    expect(retried.status).toBe(200)
  })
})
