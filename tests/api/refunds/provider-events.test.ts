// Refunds made in the payment provider's dashboard arrive as signed events through the webhook's event
// store: each changes the order once, delivered twice or out of order; a failed refund becomes refundable
// again and shows on the dashboard.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { RefundResponse, UnsettledRefund } from '@core/contracts/dashboard'
import { sql } from 'drizzle-orm'
import { PaymentProviderError } from '../../../api/adapters/types'
import { onHand } from '../stock/helpers'
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

/** The stored payload of every event the demo provider queued for this session's refunds, oldest first. */
async function refundEvents() {
  return r.shop.deps.db.all<{ id: string; type: string; payload: string }>(
    sql`select id, type, payload from demo_payment_events where type like '%refund%' order by created_at, rowid`,
  )
}

/** Posts a stored event to the webhook again, signed as the provider signs it. */
async function redeliver(payload: string): Promise<number> {
  const stripe = await import('stripe')
  const { DEMO_WEBHOOK_SECRET } = await import('../../../api/adapters/demo-payments')
  const signature = await new stripe.default('sk_test_x').webhooks.generateTestHeaderStringAsync({
    payload,
    secret: DEMO_WEBHOOK_SECRET,
    timestamp: Math.floor(r.shop.clock.now().getTime() / 1000),
  })
  const res = await r.shop.app.handle(
    new Request('http://localhost:4321/api/stripe/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    }),
  )
  return res.status
}

const historyOf = async (id: number) =>
  (await json<{ history: { reason: string }[] }>(await r.asStaff('GET', `/api/orders/${id}`), 200)).history

describe("refunds made in the provider's dashboard", () => {
  test('delivered twice and out of order: recorded once, one history line, one e-mail', async () => {
    const { id, sessionId } = await payForOrder(r.shop)
    const order = await orderRow(r.shop, id)
    if (!order?.paymentRef) throw new Error('the order keeps no payment reference')
    const before = (await refundEvents()).length
    r.events.held = true
    await r.demo.refund({
      paymentRef: order.paymentRef,
      amountCents: 500,
      reason: null,
      idempotencyKey: `dashboard-${sessionId}`,
      metadata: {},
    })
    const events = (await refundEvents()).slice(before)
    expect(events.map((event) => event.type).sort()).toEqual(['charge.refunded', 'refund.created'])
    // Out of order (the charge's news before the refund's), then each again.
    for (const event of [...events].reverse()) expect(await redeliver(event.payload)).toBe(200)
    for (const event of events) expect(await redeliver(event.payload)).toBe(200)
    r.events.held = false
    await r.events.deliver()
    const rows = await refundRows(r.shop, id)
    expect(rows.map((row) => [row.origin, row.status, row.amountCents])).toEqual([
      ['provider', 'succeeded', 500],
    ])
    const lines = (await historyOf(id)).filter((entry) => entry.reason.includes("provider's dashboard"))
    expect(lines).toHaveLength(1)
    await r.shop.runDueJobs()
    expect(
      r.mailer.sent.filter((mail) =>
        mail.subject.includes(`refund for order ${String(id).padStart(6, '0')}`),
      ),
    ).toHaveLength(1)
    expect((await orderRow(r.shop, id))?.status).not.toBe('refunded')
  })

  test('a refund of everything in the dashboard makes the order refunded', async () => {
    const { id, sessionId } = await payForOrder(r.shop)
    const order = await orderRow(r.shop, id)
    if (!order?.paymentRef) throw new Error('the order keeps no payment reference')
    await r.demo.refund({
      paymentRef: order.paymentRef,
      amountCents: order.totalCents,
      reason: null,
      idempotencyKey: `dashboard-all-${sessionId}`,
      metadata: {},
    })
    await r.events.deliver()
    expect((await orderRow(r.shop, id))?.status).toBe('refunded')
    const again = await r.asStaff('POST', `/api/orders/${id}/refunds`, { amount: '0.01', restock: false })
    expect(again.status).toBe(409)
  })
})

describe('charge.refunded without its refunds listed (current Stripe API versions)', () => {
  /** The jobs that ask the provider for a payment's refunds, by status. */
  const listingJobs = () =>
    r.shop.deps.db.all<{ status: string }>(sql`select status from jobs where type = 'list-refunds'`)

  test('a shop hearing only charge.refunded still records a dashboard refund, once, asking the provider when it can', async () => {
    const { id, sessionId } = await payForOrder(r.shop)
    const order = await orderRow(r.shop, id)
    if (!order?.paymentRef) throw new Error('the order keeps no payment reference')
    const jobsBefore = (await listingJobs()).length
    const before = (await refundEvents()).length
    r.events.held = true
    try {
      await r.demo.refund({
        paymentRef: order.paymentRef,
        amountCents: 700,
        reason: null,
        idempotencyKey: `dashboard-unlisted-${sessionId}`,
        metadata: {},
      })
      const charged = (await refundEvents()).slice(before).find((event) => event.type === 'charge.refunded')
      if (!charged) throw new Error('no charge.refunded event')
      expect(JSON.parse(charged.payload).data.object.refunds).toBeUndefined()

      // The provider cannot be asked at first: the event is answered, the job waits and tries again.
      const listRefunds = r.demo.listRefunds
      let refusals = 1
      r.demo.listRefunds = async (paymentRef) => {
        if (refusals-- > 0) throw new PaymentProviderError('Stripe could not list refunds: connection reset')
        return listRefunds(paymentRef)
      }
      try {
        expect(await redeliver(charged.payload)).toBe(200)
        expect(await refundRows(r.shop, id)).toEqual([])
        await r.shop.runDueJobs()
        expect(await refundRows(r.shop, id)).toEqual([])
        r.shop.clock.advance(10 * 60_000)
        await r.shop.runDueJobs()
      } finally {
        r.demo.listRefunds = listRefunds
      }
      const rows = await refundRows(r.shop, id)
      expect(rows.map((row) => [row.origin, row.status, row.amountCents])).toEqual([
        ['provider', 'succeeded', 700],
      ])

      // Delivered again, and the refund's own event after it: nothing new, and no second listing.
      expect(await redeliver(charged.payload)).toBe(200)
      r.events.held = false
      await r.events.deliver()
      await r.shop.runDueJobs()
      expect((await refundRows(r.shop, id)).length).toBe(1)
      expect((await listingJobs()).slice(jobsBefore).map((job) => job.status)).toEqual(['done'])
      const lines = (await historyOf(id)).filter((entry) => entry.reason.includes("provider's dashboard"))
      expect(lines).toHaveLength(1)
    } finally {
      r.events.held = false
    }
  })
})

describe('a refund the provider fails', () => {
  test('failed once however often its events come: refundable again, listed for staff, order reopened', async () => {
    const { id } = await payForOrder(r.shop)
    const order = await orderRow(r.shop, id)
    if (!order) throw new Error('no order')
    const made = await json<RefundResponse>(
      await r.asStaff('POST', `/api/orders/${id}/refunds`, {
        amount: (order.totalCents / 100).toFixed(2),
        restock: false,
      }),
      201,
    )
    await r.events.deliver()
    expect((await orderRow(r.shop, id))?.status).toBe('refunded')
    const [row] = await refundRows(r.shop, id)
    if (!row?.providerRefundId) throw new Error('no provider id')
    const before = (await refundEvents()).length
    await r.demo.failRefund(row.providerRefundId, 'expired_or_canceled_card')
    await r.events.deliver()
    for (const event of (await refundEvents()).slice(before)) expect(await redeliver(event.payload)).toBe(200)
    const [failed] = await refundRows(r.shop, id)
    expect(failed).toMatchObject({ id: made.refund.id, status: 'failed' })
    expect((await orderRow(r.shop, id))?.status).toBe(order.status)
    const failures = (await historyOf(id)).filter((entry) =>
      entry.reason.includes('failed at the payment provider'),
    )
    expect(failures).toHaveLength(1)
    const listed = await json<UnsettledRefund[]>(await r.asStaff('GET', '/api/dashboard/failed-refunds'), 200)
    expect(listed.find((entry) => entry.refund.id === made.refund.id)).toMatchObject({
      refundable: order.totalCents / 100,
      refund: { status: 'failed' },
    })
    // Staff refund again: the amount is refundable, and the failed refund leaves the list.
    await json(
      await r.asStaff('POST', `/api/orders/${id}/refunds`, {
        amount: (order.totalCents / 100).toFixed(2),
        restock: false,
      }),
      201,
    )
    const after = await json<UnsettledRefund[]>(await r.asStaff('GET', '/api/dashboard/failed-refunds'), 200)
    expect(after.some((entry) => entry.refund.id === made.refund.id)).toBe(false)
  })
})

describe('units of a refund the provider fails after it succeeded', () => {
  const REPAIR = 4 // Workforce Repair Original Grit: no scents

  /** A paid order of 2 repair balms off a shelf of 10, refunded by lines with restock: the shelf back to 10. */
  async function refundedWithRestock(options: { shipped: boolean; counted?: boolean }) {
    const counted = options.counted ?? true
    await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: counted ? 10 : null }), 200)
    const { id } = await payForOrder(r.shop, { items: [{ id: REPAIR, quantity: 2 }] })
    expect(await onHand(r.shop, REPAIR, '')).toBe(counted ? 8 : null)
    if (options.shipped) {
      await r.shop.runDueJobs()
      await json(await r.asStaff('POST', `/api/orders/${id}/ship`), 200)
    }
    const detail = await json<{ lines: { id: number }[] }>(await r.asStaff('GET', `/api/orders/${id}`), 200)
    const lineId = detail.lines[0]?.id ?? 0
    const byLines = { lines: [{ lineId, quantity: 2 }], restock: true, reason: 'Returned unopened' }
    await json<RefundResponse>(await r.asStaff('POST', `/api/orders/${id}/refunds`, byLines), 201)
    await r.events.deliver()
    expect(await onHand(r.shop, REPAIR, '')).toBe(counted ? 10 : null)
    // The card was closed: the provider fails the refund it had made.
    const [made] = await refundRows(r.shop, id)
    await r.demo.failRefund(made?.providerRefundId ?? '', 'expired_or_canceled_card')
    await r.events.deliver()
    expect((await refundRows(r.shop, id))[0]?.status).toBe('failed')
    return { id, byLines }
  }

  test('of an order not shipped come off the shelf again; refunding them again, and then a cancel, put them back once', async () => {
    const { id, byLines } = await refundedWithRestock({ shipped: false })
    // The order has them to ship again: not free for others.
    expect(await onHand(r.shop, REPAIR, '')).toBe(8)
    expect((await historyOf(id)).map((entry) => entry.reason)).toContain(
      'The units this refund had put back on the shelf were taken off again: the order still has them to ship',
    )
    // The failure's events again change nothing more.
    for (const event of await refundEvents()) expect(await redeliver(event.payload)).toBe(200)
    expect(await onHand(r.shop, REPAIR, '')).toBe(8)

    // Staff refund the same units again, for the money: back on the shelf, once.
    await json<RefundResponse>(await r.asStaff('POST', `/api/orders/${id}/refunds`, byLines), 201)
    await r.events.deliver()
    expect(await onHand(r.shop, REPAIR, '')).toBe(10)
    // Nor does a cancel of the order, which puts back every unit not back yet, count them twice.
    await json(await r.asStaff('POST', `/api/orders/${id}/cancel`, {}), 200)
    expect(await onHand(r.shop, REPAIR, '')).toBe(10)
    await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: null }), 200)
  })

  test('of a shipped order stay on the shelf (the customer sent them back), and are not put back twice', async () => {
    const { id, byLines } = await refundedWithRestock({ shipped: true })
    expect(await onHand(r.shop, REPAIR, '')).toBe(10)
    await json<RefundResponse>(await r.asStaff('POST', `/api/orders/${id}/refunds`, byLines), 201)
    await r.events.deliver()
    expect(await onHand(r.shop, REPAIR, '')).toBe(10)
    await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: null }), 200)
  })

  test("of a shipped order, one unit of a line: refunded again it is not put back twice; the line's other unit, returned, is", async () => {
    await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: 10 }), 200)
    const { id } = await payForOrder(r.shop, { items: [{ id: REPAIR, quantity: 2 }] })
    await r.shop.runDueJobs()
    await json(await r.asStaff('POST', `/api/orders/${id}/ship`), 200)
    const detail = await json<{ lines: { id: number }[] }>(await r.asStaff('GET', `/api/orders/${id}`), 200)
    const one = { lines: [{ lineId: detail.lines[0]?.id ?? 0, quantity: 1 }], restock: true }
    await json<RefundResponse>(await r.asStaff('POST', `/api/orders/${id}/refunds`, one), 201)
    await r.events.deliver()
    expect(await onHand(r.shop, REPAIR, '')).toBe(9)
    const [made] = await refundRows(r.shop, id)
    await r.demo.failRefund(made?.providerRefundId ?? '', 'expired_or_canceled_card')
    await r.events.deliver()
    // The returned jar stays on the shelf; refunded again for the money, it is the same jar.
    expect(await onHand(r.shop, REPAIR, '')).toBe(9)
    await json<RefundResponse>(await r.asStaff('POST', `/api/orders/${id}/refunds`, one), 201)
    await r.events.deliver()
    expect(await onHand(r.shop, REPAIR, '')).toBe(9)
    // The customer sends the other jar back: it goes on the shelf.
    await json<RefundResponse>(await r.asStaff('POST', `/api/orders/${id}/refunds`, one), 201)
    await r.events.deliver()
    expect(await onHand(r.shop, REPAIR, '')).toBe(10)
    await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: null }), 200)
  })

  test('a broken jar refunded without restock, failed and refunded again, is kept off the shelf once at a cancel', async () => {
    await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: 10 }), 200)
    const { id } = await payForOrder(r.shop, { items: [{ id: REPAIR, quantity: 3 }] })
    expect(await onHand(r.shop, REPAIR, '')).toBe(7)
    const detail = await json<{ lines: { id: number }[] }>(await r.asStaff('GET', `/api/orders/${id}`), 200)
    const broken = { lines: [{ lineId: detail.lines[0]?.id ?? 0, quantity: 1 }], restock: false }
    await json<RefundResponse>(await r.asStaff('POST', `/api/orders/${id}/refunds`, broken), 201)
    await r.events.deliver()
    const [first] = await refundRows(r.shop, id)
    await r.demo.failRefund(first?.providerRefundId ?? '', 'expired_or_canceled_card')
    await r.events.deliver()
    await json<RefundResponse>(await r.asStaff('POST', `/api/orders/${id}/refunds`, broken), 201)
    await r.events.deliver()
    // One jar broke; the two never sent go back: 7 + 2.
    await json(await r.asStaff('POST', `/api/orders/${id}/cancel`, {}), 200)
    expect(await onHand(r.shop, REPAIR, '')).toBe(9)
    await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: null }), 200)
  })

  test('a restocking refund of two counted lines that succeeds says nothing was taken off again', async () => {
    await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: 10 }), 200)
    await json(await r.asStaff('PATCH', '/api/products/3/stock', { variants: { Alpine: 10 } }), 200)
    const { id } = await payForOrder(r.shop, {
      items: [
        { id: REPAIR, quantity: 2 },
        { id: 3, quantity: 1 }, // sold as its first scent, Alpine
      ],
    })
    const detail = await json<{ lines: { id: number }[] }>(await r.asStaff('GET', `/api/orders/${id}`), 200)
    const both = { lines: detail.lines.map((line) => ({ lineId: line.id, quantity: 1 })), restock: true }
    await json<RefundResponse>(await r.asStaff('POST', `/api/orders/${id}/refunds`, both), 201)
    await r.events.deliver()
    expect((await refundRows(r.shop, id))[0]?.status).toBe('succeeded')
    expect([await onHand(r.shop, REPAIR, ''), await onHand(r.shop, 3, 'Alpine')]).toEqual([9, 10])
    const reasons = (await historyOf(id)).map((entry) => entry.reason)
    expect(reasons.some((reason) => reason.includes('taken off again'))).toBe(false)
    // The history names each line with its scent, as the order's lines do: a product may be on two lines.
    expect(reasons).toContainEqual(
      expect.stringMatching(
        /^Refund of \$[\d.]+ asked: 1 × Workforce Repair Original Grit, 1 × .+ \(Alpine\), back on the shelf$/,
      ),
    )
    await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: null }), 200)
    await json(await r.asStaff('PATCH', '/api/products/3/stock', { variants: { Alpine: null } }), 200)
  })

  test('of a product nobody counts: the history does not say units were taken off', async () => {
    const { id } = await refundedWithRestock({ shipped: false, counted: false })
    const reasons = (await historyOf(id)).map((entry) => entry.reason)
    expect(
      reasons.some((reason) => reason.startsWith('Refund of $26.00 failed at the payment provider')),
    ).toBe(true)
    expect(reasons.some((reason) => reason.includes('taken off again'))).toBe(false)
    expect(await onHand(r.shop, REPAIR, '')).toBe(null)
  })
})
