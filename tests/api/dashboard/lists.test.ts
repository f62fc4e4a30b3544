// The dashboard's lists and tools: stats for the shop's day, orders and webhook events newest first with
// keyset paging, product weights that later rates use, and the package calculator's rules.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { count, eq } from 'drizzle-orm'
import { products } from '../../../db/schema/catalog'
import { orderHistory, orderLines, orderStatusCounts, orders } from '../../../db/schema/orders'
import { getRates, rateFor } from '../checkout/helpers'
import type { Customer } from '../support/accounts'
import { paidOrder } from '../support/orders'
import { createTestApp, type TestApp } from '../support/test-app'
import { staffMember } from './helpers'

setDefaultTimeout(60_000)

let shop: TestApp
let staff: Customer

beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
  staff = await staffMember(shop)
})
afterAll(() => shop.close())

async function asStaff(method: string, path: string, body?: unknown) {
  return shop.call(method, path, body, { cookie: staff.cookie })
}

describe('stats', () => {
  test("ordersToday counts from midnight in the shop's time zone (America/Chicago), not UTC", async () => {
    // 23:30 in Chicago on March 1st (05:30 UTC on March 2nd): yesterday for the shop.
    shop.clock.set(new Date('2026-03-02T05:30:00Z'))
    await paidOrder(shop)
    // 00:30 in Chicago on March 2nd: today.
    shop.clock.set(new Date('2026-03-02T06:30:00Z'))
    await paidOrder(shop)
    await paidOrder(shop)
    shop.clock.set(new Date('2026-03-02T15:00:00Z'))
    const res = await asStaff('GET', '/api/dashboard/stats')
    expect(res.status).toBe(200)
    const { days, ...counts } = (await res.json()) as { days: { date: string; orders: number }[] }
    expect(counts).toEqual({
      ordersToday: 2,
      processing: 3,
      shipped: 0,
      failed: 0,
      timeZone: 'America/Chicago',
    })
    // The chart's days are the shop's too: the 23:30 order is on March 1st.
    expect(days.slice(-2).map(({ date, orders }) => ({ date, orders }))).toEqual([
      { date: '2026-03-01', orders: 1 },
      { date: '2026-03-02', orders: 2 },
    ])
    await shop.runDueJobs()
    const { days: _, ...later } = await (await asStaff('GET', '/api/dashboard/stats')).json()
    expect(later).toEqual({
      ordersToday: 2,
      processing: 0,
      shipped: 0,
      failed: 0,
      timeZone: 'America/Chicago',
    })
    // Past midnight in Chicago (06:00 UTC on March 3rd) a new day starts.
    shop.clock.set(new Date('2026-03-03T06:00:00Z'))
    expect((await (await asStaff('GET', '/api/dashboard/stats')).json()).ordersToday).toBe(0)
    shop.clock.set(new Date('2026-03-03T15:00:00Z'))
  })
})

