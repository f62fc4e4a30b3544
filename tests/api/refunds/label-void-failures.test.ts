// A cancelled order's label void that the carrier does not accept: retried with its job, and, given up,
// said on the order (history, 'error', the label call's answer) so staff void it at the carrier and the
// postage is not lost without a word. A label bought while a colleague cancels is voided even when the
// carrier's first answer to that void is lost (docs/product.md#refunds, decision 027).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { ShippingProviderError } from '../../../api/adapters/types'
import { orderRow, paidOrder } from '../support/orders'
import { createRefundShop, type RefundShop } from './helpers'

setDefaultTimeout(60_000)
let s: RefundShop
/** How many of the next voids the carrier answers with a timeout; Infinity: all of them. */
let voidTimeouts = 0
/** Cancelled (as a colleague would) while its label is being bought. */
let cancelDuringPurchase: number | null = null

beforeAll(async () => {
  s = await createRefundShop()
  const voidLabel = s.carrier.provider.voidLabel
  s.carrier.provider.voidLabel = async (label) => {
    if (voidTimeouts > 0) {
      voidTimeouts--
      throw new ShippingProviderError('carrier timed out')
    }
    return voidLabel(label)
  }
  const buyLabel = s.carrier.provider.buyLabel
  s.carrier.provider.buyLabel = async (request) => {
    if (cancelDuringPurchase !== null) {
      const id = cancelDuringPurchase
      cancelDuringPurchase = null
      expect((await s.asStaff('POST', `/api/orders/${id}/cancel`, { reason: 'customer asked' })).status).toBe(
        200,
      )
      // The cancel's void job runs meanwhile: nothing is sold under the order's reference yet.
      await s.shop.runDueJobs()
      voidTimeouts = 1
    }
    return buyLabel(request)
  }
})
afterAll(() => s.shop.close())

/** Every attempt a job has, two hours apart: longer than any job's backoff. */
async function runJobsForADay() {
  for (let i = 0; i < 12; i++) {
    await s.shop.runDueJobs()
    s.shop.clock.advance(2 * 60 * 60 * 1000)
  }
}

async function orderAsStaffSees(id: number) {
  return (await (await s.asStaff('GET', `/api/orders/${id}`)).json()) as {
    labelVoidStatus: string | null
    history: { reason: string }[]
  }
}

test('a void the carrier never accepts is given up on the order, and the label call says to void it there', async () => {
  const id = await paidOrder(s.shop)
  await s.shop.runDueJobs()
  expect((await orderRow(s.shop, id))?.status).toBe('label_created')
  voidTimeouts = Number.POSITIVE_INFINITY
  try {
    expect((await s.asStaff('POST', `/api/orders/${id}/cancel`, { reason: 'customer asked' })).status).toBe(
      200,
    )
    // While the void is retried, the label is said to be on its way out, not voided.
    await s.shop.runDueJobs()
    const during = await s.asStaff('GET', `/api/orders/${id}/label`)
    expect(await during.json()).toEqual({
      error: `Order ${String(id).padStart(6, '0')} is cancelled: its label is being voided at the carrier. Do not ship it.`,
    })
    await runJobsForADay()
  } finally {
    voidTimeouts = 0
  }
  const [job] = await s.shop.deps.db.all<{ status: string; attempts: number }>(
    sql`select status, attempts from jobs where type = 'void-label' and json_extract(payload, '$.orderId') = ${id}`,
  )
  expect(job).toMatchObject({ status: 'failed', attempts: 8 })
  const row = await orderRow(s.shop, id)
  expect(await s.carrier.provider.findLabel(row?.labelReference ?? '')).not.toBeNull()
  const order = await orderAsStaffSees(id)
  expect(order.labelVoidStatus).toBe('error')
  expect(order.history.at(-1)?.reason).toBe(
    `Could not void label ${row?.shippoTrackingNumber} at the carrier (carrier timed out): void it there to get the postage back`,
  )
  const label = await s.asStaff('GET', `/api/orders/${id}/label`)
  expect(label.status).toBe(409)
  expect(await label.json()).toEqual({
    error: `Order ${String(id).padStart(6, '0')} is cancelled, but its label could not be voided at the carrier: void it there to get the postage back. Do not ship it.`,
  })
})

test("a label bought while a colleague cancels is voided, though the carrier's first answer to its void is lost", async () => {
  s.carrier.state.failing = true
  const id = await paidOrder(s.shop)
  for (let i = 0; i < 8 && (await orderRow(s.shop, id))?.status !== 'failed'; i++) {
    await s.shop.runDueJobs()
    s.shop.clock.advance(2 * 60 * 60 * 1000)
  }
  s.carrier.state.failing = false
  expect((await orderRow(s.shop, id))?.status).toBe('failed')
  // Staff A presses Retry; staff B cancels while the label is being bought.
  cancelDuringPurchase = id
  expect((await s.asStaff('POST', `/api/orders/${id}/retry`)).status).toBe(200)
  await runJobsForADay()
  const row = await orderRow(s.shop, id)
  expect(row?.status).toBe('cancelled')
  expect(await s.carrier.provider.findLabel(row?.labelReference ?? '')).toBeNull()
  const order = await orderAsStaffSees(id)
  expect(order.labelVoidStatus).toBe('success')
  expect(order.history.filter((line) => /voided at the carrier/.test(line.reason))).toHaveLength(1)
})
