// What a refund that fails later leaves (docs/product.md#refunds). An order refunded in full before its
// label was bought: the money is the shop's again and the order reopens, so it needs its label again; a
// label bought while staff refund the whole order is voided, not left paid for and unrecorded. And a line
// refunded in parts, one of which failed, still comes to exactly what it paid.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { RefundResponse } from '@core/contracts/dashboard'
import { unitsRefundCents } from '@core/rules/refunds'
import { eq, sql } from 'drizzle-orm'
import { orderHistory } from '../../../db/schema/orders'
import { orderRow, payForOrder } from '../support/orders'
import { createRefundShop, json, type RefundShop, refundRows } from './helpers'

setDefaultTimeout(60_000)

let r: RefundShop

beforeAll(async () => {
  r = await createRefundShop()
})
afterAll(() => {
  r.events.held = true
  r.shop.close()
})

const HOUR = 60 * 60 * 1000

/** The job runner's passes over a few hours: the reopened order's label job waits a job lease. */
async function runJobsFor(hours: number) {
  for (let i = 0; i < hours; i++) {
    r.shop.clock.advance(HOUR)
    await r.shop.runDueJobs()
  }
}

/** The provider fails one of the order's refunds (its first by default; the card was closed), and says so. */
async function failRefund(orderId: number, refundId?: string) {
  const rows = await refundRows(r.shop, orderId)
  const row = refundId === undefined ? rows[0] : rows.find((each) => each.id === refundId)
  await r.demo.failRefund(row?.providerRefundId ?? '', 'expired_or_canceled_card')
  await r.events.deliver()
}

async function refundAll(orderId: number) {
  const order = await orderRow(r.shop, orderId)
  const all = { amount: ((order?.totalCents ?? 0) / 100).toFixed(2), restock: false }
  await json(await r.asStaff('POST', `/api/orders/${orderId}/refunds`, all), 201)
}

describe('a refund in full that fails', () => {
  test('an order refunded before its label, reopened by the failure, gets its label once', async () => {
    const { id } = await payForOrder(r.shop)
    await refundAll(id)
    await r.events.deliver()
    expect((await orderRow(r.shop, id))?.status).toBe('refunded')
    // The label job runs while the order is refunded: it buys nothing, and is done.
    await r.shop.runDueJobs()
    expect((await orderRow(r.shop, id))?.shippoTrackingNumber).toBeNull()
    await failRefund(id)
    expect((await orderRow(r.shop, id))?.status).toBe('pending')
    await runJobsFor(3)
    const after = await orderRow(r.shop, id)
    expect(after?.status).toBe('label_created')
    expect(after?.shippoTrackingNumber).not.toBeNull()
    // The refund failing again later reopens nothing twice: one label job, one label.
    await runJobsFor(2)
    expect((await orderRow(r.shop, id))?.shippoTrackingNumber).toBe(after?.shippoTrackingNumber ?? '')
  })

  test('a reopened order whose first label job is still queued is not given a second one', async () => {
    const { id } = await payForOrder(r.shop)
    await refundAll(id)
    await r.events.deliver()
    await failRefund(id)
    expect((await orderRow(r.shop, id))?.status).toBe('pending')
    const queued = await r.shop.deps.db.all<{ n: number }>(
      sql`select count(*) as n from jobs where type = 'purchase-label' and status = 'queued'
        and json_extract(payload, '$.orderId') = ${id}`,
    )
    expect(queued[0]?.n).toBe(1)
    await runJobsFor(2)
    expect((await orderRow(r.shop, id))?.status).toBe('label_created')
  })

  test('with the shortest job lease, a label job still at the carrier and the reopened order buy one label', async () => {
    // A running job renews its lease, so a lease of 5 s says nothing of how long a carrier call may take.
    const short = await createRefundShop({ JOB_LEASE_SECONDS: '5' })
    try {
      const { id } = await payForOrder(short.shop)
      const boughtBefore = short.carrier.state.bought.length
      const buy = short.carrier.provider.buyLabel
      short.carrier.provider.buyLabel = async (request) => {
        short.carrier.provider.buyLabel = buy
        // While the carrier takes its time: staff refund everything, the refund fails (a closed card), the
        // order reopens, and another worker's pass comes after more than a lease.
        const order = await orderRow(short.shop, id)
        const all = { amount: ((order?.totalCents ?? 0) / 100).toFixed(2), restock: false }
        await json(await short.asStaff('POST', `/api/orders/${id}/refunds`, all), 201)
        await short.events.deliver()
        const [refund] = await refundRows(short.shop, id)
        await short.demo.failRefund(refund?.providerRefundId ?? '', 'expired_or_canceled_card')
        await short.events.deliver()
        expect((await orderRow(short.shop, id))?.status).toBe('processing')
        short.shop.clock.advance(6_000)
        await short.shop.runDueJobs()
        return buy(request)
      }
      await short.shop.runDueJobs()
      expect(short.carrier.state.bought.length - boughtBefore).toBe(1)
    } finally {
      short.events.held = true
      short.shop.close()
    }
  })

  test('a label bought while staff refund the whole order is voided; reopened, the order buys its own', async () => {
    const { id } = await payForOrder(r.shop)
    const voidsBefore = r.voids.length
    const buy = r.carrier.provider.buyLabel
    let bought = ''
    r.carrier.provider.buyLabel = async (request) => {
      r.carrier.provider.buyLabel = buy
      // Staff refund the whole amount while the carrier is selling the label.
      await refundAll(id)
      const label = await buy(request)
      bought = label.trackingNumber
      return label
    }
    await r.shop.runDueJobs()
    await r.events.deliver()
    const refunded = await orderRow(r.shop, id)
    expect(refunded?.status).toBe('refunded')
    expect(r.voids.slice(voidsBefore).map((label) => label.trackingNumber)).toEqual([bought])
    // Voided in the history, not as the order's own label (it may get one yet).
    expect(refunded?.labelVoidStatus).toBeNull()
    const notes = await r.shop.deps.db.select().from(orderHistory).where(eq(orderHistory.orderId, id))
    expect(notes.map((note) => note.reason)).toContainEqual(expect.stringContaining(`Label ${bought} voided`))

    await failRefund(id)
    expect((await orderRow(r.shop, id))?.status).toBe('processing')
    await runJobsFor(3)
    const after = await orderRow(r.shop, id)
    expect(after?.status).toBe('label_created')
    expect(after?.shippoTrackingNumber).not.toBeNull()
    expect(after?.shippoTrackingNumber).not.toBe(bought)
  })
})

