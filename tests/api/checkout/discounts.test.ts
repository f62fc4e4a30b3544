import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { MIN_TOTAL_MESSAGE } from '../../../api/modules/checkout/service'
import { checkoutSessions } from '../../../db/schema/checkout'
import { discountCodes } from '../../../db/schema/discounts'
import { orders } from '../../../db/schema/orders'
import { type FakeStripe, type FormValue, startFakeStripe } from '../../fakes/stripe'
import { createTestApp, type TestApp } from '../support/test-app'
import {
  createSession,
  fakeStripePayments,
  getRates,
  type Items,
  postWebhook,
  rateFor,
  sessionBody,
} from './helpers'

/** Seeded codes (api/modules/discounts/seed.ts). */
const FIRST_ORDER_CODE = 'CREW10' // 10 % off a customer's first paid order
const FIVE_OFF = 'SAVE5' // $5.00 off from $20.00
/** Made for this suite: a fixed discount as large as the cheapest product. */
const THIRTEEN_OFF = 'TEST13OFF'

const WEBHOOK_SECRET = 'whsec_test_discount_suite'

let stripe: FakeStripe
let shop: TestApp

beforeAll(async () => {
  stripe = startFakeStripe()
  shop = await createTestApp({}, (base) => ({
    payments: fakeStripePayments(stripe, base, {
      publishableKey: 'pk_test_discounts',
      webhookSecret: WEBHOOK_SECRET,
    }),
  }))
  await shop.deps.db
    .insert(discountCodes)
    .values({ code: THIRTEEN_OFF, type: 'fixed', amount: 1300, createdAt: shop.clock.now() })
})
afterAll(() => {
  shop.close()
  stripe.stop()
})
// Each test in a fresh window of the code-guess limit (every call here comes from one address).
beforeEach(() => shop.clock.advance(11 * 60_000))

function lineItems(body: Record<string, FormValue> | undefined): [number, number][] {
  const items = body?.line_items
  const list = Array.isArray(items) ? items : []
  return list.map((item) => {
    const line = item as Record<string, Record<string, string>>
    return [Number(line.price_data?.unit_amount), Number(line.quantity)]
  })
}

function shippingSent(body: Record<string, FormValue> | undefined): number {
  const options = body?.shipping_options as
    | Record<string, Record<string, Record<string, string>>>[]
    | undefined
  return Number(options?.[0]?.shipping_rate_data?.fixed_amount?.amount)
}

async function checkout(
  items: Items,
  code: string,
  service = 'USPS Ground Advantage',
  email = 'dana@example.com',
) {
  const rate = rateFor(await getRates(shop, items, undefined, { discount_code: code }), service)
  return createSession(shop, items, rate, { discount_code: code, customer_email: email })
}

