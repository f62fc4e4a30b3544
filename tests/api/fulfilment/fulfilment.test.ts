// The fulfilment service on its own: one transaction per paid session, composed of the orders', checkout's,
// discounts' and jobs' statements and the caller's own outcome; "made now or already there" decided once.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { formatOrderNumber } from '@core/rules/order-status'
import { eq, sql } from 'drizzle-orm'
import type { ProviderSession } from '../../../api/adapters/types'
import type { PlacedOrder } from '../../../api/modules/fulfilment/service'
import { orderNumberSql } from '../../../api/modules/orders/number'
import { checkoutSessions } from '../../../db/schema/checkout'
import { discountRedemptions } from '../../../db/schema/discounts'
import { jobs } from '../../../db/schema/jobs'
import { orderHistory, orders } from '../../../db/schema/orders'
import { createSession, getRates, rateFor } from '../checkout/helpers'
import { createTestApp, type TestApp } from '../support/test-app'

let shop: TestApp

beforeAll(async () => {
  shop = await createTestApp()
  // What a claim holder records about its step: here, a table of the test's own.
  await shop.deps.db.run(
    sql.raw(
      'create table fulfilment_outcomes (event_id text primary key, order_id integer, created integer)',
    ),
  )
})
afterAll(() => shop.close())
beforeEach(() => shop.clock.advance(60_000))

let sessions = 0
/** A checkout session opened through the API; its id and what it charges. */
async function openSession(extra: Record<string, unknown> = {}) {
  sessions += 1
  const items = [{ id: 1, quantity: 2 }]
  const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
  const { sessionId } = await createSession(shop, items, rate, {
    customer_email: `fulfil.${sessions}@example.com`,
    ...extra,
  })
  const record = await shop.services.checkout.record(sessionId)
  if (!record) throw new Error('session not stored')
  return record
}

/** The provider's paid session, as a verified event carries it. */
function paidAtProvider(id: string, amountTotal: number, currency = 'usd'): ProviderSession {
  return {
    id,
    clientSecret: null,
    status: 'complete',
    paymentStatus: 'paid',
    amountTotal,
    paymentRef: null,
    currency,
    customerEmail: null,
    metadata: {},
  }
}

/** The outcome statement a claim holder hands in: writes down the order and whether this event made it. */
const recordInTable = (eventId: string) => (order: PlacedOrder) =>
  shop.deps.db.run(sql`insert into fulfilment_outcomes (event_id, order_id, created)
    values (${eventId}, ${order.orderId}, ${order.created})`)

async function outcome(eventId: string) {
  const rows = await shop.deps.db.all<{ order_id: number; created: number }>(
    sql`select order_id, created from fulfilment_outcomes where event_id = ${eventId}`,
  )
  return rows[0]
}

const rowsFor = async (sessionId: string) => ({
  orders: await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId)),
  jobs: await shop.deps.db
    .select({ type: jobs.type })
    .from(jobs)
    .where(sql`${jobs.dedupeKey} like ${`%:${sessionId}`}`),
  session: (await shop.deps.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId)))[0],
})

describe('the order number', () => {
  test('the SQL that names an order in its transaction writes the number as formatOrderNumber does', async () => {
    for (const id of [0, 7, 42, 999_999, 1_000_000, 123_456_789]) {
      const [row] = await shop.deps.db.all<{ number: string }>(
        sql`select ${orderNumberSql(sql`${id}`)} as number`,
      )
      expect(row?.number).toBe(formatOrderNumber(id))
    }
  })
})

