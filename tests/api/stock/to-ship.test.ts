// The dashboard's products say, for each product and scent, how many units paid orders still have to ship
// (`toShip`): what staff counting the shelf leave out, since payment took them off the figure and shipping
// does not (docs/decisions/026). An order holds them until it ships or is cancelled; of a line, the units a
// cancel would put back: not those a refund put back on the shelf, nor those refunded without restock.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { DashboardProduct, StockResponse } from '@core/contracts/dashboard'
import { createRefundShop, json, type RefundShop } from '../refunds/helpers'
import { payForOrder } from '../support/orders'
import { planOfSent } from '../support/query-plan'
import { onHand } from './helpers'

setDefaultTimeout(60_000)

/** Hammered Citrus: scents Hammered Citrus (the first: a line without a scent draws on it), Cedar Shop, … */
const OIL = 1
/** The Brush & Comb Duo: no scents. */
const DUO = 5

let r: RefundShop
beforeAll(async () => {
  r = await createRefundShop()
})
afterAll(() => {
  r.events.held = true
  r.shop.close()
})

async function products(): Promise<DashboardProduct[]> {
  return json<DashboardProduct[]>(await r.asStaff('GET', '/api/products'), 200)
}

/** What GET /api/products says paid orders still have to ship of a product ('' for its own figure) or scent. */
async function toShip(productId: number, scent = ''): Promise<number | null | undefined> {
  const product = (await products()).find((each) => each.id === productId)
  if (!product) throw new Error(`no product ${productId}`)
  return scent === '' ? product.toShip : product.variants.find((variant) => variant.name === scent)?.toShip
}

/** A paid order of `quantity` units of a product (its first scent), its label bought: its id and line. */
async function labelledOrder(productId: number, quantity: number) {
  const { id } = await payForOrder(r.shop, { items: [{ id: productId, quantity }] })
  await r.shop.runDueJobs()
  const detail = await json<{ status: string; lines: { id: number }[] }>(
    await r.asStaff('GET', `/api/orders/${id}`),
    200,
  )
  expect(detail.status).toBe('label_created')
  const line = detail.lines[0]
  if (!line) throw new Error('no line')
  return { id, lineId: line.id }
}

const refund = async (orderId: number, body: unknown) =>
  json(await r.asStaff('POST', `/api/orders/${orderId}/refunds`, body), 201)

describe('units paid orders still have to ship', () => {
  test('counted or not: paid orders hold their units until they ship or are cancelled', async () => {
    expect(await toShip(DUO)).toBe(0)
    // Not counted: staff who start counting it need the figure most.
    const first = await payForOrder(r.shop, { items: [{ id: DUO, quantity: 2 }] })
    expect(await toShip(DUO)).toBe(2)
    expect((await products()).find((each) => each.id === DUO)?.stock).toBeNull()
    await r.shop.runDueJobs()
    const second = await labelledOrder(DUO, 1)
    expect(await toShip(DUO)).toBe(3)

    await json(await r.asStaff('POST', `/api/orders/${first.id}/ship`), 200)
    expect(await toShip(DUO)).toBe(1)
    await json(await r.asStaff('POST', `/api/orders/${second.id}/cancel`, {}), 200)
    expect(await toShip(DUO)).toBe(0)
  })

  test('of a line, the units a cancel would put back: not those refunded back on the shelf or kept off it', async () => {
    // Counted: 10 on the shelf, 4 sold to one order.
    await json(
      await r.asStaff('PATCH', `/api/products/${OIL}/stock`, { variants: { 'Hammered Citrus': 10 } }),
      200,
    )
    const { id, lineId } = await labelledOrder(OIL, 4)
    expect(await onHand(r.shop, OIL, 'Hammered Citrus')).toBe(6)
    expect(await toShip(OIL, 'Hammered Citrus')).toBe(4)
    expect(await toShip(OIL, 'Cedar Shop')).toBe(0)

    // One unit refunded and put back: on the figure again, so no longer left out of a count.
    await refund(id, { lines: [{ lineId, quantity: 1 }], restock: true })
    expect(await onHand(r.shop, OIL, 'Hammered Citrus')).toBe(7)
    expect(await toShip(OIL, 'Hammered Citrus')).toBe(3)
    // One refunded without restock: a broken jar, off the shelf.
    await refund(id, { lines: [{ lineId, quantity: 1 }], restock: false })
    expect(await toShip(OIL, 'Hammered Citrus')).toBe(2)
    // What is left refunded by amount: the order ships nothing more, but its 2 units are still off the
    // figure and on the shelf, until a cancel puts them back.
    const left = await json<{ refundable: number }>(await r.asStaff('GET', `/api/orders/${id}`), 200)
    await refund(id, { amount: left.refundable.toFixed(2), restock: false })
    expect(await toShip(OIL, 'Hammered Citrus')).toBe(2)

    // The answer to a save carries it too: staff read it beside the figure they just set.
    const saved = await json<StockResponse>(
      await r.asStaff('PATCH', `/api/products/${OIL}/stock`, { variants: { 'Hammered Citrus': 9 } }),
      200,
    )
    expect(saved.product.variants.find((variant) => variant.name === 'Hammered Citrus')?.toShip).toBe(2)

    await json(await r.asStaff('POST', `/api/orders/${id}/cancel`, {}), 200)
    expect(await onHand(r.shop, OIL, 'Hammered Citrus')).toBe(11)
    expect(await toShip(OIL, 'Hammered Citrus')).toBe(0)
  })

  test('an order that shipped and was then refunded holds nothing', async () => {
    const { id } = await labelledOrder(DUO, 2)
    await json(await r.asStaff('POST', `/api/orders/${id}/ship`), 200)
    const detail = await json<{ refundable: number }>(await r.asStaff('GET', `/api/orders/${id}`), 200)
    await refund(id, { amount: detail.refundable.toFixed(2), restock: false })
    const order = await json<{ status: string }>(await r.asStaff('GET', `/api/orders/${id}`), 200)
    expect(order.status).toBe('refunded')
    expect(await toShip(DUO)).toBe(0)
  })

  test('the orders are found through the status index: shipped and cancelled orders are not read', async () => {
    const plan = await planOfSent(r.shop, 'select ol.product_id', () => products())
    expect(plan.some((step) => /SEARCH o USING (COVERING )?INDEX orders_status_idx/.test(step))).toBe(true)
    // Whether an order ever shipped: its shipped move alone, not its whole history.
    expect(plan.some((step) => /SEARCH h USING (COVERING )?INDEX order_history_shipped_idx/.test(step))).toBe(
      true,
    )
    // The lines read from their index alone, not from the table's rows scattered over every order ever sold.
    expect(plan.some((step) => /SEARCH ol USING COVERING INDEX order_lines_to_ship_idx/.test(step))).toBe(
      true,
    )
    expect(plan.some((step) => /^SCAN (o|ol|h)\b/.test(step))).toBe(false)
  })
})
