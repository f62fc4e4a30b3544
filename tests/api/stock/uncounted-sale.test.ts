// A figure is the units not yet sold (docs/decisions/026, 'A figure is the units not yet sold'): staff who
// start counting after a sale leave out the jars of paid orders still to ship, so the units of an order paid
// while the product was not counted come back on a cancel or a restocking refund as any other order's.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
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
  await count(null)
  r.events.held = true
  r.shop.close()
})

const DUO = 5 // The Brush & Comb Duo: no scents
const count = (units: number | null) =>
  r.asStaff('PATCH', `/api/products/${DUO}/stock`, { stock: units }).then((res) => json(res, 200))

test('a jar shipped before counting started and sent back after it is added to the count', async () => {
  await count(null)
  const { id } = await payForOrder(r.shop, { items: [{ id: DUO, quantity: 2 }] })
  await r.shop.runDueJobs()
  await json(await r.asStaff('POST', `/api/orders/${id}/ship`), 200)
  // The parcel has left: the customer's jars cannot be among the 7 staff count.
  await count(7)
  const [line] = await r.shop.deps.db.select().from(orderLines).where(eq(orderLines.orderId, id))
  await json(
    await r.asStaff('POST', `/api/orders/${id}/refunds`, {
      lines: [{ lineId: line?.id, quantity: 1 }],
      restock: true,
    }),
    201,
  )
  await r.events.deliver()
  expect(await onHand(r.shop, DUO, '')).toBe(8)
})

test('an order paid before counting started, cancelled after it, puts back the jars the count left out', async () => {
  await count(null)
  const { id } = await payForOrder(r.shop, { items: [{ id: DUO, quantity: 3 }] })
  // Staff count the jars not yet sold: the order's three, packed or not, are left out.
  await count(7)
  await json(await r.asStaff('POST', `/api/orders/${id}/cancel`), 200)
  expect(await onHand(r.shop, DUO, '')).toBe(10)
})
