// A paid order keeps its cart's lines as they were, in their order: the lines' INSERT is built once for
// each count of lines (api/modules/orders/placement.ts), so orders of different sizes, one after another,
// each get their own lines and no other order's; a cart of more lines than are built once still does.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { asc, eq } from 'drizzle-orm'
import { orderLines, orders } from '../../../db/schema/orders'
import { createTestApp, type TestApp } from '../support/test-app'
import { getRates, payDemo, rateFor, sessionBody } from './helpers'

const OIL = 1 // scents Hammered Citrus, Cedar Shop, Unscented
const BALM = 2
const REPAIR = 4 // no scents

type Item = { id: number; quantity: number; variant?: string }

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp()
})
afterAll(() => shop.close())

/** A paid order for these items (each with its scent, if any): its id. */
async function orderFor(items: Item[], shopper: number): Promise<number> {
  const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
  const body = sessionBody(items, rate, { customer_email: `lines.${shopper}@example.com` })
  body.line_items = (body.line_items as Record<string, unknown>[]).map((line, index) => ({
    ...line,
    ...(items[index]?.variant ? { variant: items[index]?.variant } : {}),
  }))
  const opened = await shop.call('POST', '/api/create-checkout-session', body)
  const { sessionId } = (await opened.json()) as { sessionId: string }
  expect((await payDemo(shop, sessionId)).status).toBe(200)
  const [order] = await shop.deps.db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.checkoutSessionId, sessionId))
  if (!order) throw new Error('no order')
  return order.id
}

async function linesOf(orderId: number) {
  return shop.deps.db
    .select({
      position: orderLines.position,
      productId: orderLines.productId,
      variant: orderLines.variant,
      quantity: orderLines.quantity,
    })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.position))
}

/** A line without a scent is kept as the product's first scent, the one it was sold from (Balm: its own name). */
const FIRST_SCENT: Record<number, string> = { [OIL]: 'Hammered Citrus', [BALM]: 'Barrel & Timber' }

const expected = (items: Item[]) =>
  items.map((item, position) => ({
    position,
    productId: item.id,
    variant: item.variant ?? FIRST_SCENT[item.id] ?? null,
    quantity: item.quantity,
  }))

test('orders of 1, 3, 1, 2 and 24 lines, one after another, each keep exactly their own lines', async () => {
  const carts: Item[][] = [
    [{ id: REPAIR, quantity: 2 }],
    [
      { id: OIL, quantity: 1, variant: 'Cedar Shop' },
      { id: BALM, quantity: 3 },
      { id: OIL, quantity: 2, variant: 'Unscented' },
    ],
    [{ id: BALM, quantity: 1 }],
    [
      { id: REPAIR, quantity: 1 },
      { id: OIL, quantity: 4, variant: 'Hammered Citrus' },
    ],
    // More lines than are built once: the same product on lines of its own.
    Array.from({ length: 24 }, (_, index) => ({ id: REPAIR, quantity: 1 + (index % 3) })),
  ]
  for (const [shopper, items] of carts.entries()) {
    const id = await orderFor(items, shopper)
    expect(await linesOf(id)).toEqual(expected(items))
  }
})