describe('discounts are re-validated and applied on the server', () => {
  test('a fixed discount is spread over the lines so the items sum exactly', async () => {
    // $21.00 + 2 × $18.00 = $57.00, less $5.00.
    const items = [
      { id: 1, quantity: 1 },
      { id: 3, quantity: 2 },
    ]
    const { sessionId } = await checkout(items, FIVE_OFF)
    const sent = stripe.createdSessions().at(-1)?.body
    expect(lineItems(sent)).toEqual([
      [1916, 1],
      [1642, 2],
    ])
    // The provider's page shows no discount line of its own: each lowered price says what it was.
    const sentLines = (sent?.line_items ?? []) as Record<string, Record<string, Record<string, string>>>[]
    const descriptions = sentLines.map((line) => line.price_data?.product_data?.description ?? '')
    expect(descriptions[0]).toStartWith(`$21.00 each before the code ${FIVE_OFF}. `)
    expect(descriptions[1]).toStartWith(`$18.00 each before the code ${FIVE_OFF}. `)
    expect(shippingSent(sent)).toBe(0)
    expect(stripe.sessions.get(sessionId)?.amount_total).toBe(5200)
    expect(sent?.metadata).toMatchObject({ discount_code: FIVE_OFF })
    const [row] = await shop.deps.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId))
    expect(row).toMatchObject({
      subtotalCents: 5700,
      discountCents: 500,
      totalCents: 5200,
      discountCode: FIVE_OFF,
    })
    const lines = JSON.parse(row?.lines ?? '[]') as { discountCents: number }[]
    expect(lines.map((line) => line.discountCents)).toEqual([184, 316])
  })

  test('a percentage discount takes its share of every line', async () => {
    const items = [{ id: 2, quantity: 3 }]
    const { sessionId } = await checkout(
      items,
      FIRST_ORDER_CODE,
      'USPS Ground Advantage',
      'first@example.com',
    )
    // $54.00 less 10 % = $48.60 over three units: $16.20 each.
    expect(lineItems(stripe.createdSessions().at(-1)?.body)).toEqual([[1620, 3]])
    expect(stripe.sessions.get(sessionId)?.amount_total).toBe(4860)
  })

  test('a discount that takes the goods below $35.00 brings back the shipping charge', async () => {
    // 2 × $18.00 = $36.00 qualifies; less $5.00 it does not.
    const items = [{ id: 2, quantity: 2 }]
    const withoutCode = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
    expect(withoutCode).toMatchObject({ price: 0, free: true })
    const withCode = rateFor(
      await getRates(shop, items, undefined, { discount_code: FIVE_OFF }),
      'USPS Ground Advantage',
    )
    expect(withCode.free).toBe(false)
    expect(withCode.price).toBeGreaterThan(0)

    // Even with the quote fetched without the code, checkout charges what the discounted order costs.
    const { sessionId } = await createSession(shop, items, withoutCode, { discount_code: FIVE_OFF })
    expect(shippingSent(stripe.createdSessions().at(-1)?.body)).toBe(Math.round(withCode.price * 100))
    expect(stripe.sessions.get(sessionId)?.amount_total).toBe(3100 + Math.round(withCode.price * 100))
  })

  test('an order under $0.50 after discounts is refused with the minimum-charge message', async () => {
    const items = [{ id: 4, quantity: 1 }]
    const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
    const before = stripe.createdSessions().length
    const res = await shop.call(
      'POST',
      '/api/create-checkout-session',
      sessionBody(items, rate, { discount_code: THIRTEEN_OFF }),
    )
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({ error: MIN_TOTAL_MESSAGE })
    expect(stripe.createdSessions().length).toBe(before)
  })

  test('an unknown code is refused before the provider is asked', async () => {
    const items = [{ id: 1, quantity: 1 }]
    const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
    const before = stripe.createdSessions().length
    const res = await shop.call(
      'POST',
      '/api/create-checkout-session',
      sessionBody(items, rate, { discount_code: 'NOPE' }),
    )
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    expect(((await res.json()) as { error: string }).error).toBeTruthy()
    expect(stripe.createdSessions().length).toBe(before)
  })

  const pay = (sessionId: string) =>
    postWebhook(shop, stripe.event('checkout.session.completed', stripe.complete(sessionId)), WEBHOOK_SECRET)
  const orderOf = async (sessionId: string) =>
    (await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId)))[0]

  test('the first-order code for an e-mail with a paid order: the session opens like any other, its order is marked for staff', async () => {
    // docs/decisions/021: a guest's checkout never says whether an e-mail has ordered.
    const email = 'returning@example.com'
    const items = [{ id: 1, quantity: 2 }]
    const first = await checkout(items, FIRST_ORDER_CODE, 'USPS Ground Advantage', email)
    expect((await pay(first.sessionId)).status).toBe(200)

    const again = await checkout(items, FIRST_ORDER_CODE, 'USPS Ground Advantage', email)
    expect(stripe.sessions.get(again.sessionId)?.amount_total).toBe(
      stripe.sessions.get(first.sessionId)?.amount_total,
    )
    expect((await pay(again.sessionId)).status).toBe(200)
    const number = String((await orderOf(first.sessionId))?.id).padStart(6, '0')
    expect(await orderOf(again.sessionId)).toMatchObject({
      discountCode: FIRST_ORDER_CODE,
      discountWarning: `CREW10 is for a first order only: this customer's order ${number} was paid first.`,
    })
    expect((await orderOf(first.sessionId))?.discountWarning).toBeNull()
  })

  test("a paid order expires the customer's other open first-order session at Stripe", async () => {
    const items = [{ id: 1, quantity: 2 }]
    const crew = await checkout(items, FIRST_ORDER_CODE, 'USPS Ground Advantage', 'eve@example.com')
    const plain = await checkout(items, FIVE_OFF, 'USPS Ground Advantage', 'Eve+plain@example.com')
    expect((await pay(plain.sessionId)).status).toBe(200)
    await shop.runDueJobs()
    const expiring = stripe.requests.filter(
      (request) =>
        request.method === 'POST' && request.path === `/v1/checkout/sessions/${crew.sessionId}/expire`,
    )
    expect(expiring).toHaveLength(1)
    expect(stripe.sessions.get(crew.sessionId)?.status).toBe('expired')
    const [row] = await shop.deps.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, crew.sessionId))
    expect(row?.status).toBe('expired')
    // Stripe's own expiry event arrives later and changes nothing.
    const late = await postWebhook(
      shop,
      stripe.event(
        'checkout.session.expired',
        stripe.sessions.get(crew.sessionId) ?? stripe.complete('none'),
      ),
      WEBHOOK_SECRET,
    )
    expect(late.status).toBe(200)
  })

  test('one Stripe paid before it could be expired is left to make its order, marked for staff', async () => {
    const items = [{ id: 1, quantity: 2 }]
    const crew = await checkout(items, FIRST_ORDER_CODE, 'USPS Ground Advantage', 'fay@example.com')
    const plain = await checkout(items, FIVE_OFF, 'USPS Ground Advantage', 'fay@example.com')
    expect((await pay(plain.sessionId)).status).toBe(200)
    // The customer pays the CREW10 session at Stripe; its event has not reached the shop yet.
    stripe.complete(crew.sessionId)
    await shop.runDueJobs()
    expect(stripe.sessions.get(crew.sessionId)?.status).toBe('complete')
    const completed = postWebhook(
      shop,
      stripe.event(
        'checkout.session.completed',
        stripe.sessions.get(crew.sessionId) ?? stripe.complete('none'),
      ),
      WEBHOOK_SECRET,
    )
    expect((await completed).status).toBe(200)
    expect((await orderOf(crew.sessionId))?.discountWarning).toContain('CREW10 is for a first order only')
  })

  test('someone else may still use the first-order code', async () => {
    const items = [{ id: 1, quantity: 2 }]
    const other = await checkout(items, FIRST_ORDER_CODE, 'USPS Ground Advantage', 'new@example.com')
    expect((await pay(other.sessionId)).status).toBe(200)
    expect((await orderOf(other.sessionId))?.discountWarning).toBeNull()
  })
})
