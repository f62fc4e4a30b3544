// An order refunded in full before it shipped will not ship: its label is taken off the order (not printed,
// not tracked) and voided at the carrier so the postage comes back. A failed refund that reopens the order
// has it buy another. A shipped order, or one refunded in part, keeps its label (docs/product.md#refunds,
// decision 027).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { UserOrderDetail } from '@core/contracts/account'
import { eq } from 'drizzle-orm'
import { ShippingProviderError } from '../../../api/adapters/types'
import { orderHistory } from '../../../db/schema/orders'
import { signUp } from '../support/accounts'
import { orderRow, payForOrder } from '../support/orders'
import { createRefundShop, json, type RefundShop, refundRows } from './helpers'

setDefaultTimeout(60_000)

let r: RefundShop
/** While set, the carrier answers every void with a timeout. */
let voidsTimeOut = false

beforeAll(async () => {
  r = await createRefundShop()
  const voidLabel = r.carrier.provider.voidLabel
  r.carrier.provider.voidLabel = async (label) => {
    if (voidsTimeOut) throw new ShippingProviderError('carrier timed out')
    return voidLabel(label)
  }
})
afterAll(() => {
  r.events.held = true
  r.shop.close()
})

const number = (id: number) => String(id).padStart(6, '0')

/** Every attempt a job has, two hours apart: longer than any job's backoff. */
async function runJobsForADay() {
  for (let i = 0; i < 12; i++) {
    await r.shop.runDueJobs()
    r.shop.clock.advance(2 * 60 * 60 * 1000)
  }
}

/** A paid order with its label bought: label_created, and the tracking number of that label. */
async function orderWithLabel(cookie?: string, email?: string) {
  const { id } = await payForOrder(r.shop, { cookie, email })
  await r.shop.runDueJobs()
  const row = await orderRow(r.shop, id)
  expect(row?.status).toBe('label_created')
  return { id, trackingNumber: row?.shippoTrackingNumber ?? '' }
}

async function refund(orderId: number, cents: number) {
  await json(
    await r.asStaff('POST', `/api/orders/${orderId}/refunds`, {
      amount: (cents / 100).toFixed(2),
      restock: false,
    }),
    201,
  )
  await r.events.deliver()
}

async function refundAll(orderId: number) {
  await refund(orderId, (await orderRow(r.shop, orderId))?.totalCents ?? 0)
}

async function historyOf(orderId: number): Promise<string[]> {
  const rows = await r.shop.deps.db.select().from(orderHistory).where(eq(orderHistory.orderId, orderId))
  return rows.map((row) => row.reason ?? '')
}

const voidedNumbers = () => r.voids.map((label) => label.trackingNumber)

