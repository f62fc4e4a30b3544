// The customer sees their order's cancellation and refunds: on its page, in their order list and in
// their data export; staff's reason and failed refunds stay with staff.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import type { UserOrder, UserOrderDetail } from '@core/contracts/account'
import { signUp } from '../support/accounts'
import { orderRow, payForOrder } from '../support/orders'
import { createRefundShop, json, type RefundShop } from './helpers'

setDefaultTimeout(60_000)

let r: RefundShop

beforeAll(async () => {
  r = await createRefundShop()
})
afterAll(() => {
  r.events.held = true
  r.shop.close()
})

test('a cancelled order and a partly refunded one, as their customer sees them', async () => {
  const customer = await signUp(r.shop)
  const two = [
    { id: 1, quantity: 2 },
    { id: 2, quantity: 1 },
  ]
  const cancelled = await payForOrder(r.shop, { cookie: customer.cookie, email: customer.email })
  const refunded = await payForOrder(r.shop, { cookie: customer.cookie, email: customer.email, items: two })
  await r.shop.runDueJobs()
  await json(await r.asStaff('POST', `/api/orders/${cancelled.id}/cancel`, { reason: 'Asked by phone' }), 200)
  // The cancel's void job: the label is voided at the carrier.
  await r.shop.runDueJobs()
  const detail = await json<{ lines: { id: number; paid: number }[] }>(
    await r.asStaff('GET', `/api/orders/${refunded.id}`),
    200,
  )
  const line = detail.lines[0]
  if (!line) throw new Error('no line')
  await json(
    await r.asStaff('POST', `/api/orders/${refunded.id}/refunds`, {
      lines: [{ lineId: line.id, quantity: 1 }],
      restock: true,
      reason: 'Internal note: cracked lid',
    }),
    201,
  )
  const total = (await orderRow(r.shop, cancelled.id))?.totalCents ?? 0
  const number = (id: number) => String(id).padStart(6, '0')
  const asCustomer = (path: string) => r.shop.call('GET', path, undefined, { cookie: customer.cookie })

  // Its label was bought before the cancel, and voided: its number tracks nothing, so neither the customer
  // nor staff are offered it.
  expect((await orderRow(r.shop, cancelled.id))?.shippoTrackingNumber).toBeTruthy()
  const staffRows = await json<{ id: number; labelUrl: string | null }[]>(
    await r.asStaff('GET', `/api/orders?q=${number(cancelled.id)}`),
    200,
  )
  expect(staffRows.map((order) => [order.id, order.labelUrl])).toEqual([[cancelled.id, null]])
  // A screen loaded before the cancel still holds the link: the label is refused all the same.
  const label = await r.asStaff('GET', `/api/orders/${cancelled.id}/label`)
  expect(label.status).toBe(409)
  expect(await label.json()).toEqual({
    error: `Order ${number(cancelled.id)} is cancelled: its label was voided at the carrier. Do not ship it.`,
  })
  expect((await r.asStaff('GET', `/api/orders/${refunded.id}/label`)).status).toBe(200)
  const page = await json<UserOrderDetail>(await asCustomer(`/api/user/orders/${number(cancelled.id)}`), 200)
  expect(page.status).toBe('cancelled')
  expect(page.trackingNumber).toBeNull()
  expect(page.cancelledAt).not.toBeNull()
  expect(page.refunded).toBe(total / 100)
  expect(page.refunds).toEqual([
    { amount: total / 100, status: 'refunded', createdAt: expect.any(String), items: [], cancellation: true },
  ])

  const partly = await json<UserOrderDetail>(await asCustomer(`/api/user/orders/${number(refunded.id)}`), 200)
  expect(partly.status).toBe('label_created')
  expect(partly.cancelledAt).toBeNull()
  expect(partly.refunds).toHaveLength(1)
  expect(partly.refunds[0]).toMatchObject({ amount: line.paid / 2, status: 'refunded', cancellation: false })
  expect(partly.refunds[0]?.items).toHaveLength(1)
  expect(JSON.stringify(partly)).not.toContain('cracked lid')

  const list = await json<UserOrder[]>(await asCustomer('/api/user/orders'), 200)
  expect(list.find((order) => order.number === number(cancelled.id))).toMatchObject({
    status: 'cancelled',
    refunded: total / 100,
    trackingNumber: null,
  })
  // The shipped-to-be order keeps its number.
  expect(list.find((order) => order.number === number(refunded.id))?.trackingNumber).toBeTruthy()
  expect(list.find((order) => order.number === number(refunded.id))).toMatchObject({
    refunded: line.paid / 2,
    cancelledAt: null,
  })

  const exported = await json<{
    orders: {
      number: string
      refunds: unknown[]
      cancelledAt: string | null
      trackingNumber: string | null
    }[]
  }>(await asCustomer('/api/user/export'), 200)
  const exportedCancel = exported.orders.find((order) => order.number === number(cancelled.id))
  expect(exportedCancel?.cancelledAt).not.toBeNull()
  // The export says what the order page says: no tracking number for the voided label.
  expect(exportedCancel?.trackingNumber).toBeNull()
  expect(exported.orders.find((order) => order.number === number(refunded.id))?.trackingNumber).toBeTruthy()
  expect(exportedCancel?.refunds).toHaveLength(1)
  expect(exported.orders.find((order) => order.number === number(refunded.id))?.refunds).toHaveLength(1)
})
