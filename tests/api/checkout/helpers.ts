/** Shared steps for checkout and webhook tests: fetch rates, create a session, sign an event. */
import { expect } from 'bun:test'
import Stripe from 'stripe'
import { createStripePayments } from '../../../api/adapters/stripe'
import type { AppDeps } from '../../../api/deps'
import type { FakeStripe } from '../../fakes/stripe'
import type { TestApp } from '../support/test-app'

export const HOME = {
  name: 'Dana Cole',
  street1: '12 Mill Rd',
  city: 'San Francisco',
  state: 'CA',
  zip: '94107',
  country: 'US',
}

export interface RateAnswer {
  id: string
  price: number
  carrier: string
  serviceName: string
  estimatedDays: number
  deliveryEstimate: { minDays: number; maxDays: number }
  free: boolean
}

export type Items = { id: number; quantity: number }[]

/** POST /api/shipping/rates as the /shipping page sends it (names, weights and subtotal are decoration). */
export async function getRates(
  shop: TestApp,
  items: Items,
  address: Record<string, unknown> = HOME,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<RateAnswer[]> {
  const res = await shop.call(
    'POST',
    '/api/shipping/rates',
    {
      address,
      items: items.map((item) => ({ ...item, name: 'Anything', weight: '0.1' })),
      subtotal: '0.01',
      ...extra,
    },
    headers,
  )
  expect(res.status).toBe(200)
  return ((await res.json()) as { rates: RateAnswer[] }).rates
}

export function rateFor(rates: RateAnswer[], serviceName: string): RateAnswer {
  const rate = rates.find((r) => r.serviceName === serviceName)
  if (!rate) throw new Error(`no rate named ${serviceName} in ${rates.map((r) => r.serviceName).join(', ')}`)
  return rate
}

/** The checkout session request (docs/product.md#checkout-calls), with the client-side amounts deliberately wrong. */
export function sessionBody(
  items: Items,
  rate: Pick<RateAnswer, 'id'>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    line_items: items.map((item) => ({
      product_id: item.id,
      quantity: item.quantity,
      price_data: {
        currency: 'usd',
        product_data: { name: 'Cheap thing', description: 'x' },
        unit_amount: 1,
      },
    })),
    customer_email: 'dana@example.com',
    shipping_address: HOME,
    billing_address: HOME,
    shipping_rate: {
      id: rate.id,
      price: 0,
      carrier: 'USPS',
      serviceName: 'Free please',
      duration: '1 business days',
    },
    metadata: { shipping_rate_id: rate.id, total_weight: '0.1', item_count: '99' },
    discount_code: null,
    ...extra,
  }
}

export async function createSession(
  shop: TestApp,
  items: Items,
  rate: Pick<RateAnswer, 'id'>,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ sessionId: string; url: string }> {
  const res = await shop.call(
    'POST',
    '/api/create-checkout-session',
    sessionBody(items, rate, extra),
    headers,
  )
  const body = await res.json()
  if (res.status !== 200) throw new Error(`session not created: ${res.status} ${JSON.stringify(body)}`)
  return body as { sessionId: string; url: string }
}

/** Stripe's own test card: the demo provider pays with it. */
export const DEMO_CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', name: 'Dana Cole' }

/** Pays a demo-provider session with the test card, as the /checkout page's form does. */
export function payDemo(shop: TestApp, sessionId: string, headers: Record<string, string> = {}) {
  return shop.call('POST', `/api/demo-payments/${sessionId}/pay`, DEMO_CARD, headers)
}

// Only the signing helpers are used: no request leaves the test.
const signer = new Stripe('sk_test_signing_only')

/** A Stripe-Signature header made the way Stripe makes it, at the test clock's time unless told otherwise. */
export function signature(payload: string, secret: string, timestampSeconds: number): Promise<string> {
  // Bun loads Stripe's Web Crypto build, whose HMAC is async: generateTestHeaderString's async twin.
  return signer.webhooks.generateTestHeaderStringAsync({ payload, secret, timestamp: timestampSeconds })
}

export async function postWebhook(
  shop: TestApp,
  payload: string,
  secret: string,
  options: { timestampSeconds?: number; header?: string } = {},
): Promise<Response> {
  const timestamp = options.timestampSeconds ?? Math.floor(shop.clock.now().getTime() / 1000)
  const header = options.header ?? (await signature(payload, secret, timestamp))
  return shop.app.handle(
    new Request('http://localhost:4321/api/stripe/webhook', {
      method: 'POST',
      // Stripe calls from its own servers: no Origin header, a JSON body it signed byte for byte.
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: payload,
    }),
  )
}

/** The real Stripe adapter (and so the real SDK), pointed at the fake Stripe API on a local port. */
export function fakeStripePayments(
  stripe: FakeStripe,
  base: AppDeps,
  keys: { publishableKey: string; webhookSecret: string },
) {
  return createStripePayments({
    secretKey: stripe.secretKey,
    publishableKey: keys.publishableKey,
    webhookSecret: keys.webhookSecret,
    publicUrl: base.config.publicUrl,
    host: stripe.host,
    port: stripe.port,
    protocol: 'http',
  })
}

/**
 * The carrier's price a rate id was signed with (decision 013: the id carries its terms in the clear,
 * base64url JSON, with the price fifth), before any free-shipping rule. Read here without the key, as a
 * tamperer could: what checkout charges must still come from the signed, checked quote.
 */
export function quotedCarrierCents(rateId: string): number {
  const payload = rateId.slice('rate_'.length, rateId.indexOf('.'))
  const fields: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  const price = Array.isArray(fields) ? fields[4] : undefined
  if (typeof price !== 'number') throw new Error(`no carrier price in ${rateId}`)
  return price
}