describe('orders', () => {
  test('newest first with the dashboard fields, paged by ?before= without overlap', async () => {
    const made = [
      await paidOrder(shop, { items: [{ id: 1, quantity: 1 }] }),
      await paidOrder(shop, {
        items: [
          { id: 2, quantity: 2 },
          { id: 5, quantity: 1 },
        ],
        email: 'lee@example.com',
        name: 'Lee Ward',
      }),
      await paidOrder(shop, { items: [{ id: 4, quantity: 5 }] }),
    ]
    const res = await asStaff('GET', '/api/orders?limit=2')
    expect(res.status).toBe(200)
    const first = (await res.json()) as Record<string, unknown>[]
    expect(first.map((order) => order.id)).toEqual([made[2], made[1]])
    expect(first[1]).toEqual({
      id: made[1],
      number: String(made[1]).padStart(6, '0'),
      customerName: 'Lee Ward',
      customerEmail: 'lee@example.com',
      itemCount: 3,
      totalWeight: expect.any(Number),
      packageType: 'medium',
      packageDimensions: { width: 5, length: 9, height: 1 },
      status: 'pending',
      createdAt: shop.clock.now().toISOString(),
      totalAmount: expect.any(Number),
      shippoTrackingNumber: null,
      carrier: 'USPS',
      shippingService: 'USPS Priority Mail',
      failureReason: null,
      discountWarning: null,
      stockWarning: null,
      labelUrl: null,
    })
    expect(first[0]).toMatchObject({ itemCount: 5, packageType: 'large' })
    const second = (await (await asStaff('GET', `/api/orders?limit=2&before=${made[1]}`)).json()) as Record<
      string,
      unknown
    >[]
    expect(second.map((order) => order.id)).toEqual([made[0], (made[0] as number) - 1])
    const all = (await (await asStaff('GET', '/api/orders?limit=100')).json()) as { id: number }[]
    expect(all.map((order) => order.id)).toEqual([...all.map((order) => order.id)].sort((a, b) => b - a))
  })

  test('?status= keeps the orders in those statuses, newest first', async () => {
    const all = (await (await asStaff('GET', '/api/orders?limit=100')).json()) as {
      id: number
      status: string
    }[]
    expect(new Set(all.map((order) => order.status))).toEqual(new Set(['label_created', 'pending']))
    for (const [query, statuses] of [
      ['pending', ['pending']],
      ['label_created', ['label_created']],
      ['label_created,pending', ['label_created', 'pending']],
      ['failed', []],
    ] as const) {
      const res = await asStaff('GET', `/api/orders?limit=100&status=${query}`)
      expect(res.status).toBe(200)
      const ids = ((await res.json()) as { id: number }[]).map((order) => order.id)
      expect([query, ids]).toEqual([
        query,
        all
          .filter((order) => (statuses as readonly string[]).includes(order.status))
          .map((order) => order.id),
      ])
    }
    const newestPending = all.find((order) => order.status === 'pending')?.id ?? 0
    const older = (await (
      await asStaff('GET', `/api/orders?status=pending&before=${newestPending}`)
    ).json()) as { id: number; status: string }[]
    expect(older.every((order) => order.id < newestPending && order.status === 'pending')).toBe(true)
    for (const query of ['lost', 'failed,,', 'FAILED']) {
      const bad = await asStaff('GET', `/api/orders?status=${query}`)
      expect([query, bad.status]).toEqual([query, 422])
      expect((await bad.json()).error).toBe(
        'status must be one or more of pending, processing, label_created, shipped, failed, cancelled, refunded, separated by commas.',
      )
    }
  })

  test('bad paging values are a 422 that says what is expected', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=2.5', 'before=abc', 'before=-1']) {
      const res = await asStaff('GET', `/api/orders?${query}`)
      expect([query, res.status]).toEqual([query, 422])
      expect((await res.json()).error).toMatch(/limit must be a whole number from 1 to 100|before must be/)
    }
  })
})

describe('webhook events', () => {
  test('newest first with the documented fields, paged by ?before=<event id>', async () => {
    const res = await asStaff('GET', '/api/webhooks?limit=3')
    expect(res.status).toBe(200)
    const first = (await res.json()) as Record<string, unknown>[]
    expect(first).toHaveLength(3)
    expect(Object.keys(first[0] ?? {}).sort()).toEqual([
      'createdAt',
      'eventType',
      'id',
      'orderId',
      'processingTimeMs',
      'status',
    ])
    expect(first[0]).toMatchObject({ eventType: 'checkout.session.completed', status: 'processed' })
    const all = (await (await asStaff('GET', '/api/webhooks?limit=100')).json()) as { id: string }[]
    const rest = (await (
      await asStaff('GET', `/api/webhooks?limit=100&before=${encodeURIComponent(String(first[2]?.id))}`)
    ).json()) as { id: string }[]
    expect([...first.map((event) => event.id), ...rest.map((event) => event.id)]).toEqual(
      all.map((event) => event.id),
    )
    const times = all.map((event) => Date.parse((event as unknown as { createdAt: string }).createdAt))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    expect(await (await asStaff('GET', '/api/webhooks?before=evt_unknown')).json()).toEqual([])
    expect((await asStaff('GET', '/api/webhooks?limit=500')).status).toBe(422)
  })
})