describe('a line refunded in parts, one of which failed', () => {
  test('its refunds still come to exactly what it paid, and the staff page names the same amount', async () => {
    // 3 × Workforce Repair ($13.00) with SAVE5: the line paid $34.00, its units worth 11.33, 11.34 and 11.33.
    const { id } = await payForOrder(r.shop, { items: [{ id: 4, quantity: 3 }], discountCode: 'SAVE5' })
    const detail = async () =>
      json<{ lines: { id: number; paid: number; refundedQuantity: number; refunded: number }[] }>(
        await r.asStaff('GET', `/api/orders/${id}`),
        200,
      )
    const line = (await detail()).lines[0]
    if (!line) throw new Error('the order has no line')
    expect(line.paid).toBe(34)
    const units = (quantity: number) => ({ lines: [{ lineId: line.id, quantity }], restock: false })
    const first = await json<RefundResponse>(
      await r.asStaff('POST', `/api/orders/${id}/refunds`, units(1)),
      201,
    )
    const second = await json<RefundResponse>(
      await r.asStaff('POST', `/api/orders/${id}/refunds`, units(1)),
      201,
    )
    expect([first.refund.amount, second.refund.amount]).toEqual([11.33, 11.34])
    await r.events.deliver()
    // The first fails later; the second stands.
    await failRefund(id, first.refund.id)
    const after = (await detail()).lines[0]
    expect(after).toMatchObject({ refundedQuantity: 1, refunded: 11.34 })
    // What the staff page's form shows for the last two units, from the same answer, is what is refunded.
    const shown = unitsRefundCents(
      3400,
      3,
      after?.refundedQuantity ?? 0,
      2,
      Math.round((after?.refunded ?? 0) * 100),
    )
    const last = await json<RefundResponse>(
      await r.asStaff('POST', `/api/orders/${id}/refunds`, units(2)),
      201,
    )
    expect(last.refund.amount).toBe(shown / 100)
    await r.events.deliver()
    const standing = (await refundRows(r.shop, id)).filter((row) => row.status === 'succeeded')
    expect(standing.reduce((sum, row) => sum + row.amountCents, 0)).toBe(3400)
  })
})