describe('an order refunded in full before it shipped', () => {
  test('has its label voided at the carrier, offered to nobody, and Mark Shipped refused', async () => {
    const customer = await signUp(r.shop)
    const { id, trackingNumber } = await orderWithLabel(customer.cookie, customer.email)
    await refundAll(id)
    await r.shop.runDueJobs()

    const row = await orderRow(r.shop, id)
    expect(row?.status).toBe('refunded')
    expect([row?.shippoTrackingNumber, row?.labelUrl, row?.trackingUrl]).toEqual([null, null, null])
    expect(voidedNumbers().filter((voided) => voided === trackingNumber)).toHaveLength(1)
    const history = await historyOf(id)
    expect(history).toContainEqual(expect.stringContaining('Refunded in full before it shipped'))
    expect(history).toContainEqual(expect.stringContaining(`Label ${trackingNumber} voided at the carrier`))

    // Staff: no label in the list or the order, the label call says why, the parcel cannot be marked shipped.
    const rows = await json<{ id: number; labelUrl: string | null }[]>(
      await r.asStaff('GET', `/api/orders?q=${number(id)}`),
      200,
    )
    expect(rows.map((order) => [order.id, order.labelUrl])).toEqual([[id, null]])
    const label = await r.asStaff('GET', `/api/orders/${id}/label`)
    expect(label.status).toBe(409)
    expect(await label.json()).toEqual({
      error: `Order ${number(id)} was refunded in full before it shipped: its label is voided at the carrier. Do not ship it.`,
    })
    expect((await r.asStaff('POST', `/api/orders/${id}/ship`)).status).toBe(409)

    // The customer is shown no tracking number: it belongs to a voided label.
    const asCustomer = (path: string) => r.shop.call('GET', path, undefined, { cookie: customer.cookie })
    const page = await json<UserOrderDetail>(await asCustomer(`/api/user/orders/${number(id)}`), 200)
    expect(page.trackingNumber).toBeNull()
  })

  test('reopened by a failed refund, it goes back to pending and buys another label', async () => {
    const { id, trackingNumber } = await orderWithLabel()
    await refundAll(id)
    await r.shop.runDueJobs()
    const [made] = await refundRows(r.shop, id)
    await r.demo.failRefund(made?.providerRefundId ?? '', 'expired_or_canceled_card')
    await r.events.deliver()
    expect((await orderRow(r.shop, id))?.status).toBe('pending')

    await runJobsForADay()
    const after = await orderRow(r.shop, id)
    expect(after?.status).toBe('label_created')
    expect(after?.shippoTrackingNumber).toBeTruthy()
    expect(after?.shippoTrackingNumber).not.toBe(trackingNumber)
    expect((await r.asStaff('GET', `/api/orders/${id}/label`)).status).toBe(200)
    // The new label is the order's own: only the old one was voided.
    expect(voidedNumbers()).not.toContain(after?.shippoTrackingNumber)
  })

  test('refunded in full, then cancelled: its label is voided once', async () => {
    const { id, trackingNumber } = await orderWithLabel()
    await refundAll(id)
    await r.shop.runDueJobs()
    expect((await r.asStaff('POST', `/api/orders/${id}/cancel`, { reason: 'customer asked' })).status).toBe(
      200,
    )
    await runJobsForADay()
    expect((await orderRow(r.shop, id))?.status).toBe('cancelled')
    expect(voidedNumbers().filter((voided) => voided === trackingNumber)).toHaveLength(1)
  })

  test('a void the carrier never accepts is given up in the history, naming the label', async () => {
    const { id, trackingNumber } = await orderWithLabel()
    voidsTimeOut = true
    try {
      await refundAll(id)
      await runJobsForADay()
    } finally {
      voidsTimeOut = false
    }
    const history = await historyOf(id)
    expect(history).toContainEqual(
      expect.stringContaining(`Could not void label ${trackingNumber} at the carrier (carrier timed out)`),
    )
    expect(history).not.toContainEqual(expect.stringContaining(`Label ${trackingNumber} voided`))
    // Not the order's own void: a later label of this order can still be voided.
    expect((await orderRow(r.shop, id))?.labelVoidStatus).toBeNull()
  })
})

describe('an order that keeps its label', () => {
  test('refunded in part', async () => {
    const { id, trackingNumber } = await orderWithLabel()
    await refund(id, 100)
    await r.shop.runDueJobs()
    const row = await orderRow(r.shop, id)
    expect([row?.status, row?.shippoTrackingNumber]).toEqual(['label_created', trackingNumber])
    expect(voidedNumbers()).not.toContain(trackingNumber)
  })

  test('refunded in full after it shipped', async () => {
    const { id, trackingNumber } = await orderWithLabel()
    expect((await r.asStaff('POST', `/api/orders/${id}/ship`)).status).toBe(200)
    await refundAll(id)
    await r.shop.runDueJobs()
    const row = await orderRow(r.shop, id)
    expect([row?.status, row?.shippoTrackingNumber]).toEqual(['refunded', trackingNumber])
    expect(voidedNumbers()).not.toContain(trackingNumber)
    expect((await r.asStaff('GET', `/api/orders/${id}/label`)).status).toBe(200)
  })
})
