// The same checkout request sent again while the stock is short: its own units are not held against it.
// Paid, it is told its payment went through (not that the line sold out); still open after staff counted
// the shelf lower, it gets its payable session back (docs/decisions/032-one-open-session-per-cart.md).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { EARLIER_PAID_MESSAGE } from '../../../api/modules/checkout/service'
import { getRates, payDemo, rateFor, sessionBody } from '../checkout/helpers'
import { createTestApp, type TestApp } from '../support/test-app'
import { onHand, reservationsOf } from './helpers'

const REPAIR = 4 // Workforce Repair Original Grit: no scents
let shop: TestApp
let shopper = 0
beforeAll(async () => {
  shop = await createTestApp()
})
afterAll(() => shop.close())

async function firstSession(stock: number, quantity: number) {
  await shop.services.stock.setLevels(REPAIR, { stock })
  const lines = [{ id: REPAIR, quantity }]
  const rate = rateFor(await getRates(shop, lines), 'USPS Ground Advantage')
  const body = sessionBody(lines, rate, { customer_email: `resend${++shopper}@example.com` })
  const res = await shop.call('POST', '/api/create-checkout-session', body)
  expect(res.status).toBe(200)
  const { sessionId } = (await res.json()) as { sessionId: string }
  const again = async (extra: Record<string, unknown> = {}) => {
    const answer = await shop.call('POST', '/api/create-checkout-session', { ...body, ...extra })
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> }
  }
  return { sessionId, again }
}

test('paid for the last units, the same request again is told it was paid (not "sold out")', async () => {
  const { sessionId, again } = await firstSession(2, 2)
  expect((await payDemo(shop, sessionId)).status).toBe(200)
  expect(await onHand(shop, REPAIR, '')).toBe(0)
  expect(await again()).toEqual({ status: 409, body: { error: EARLIER_PAID_MESSAGE } })
  expect(await again({ open_session: sessionId })).toEqual({
    status: 409,
    body: { error: EARLIER_PAID_MESSAGE },
  })
})

test('paid, with fewer left than the cart: told it was paid (not "Only 2 left … lower the quantity")', async () => {
  const { sessionId, again } = await firstSession(5, 3)
  expect((await payDemo(shop, sessionId)).status).toBe(200)
  expect(await again()).toEqual({ status: 409, body: { error: EARLIER_PAID_MESSAGE } })
})

test('open, the shelf set below its hold: the same request again gets its payable session back', async () => {
  const { sessionId, again } = await firstSession(3, 3)
  await shop.services.stock.setLevels(REPAIR, { stock: 2 }) // a recount found a broken jar
  // The session still holds 3 and can be paid.
  expect(await again()).toMatchObject({ status: 200, body: { sessionId } })
  expect((await reservationsOf(shop, REPAIR, '')).reserved).toEqual({ units: 3, rows: 1 })
})
