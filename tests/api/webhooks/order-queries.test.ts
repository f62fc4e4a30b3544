import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createSession, getRates, type Items, rateFor } from '../checkout/helpers'
import { createTestApp, type TestApp } from '../support/test-app'

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp()
})
afterAll(() => shop.close())

async function paidOrder(items: Items, email: string): Promise<void> {
  const { sessionId } = await createSession(
    shop,
    items,
    rateFor(await getRates(shop, items), 'USPS Ground Advantage'),
    {
      customer_email: email,
    },
  )
  const res = await shop.call('POST', `/api/demo-payments/${sessionId}/pay`, {
    cardNumber: '4242424242424242',
    expiry: '12/30',
    cvc: '123',
    name: 'Dana Cole',
  })
  expect(res.status).toBe(200)
}

test('orders and webhook events read back for the dashboard and the account page', async () => {
  const startOfDay = shop.clock.now()
  await paidOrder([{ id: 1, quantity: 2 }], 'dana@example.com')
  shop.clock.advance(60_000)
  await paidOrder(
    [
      { id: 3, quantity: 1 },
      { id: 5, quantity: 1 },
    ],
    'lee@example.com',
  )
  shop.clock.advance(60_000)
  await paidOrder([{ id: 4, quantity: 3 }], 'Dana@Example.com')
  await shop.runDueJobs()

  const orders = shop.services.orders
  const recent = await orders.recent(2)
  expect(recent.map((order) => order.email)).toEqual(['dana@example.com', 'lee@example.com'])
  expect(recent[0]?.id).toBeGreaterThan(recent[1]?.id ?? Number.POSITIVE_INFINITY)

  const counts = await orders.counts(startOfDay)
  expect(counts.placedSince).toBe(3)
  expect(counts.byStatus).toEqual({
    pending: 0,
    processing: 0,
    label_created: 3,
    shipped: 0,
    failed: 0,
    cancelled: 0,
    refunded: 0,
  })
  shop.clock.advance(1)
  expect((await orders.counts(shop.clock.now())).placedSince).toBe(0)

  // Guest orders belong to no account, whatever their e-mail (tests/api/account covers signed-in orders).
  expect(await orders.forUser('any-account')).toEqual([])
  const newest = recent[0]?.id ?? -1
  expect((await orders.get(newest))?.lines.map((line) => [line.name, line.quantity])).toEqual([
    ['Workforce Repair Original Grit', 3],
  ])

  const events = await shop.services.webhooks.recent(10)
  expect(events).toHaveLength(3)
  expect(
    events.every((event) => event.eventType === 'checkout.session.completed' && event.status === 'processed'),
  ).toBe(true)
  expect(events[0]?.orderId).toBe(recent[0]?.id ?? -1)
  expect(Object.keys(events[0] ?? {}).sort()).toEqual([
    'createdAt',
    'eventType',
    'id',
    'orderId',
    'processingTimeMs',
    'status',
  ])
})