describe('products and weights', () => {
  test('products list with weights in ounces', async () => {
    const res = await asStaff('GET', '/api/products')
    expect(res.status).toBe(200)
    const products = (await res.json()) as Record<string, unknown>[]
    expect(products.map((product) => product.id)).toEqual([1, 2, 3, 4, 5])
    expect(products[0]).toEqual({
      id: 1,
      name: expect.any(String),
      description: expect.any(String),
      weight: 3,
      stock: null,
      toShip: null,
      variants: [
        // Paid orders earlier in this file hold some: tests/api/stock/to-ship.test.ts counts them.
        { name: 'Hammered Citrus', stock: null, toShip: expect.any(Number) },
        { name: 'Cedar Shop', stock: null, toShip: 0 },
        { name: 'Unscented', stock: null, toShip: 0 },
      ],
      formerVariants: [],
    })
  })

  test.each([
    [{ weight: 0 }],
    [{ weight: -2 }],
    [{ weight: 'text' }],
    [{ weight: 'NaN' }],
    [{ weight: 1e9 }],
    [{ weight: 1000.1 }],
    [{ weight: 2.55 }],
    [{ weight: null }],
    [{ weight: true }],
    [{}],
    ['4'],
  ])('weight %p is refused with a 422 that says what a weight must be', async (body) => {
    const res = await asStaff('PATCH', '/api/products/1/weight', body)
    expect(res.status).toBe(422)
    expect((await res.json()).error).toBe(
      'Weight must be a number of ounces above 0 and at most 1,000, with at most one decimal (like 2.5).',
    )
    expect((await shop.services.catalog.byId(1))?.weightTenthsOz).toBe(30)
  })

  test('NaN in the body is not JSON: 400', async () => {
    const res = await shop.call('PATCH', '/api/products/1/weight', '{"weight": NaN}', {
      cookie: staff.cookie,
    })
    expect(res.status).toBe(400)
  })

  test('an unknown product is a 404', async () => {
    for (const path of ['/api/products/99/weight', '/api/products/abc/weight']) {
      const res = await asStaff('PATCH', path, { weight: 3 })
      expect([path, res.status]).toEqual([path, 404])
    }
  })

  test('a new weight is kept, shown by /api/catalog, and used by the next rates', async () => {
    const items = [{ id: 5, quantity: 1 }]
    const before = rateFor(await getRates(shop, items), 'USPS Priority Mail').price
    const res = await asStaff('PATCH', '/api/products/5/weight', { weight: 40.5 })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      message: expect.stringContaining('now weighs 40.5 oz'),
      product: expect.objectContaining({ id: 5, weight: 40.5 }),
    })
    expect((await (await asStaff('GET', '/api/products')).json())[4].weight).toBe(40.5)
    // Marked as staff's, so the next content sync at boot keeps it.
    const [row] = await shop.deps.db.select().from(products).where(eq(products.id, 5))
    expect(row).toMatchObject({ weightTenthsOz: 405, weightOverridden: true })
    const catalog = (await (await shop.call('GET', '/api/catalog')).json()) as {
      products: { id: number; weight: string }[]
    }
    expect(catalog.products.find((product) => product.id === 5)?.weight).toBe('40.5')
    const after = rateFor(await getRates(shop, items), 'USPS Priority Mail').price
    expect(after).toBeGreaterThan(before)
    // The largest weight allowed, and back.
    expect((await asStaff('PATCH', '/api/products/5/weight', { weight: 1000 })).status).toBe(200)
    expect((await asStaff('PATCH', '/api/products/5/weight', { weight: '3.5' })).status).toBe(200)
    expect((await shop.services.catalog.byId(5))?.weightTenthsOz).toBe(35)
  })
})

describe('package calculator', () => {
  test.each([
    [1, 'small', { width: 4.25, length: 7, height: 1 }],
    [2, 'small', { width: 4.25, length: 7, height: 1 }],
    [3, 'medium', { width: 5, length: 9, height: 1 }],
    [4, 'medium', { width: 5, length: 9, height: 1 }],
    [5, 'large', { width: 7.5, length: 10.5, height: 1.5 }],
    [20, 'large', { width: 7.5, length: 10.5, height: 1.5 }],
  ])('%p items: %s mailer', async (itemCount, type, dimensions) => {
    const res = await asStaff('POST', '/api/calculate-package', { itemCount })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ type, dimensions })
  })

  test.each([[0], [21], [2.5], ['text'], [-1], [null], [undefined]])(
    'itemCount %p is a 422',
    async (itemCount) => {
      const res = await asStaff('POST', '/api/calculate-package', { itemCount })
      expect(res.status).toBe(422)
      expect(await res.json()).toEqual({ error: 'Item count must be a whole number from 1 to 20.' })
    },
  )
})

describe('status counts', () => {
  test('stay equal to counting the orders after inserts, status changes and deletes, whatever path made them', async () => {
    const counted = async () => {
      const rows = await shop.deps.db
        .select({ status: orders.status, n: count() })
        .from(orders)
        .groupBy(orders.status)
      return Object.fromEntries(rows.map((row) => [row.status, row.n]))
    }
    const kept = async () => {
      const rows = await shop.deps.db.select().from(orderStatusCounts)
      return Object.fromEntries(rows.filter((row) => row.orders > 0).map((row) => [row.status, row.orders]))
    }
    const made = [await paidOrder(shop), await paidOrder(shop), await paidOrder(shop)]
    expect(await kept()).toEqual(await counted())
    await shop.runDueJobs()
    expect(await kept()).toEqual(await counted())
    // A change made outside the services (a staff member with a SQL console) is counted too.
    await shop.deps.db
      .update(orders)
      .set({ status: 'shipped' })
      .where(eq(orders.id, made[0] as number))
    await shop.deps.db
      .update(orders)
      .set({ status: 'failed' })
      .where(eq(orders.id, made[1] as number))
    expect(await kept()).toEqual(await counted())
    await shop.deps.db.delete(orderLines).where(eq(orderLines.orderId, made[2] as number))
    await shop.deps.db.delete(orderHistory).where(eq(orderHistory.orderId, made[2] as number))
    await shop.deps.db.delete(orders).where(eq(orders.id, made[2] as number))
    expect(await kept()).toEqual(await counted())
  })
})