describe('a paid session', () => {
  test("makes its order, lines, history and jobs, completes the session and commits the caller's outcome with them", async () => {
    const record = await openSession()
    const paid = paidAtProvider(record.id, record.totalCents)
    const result = await shop.services.fulfilment.paidSession(
      { eventId: 'evt_fulfil_first', session: paid },
      recordInTable('evt_fulfil_first'),
    )
    const { orders: made, jobs: queued, session } = await rowsFor(record.id)
    expect(made).toHaveLength(1)
    const order = made[0]
    if (!order) throw new Error('no order')
    expect(result).toEqual({ kind: 'ordered', orderId: order.id, created: true })
    expect(order).toMatchObject({ sourceEventId: 'evt_fulfil_first', totalCents: record.totalCents })
    expect(queued.map((job) => job.type).sort()).toEqual(['order-confirmation-email', 'purchase-label'])
    expect(session).toMatchObject({ status: 'complete', orderId: order.id })
    expect(await outcome('evt_fulfil_first')).toEqual({ order_id: order.id, created: 1 })
    const history = await shop.deps.db.select().from(orderHistory).where(eq(orderHistory.orderId, order.id))
    expect(history).toHaveLength(1)
  })

  test('a second event for the session finds the order there: "already existed" in the outcome and the answer alike', async () => {
    const record = await openSession()
    const paid = paidAtProvider(record.id, record.totalCents)
    const first = await shop.services.fulfilment.paidSession(
      { eventId: 'evt_fulfil_a', session: paid },
      recordInTable('evt_fulfil_a'),
    )
    const second = await shop.services.fulfilment.paidSession(
      { eventId: 'evt_fulfil_b', session: paid },
      recordInTable('evt_fulfil_b'),
    )
    if (first.kind !== 'ordered') throw new Error('no order')
    expect(second).toEqual({ kind: 'ordered', orderId: first.orderId, created: false })
    expect(await outcome('evt_fulfil_b')).toEqual({ order_id: first.orderId, created: 0 })
    const { orders: made, jobs: queued } = await rowsFor(record.id)
    expect(made).toHaveLength(1)
    expect(queued).toHaveLength(2)
    expect(
      await shop.deps.db.select().from(orderHistory).where(eq(orderHistory.orderId, first.orderId)),
    ).toHaveLength(1)
  })

  test("a caller's outcome that fails undoes everything; the next attempt makes it all once", async () => {
    const record = await openSession({ discount_code: 'GRIT15' })
    const paid = paidAtProvider(record.id, record.totalCents)
    const failing = (order: PlacedOrder) =>
      shop.deps.db.run(sql`insert into no_such_table (order_id) values (${order.orderId})`)
    await expect(
      shop.services.fulfilment.paidSession({ eventId: 'evt_fulfil_undone', session: paid }, failing),
    ).rejects.toThrow()
    const before = await rowsFor(record.id)
    expect(before.orders).toEqual([])
    expect(before.jobs).toEqual([])
    expect(before.session).toMatchObject({ status: 'open', orderId: null })
    const reservation = eq(discountRedemptions.reservationKey, record.discountReservationKey ?? '')
    const uses = () => shop.deps.db.select().from(discountRedemptions).where(reservation)
    expect(await uses()).toEqual([expect.objectContaining({ status: 'reserved', orderRef: null })])

    const again = await shop.services.fulfilment.paidSession(
      { eventId: 'evt_fulfil_undone', session: paid },
      recordInTable('evt_fulfil_undone'),
    )
    if (again.kind !== 'ordered') throw new Error('no order')
    expect(again.created).toBe(true)
    expect(await uses()).toEqual([
      expect.objectContaining({ status: 'redeemed', orderRef: formatOrderNumber(again.orderId) }),
    ])
    expect((await rowsFor(record.id)).orders).toHaveLength(1)
  })

  test('a charge other than the one asked for, or an unknown session, makes nothing', async () => {
    const record = await openSession()
    const fulfil = (session: ProviderSession, eventId: string) =>
      shop.services.fulfilment.paidSession({ eventId, session }, recordInTable(eventId))
    expect(await fulfil(paidAtProvider(record.id, record.totalCents + 1), 'evt_more')).toEqual({
      kind: 'not-as-asked',
      reason: 'amount does not match the checkout session',
    })
    expect(await fulfil(paidAtProvider(record.id, record.totalCents, 'eur'), 'evt_euros')).toEqual({
      kind: 'not-as-asked',
      reason: 'currency does not match the checkout session',
    })
    expect(
      await fulfil({ ...paidAtProvider(record.id, record.totalCents), currency: null }, 'evt_no_currency'),
    ).toEqual({ kind: 'not-as-asked', reason: 'currency missing' })
    expect(
      await fulfil({ ...paidAtProvider(record.id, record.totalCents), amountTotal: null }, 'evt_no_amount'),
    ).toEqual({ kind: 'not-as-asked', reason: 'amount missing' })
    expect(await fulfil(paidAtProvider('cs_test_nobody', 100), 'evt_nobody')).toEqual({
      kind: 'unknown-session',
    })
    expect((await rowsFor(record.id)).orders).toEqual([])
    // Nothing was committed, so no outcome either: the webhook service records these on its own.
    for (const eventId of ['evt_more', 'evt_euros', 'evt_no_currency', 'evt_no_amount', 'evt_nobody']) {
      expect(await outcome(eventId)).toBeUndefined()
    }
  })
})

describe('an unpaid session', () => {
  const reservationStatus = async (key: string | null) =>
    (
      await shop.deps.db
        .select({ status: discountRedemptions.status })
        .from(discountRedemptions)
        .where(eq(discountRedemptions.reservationKey, key ?? ''))
    )[0]?.status

  test('that expires, or whose payment fails, ends and gives its discount use back', async () => {
    for (const end of ['expired', 'payment_failed'] as const) {
      const record = await openSession({ discount_code: 'GRIT15' })
      expect(await reservationStatus(record.discountReservationKey)).toBe('reserved')
      await shop.services.fulfilment.sessionEnded(record.id, end)
      expect((await rowsFor(record.id)).session?.status).toBe(end)
      expect(await reservationStatus(record.discountReservationKey)).toBe('released')
    }
  })

  test('a paid one stays complete and keeps its redeemed use when an expiry arrives late', async () => {
    const record = await openSession({ discount_code: 'GRIT15' })
    await shop.services.fulfilment.paidSession(
      { eventId: 'evt_fulfil_late', session: paidAtProvider(record.id, record.totalCents) },
      recordInTable('evt_fulfil_late'),
    )
    await shop.services.fulfilment.sessionEnded(record.id, 'expired')
    expect((await rowsFor(record.id)).session?.status).toBe('complete')
    expect(await reservationStatus(record.discountReservationKey)).toBe('redeemed')
  })

  test('a delayed payment method leaves the session waiting for the money', async () => {
    const record = await openSession()
    await shop.services.fulfilment.paymentPending(record.id)
    expect((await rowsFor(record.id)).session?.status).toBe('payment_pending')
  })
})
