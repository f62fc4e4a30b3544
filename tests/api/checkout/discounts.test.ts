import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { MIN_TOTAL_MESSAGE } from '../../../api/modules/checkout/service'
import { checkoutSessions } from '../../../db/schema/checkout'
import { discountCodes } from '../../../db/schema/discounts'
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
beforeEach(() => shop.clock.advance(60_000))

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

  test('an order under $0.50 after discounts is refused with the spec’s message', async () => {
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

  test('the first-order code is refused for an e-mail that already has a paid order', async () => {
    const email = 'returning@example.com'
    const items = [{ id: 1, quantity: 2 }]
    const { sessionId } = await checkout(items, FIRST_ORDER_CODE, 'USPS Ground Advantage', email)
    const paid = await postWebhook(
      shop,
      stripe.event('checkout.session.completed', stripe.complete(sessionId)),
      WEBHOOK_SECRET,
    )
    expect(paid.status).toBe(200)

    const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
    const before = stripe.createdSessions().length
    const again = await shop.call(
      'POST',
      '/api/create-checkout-session',
      sessionBody(items, rate, { discount_code: FIRST_ORDER_CODE, customer_email: email }),
    )
    expect(again.status).toBeGreaterThanOrEqual(400)
    expect(again.status).toBeLessThan(500)
    expect(((await again.json()) as { error: string }).error).toBeTruthy()
    expect(stripe.createdSessions().length).toBe(before)

    // Someone else may still use it.
    const other = await shop.call(
      'POST',
      '/api/create-checkout-session',
      sessionBody(items, rate, { discount_code: FIRST_ORDER_CODE, customer_email: 'new@example.com' }),
    )
    expect(other.status).toBe(200)
  })
})
