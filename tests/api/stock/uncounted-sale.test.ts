// A sale made while its product was not counted took nothing off a shelf figure: a cancel or a restocking
// refund after staff start counting puts none of its units back, so the new count is never inflated by
// units it never lost (docs/decisions/027-cancel-and-refund.md). Units a counted sale took go back as before.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { orderLines } from '../../../db/schema/orders'
import { createRefundShop, json, type RefundShop } from '../refunds/helpers'
import { payForOrder } from '../support/orders'
import { onHand } from './helpers'

setDefaultTimeout(60_000)

let r: RefundShop
beforeAll(async () => {
  r = await createRefundShop()
})
afterAll(async () => {
  await count(GRIT, null)
  await count(DUO, null)
  r.events.held = true
  r.shop.close()
})

// Workforce Repair Original Grit and The Brush & Comb Duo: no scents, so their stock variant is ''.
const GRIT = 4
const DUO = 5

const count = (productId: number, units: number | null) =>
  r.asStaff('PATCH', `/api/products/${productId}/stock`, { stock: units }).then((res) => json(res, 200))

async function linesOf(orderId: number) {
  return r.shop.deps.db
    .select({ id: orderLines.id, productId: orderLines.productId, takenOffShelf: orderLines.takenOffShelf })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(orderLines.position)
}

/** An order of 2 Grit, counted from 10, and 3 Duo, not counted: its id. */
async function gritCountedDuoNot(): Promise<number> {
  await count(GRIT, 10)
  await count(DUO, null)
  const { id } = await payForOrder(r.shop, {
    items: [
      { id: GRIT, quantity: 2 },
      { id: DUO, quantity: 3 },
    ],
  })
  return id
}

describe('units a sale took off the shelf', () => {
  test('each line records them: its quantity where counted, 0 where not', async () => {
    const id = await gritCountedDuoNot()
    expect((await linesOf(id)).map((line) => [line.productId, line.takenOffShelf])).toEqual([
      [GRIT, 2],
      [DUO, 0],
    ])
    expect(await onHand(r.shop, GRIT, '')).toBe(8)
  })

  test('a cancel after counting started puts back only what the sale took', async () => {
    const id = await gritCountedDuoNot()
    // Staff start counting the Duo after the sale: 7 on the shelf (the order's three set aside, or not).
    await count(DUO, 7)
    await json(await r.asStaff('POST', `/api/orders/${id}/cancel`, { reason: 'Changed their mind' }), 200)
    expect(await onHand(r.shop, GRIT, '')).toBe(10)
    expect(await onHand(r.shop, DUO, '')).toBe(7)
  })

  test('a restocking refund after counting started puts back only what the sale took', async () => {
    const id = await gritCountedDuoNot()
    await count(DUO, 7)
    const [grit, duo] = await linesOf(id)
    if (!grit || !duo) throw new Error('no lines')
    await json(
      await r.asStaff('POST', `/api/orders/${id}/refunds`, {
        lines: [
          { lineId: grit.id, quantity: 1 },
          { lineId: duo.id, quantity: 2 },
        ],
        restock: true,
      }),
      201,
    )
    expect(await onHand(r.shop, GRIT, '')).toBe(9)
    expect(await onHand(r.shop, DUO, '')).toBe(7)
    // The rest of the order cancelled: the Grit's other unit goes back, none of the Duo's.
    await json(await r.asStaff('POST', `/api/orders/${id}/cancel`), 200)
    expect(await onHand(r.shop, GRIT, '')).toBe(10)
    expect(await onHand(r.shop, DUO, '')).toBe(7)
  })

  test('units a counted sale took go back even if counting was stopped and started again', async () => {
    await count(GRIT, 10)
    const { id } = await payForOrder(r.shop, { items: [{ id: GRIT, quantity: 2 }] })
    await count(GRIT, null)
    await count(GRIT, 8)
    await json(await r.asStaff('POST', `/api/orders/${id}/cancel`), 200)
    expect(await onHand(r.shop, GRIT, '')).toBe(10)
  })
})

test('an order of more lines than the INSERT built once records them too', async () => {
  await count(GRIT, 100)
  await count(DUO, null)
  const items = Array.from({ length: 24 }, (_, index) => ({ id: index % 2 === 0 ? GRIT : DUO, quantity: 1 }))
  const { id } = await payForOrder(r.shop, { items })
  const lines = await linesOf(id)
  expect(lines).toHaveLength(24)
  expect(lines.map((line) => line.takenOffShelf)).toEqual(items.map((item) => (item.id === GRIT ? 1 : 0)))
})
