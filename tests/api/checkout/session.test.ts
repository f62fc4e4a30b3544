import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { MAX_QUOTE_ID_LENGTH } from '@core/contracts/shipping'
import { eq } from 'drizzle-orm'
import { createStripePayments } from '../../../api/adapters/stripe'
import { buildCart, UNKNOWN_PRODUCT_MESSAGE } from '../../../api/modules/catalog/cart'
import { addressHash, normalizeAddress } from '../../../api/modules/shipping/address'
import { QUOTE_EXPIRED_MESSAGE } from '../../../api/modules/shipping/pricing'
import { createShippingService } from '../../../api/modules/shipping/service'
import { checkoutSessions } from '../../../db/schema/checkout'
import { type FakeStripe, type FormValue, startFakeStripe } from '../../fakes/stripe'
import { createTestApp, ORIGIN, type TestApp } from '../support/test-app'
import {
  createSession,
  fakeStripePayments,
  getRates,
  HOME,
  postWebhook,
  rateFor,
  sessionBody,
} from './helpers'

const WEBHOOK_SECRET = 'whsec_test_session_suite'

let stripe: FakeStripe
let shop: TestApp

beforeAll(async () => {
  stripe = startFakeStripe()
  shop = await createTestApp({}, (base) => ({
    payments: fakeStripePayments(stripe, base, {
      publishableKey: 'pk_test_shop_123',
      webhookSecret: WEBHOOK_SECRET,
    }),
  }))
})
afterAll(() => {
  shop.close()
  stripe.stop()
})
beforeEach(() => shop.clock.advance(60_000))

/** Reads a nested value from the form body the fake Stripe received. */
function at(value: FormValue | undefined, ...path: (string | number)[]): FormValue | undefined {
  let node: FormValue | undefined = value
  for (const key of path) {
    if (node === undefined || typeof node === 'string') return undefined
    node = Array.isArray(node) ? node[Number(key)] : node[String(key)]
  }
  return node
}

async function refused(body: Record<string, unknown>): Promise<[number, string]> {
  const before = stripe.createdSessions().length
  const res = await shop.call('POST', '/api/create-checkout-session', body)
  const answer = (await res.json()) as { error: string }
  // Nothing reached the payment provider.
  expect(stripe.createdSessions().length).toBe(before)
  return [res.status, answer.error]
}

describe('the server rebuilds every amount', () => {
  test('prices, shipping, weight and counts come from the catalogue and the quote, not the page', async () => {
    const items = [
      { id: 1, quantity: 2 },
      { id: 4, quantity: 1 },
    ]
    const priority = rateFor(await getRates(shop, items), 'USPS Priority Mail')
    const before = stripe.createdSessions().length
    const session = await createSession(shop, items, priority)

    expect(session.sessionId).toMatch(/^cs_test_/)
    expect(session.url).toMatch(/^\/checkout\?client_secret=cs_test_\w+_secret_\w+$/)
    expect(stripe.createdSessions().length).toBe(before + 1)

    const sent = stripe.createdSessions().at(-1)?.body
    expect(at(sent, 'ui_mode')).toBe('embedded_page')
    expect(at(sent, 'mode')).toBe('payment')
    expect(at(sent, 'return_url')).toBe(`${ORIGIN}/success?session_id={CHECKOUT_SESSION_ID}`)
    expect(at(sent, 'customer_email')).toBe('dana@example.com')
    expect(at(sent, 'line_items', 0, 'price_data', 'unit_amount')).toBe('2100')
    expect(at(sent, 'line_items', 0, 'quantity')).toBe('2')
    expect(at(sent, 'line_items', 0, 'price_data', 'currency')).toBe('usd')
    expect(at(sent, 'line_items', 0, 'price_data', 'product_data', 'name')).toBe('Hammered Citrus')
    expect(at(sent, 'line_items', 0, 'price_data', 'product_data', 'metadata', 'product_id')).toBe('1')
    expect(at(sent, 'line_items', 1, 'price_data', 'unit_amount')).toBe('1300')
    expect(at(sent, 'line_items', 1, 'quantity')).toBe('1')
    expect(at(sent, 'line_items', 2)).toBeUndefined()
    // Priority for 8.6 oz of goods + the medium mailer (9.8 oz) to California: $9.35 + $1.60.
    const rate = at(sent, 'shipping_options', 0, 'shipping_rate_data')
    expect(at(rate, 'type')).toBe('fixed_amount')
    expect(at(rate, 'fixed_amount', 'amount')).toBe('1095')
    expect(at(rate, 'fixed_amount', 'currency')).toBe('usd')
    expect(at(rate, 'display_name')).toBe('USPS Priority Mail')
    expect(at(rate, 'delivery_estimate', 'minimum', 'value')).toBe('1')
    expect(at(rate, 'delivery_estimate', 'maximum', 'value')).toBe('3')
    expect(at(rate, 'delivery_estimate', 'maximum', 'unit')).toBe('business_day')
    expect(at(sent, 'metadata')).toEqual({
      shipping_rate_id: priority.id,
      quote_id: priority.id,
      total_weight: '8.6',
      item_count: '3',
    })

    const fake = stripe.sessions.get(session.sessionId)
    expect(fake?.amount_total).toBe(2 * 2100 + 1300 + 1095)
    const [row] = await shop.deps.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, session.sessionId))
    expect(row).toMatchObject({
      provider: 'stripe',
      status: 'open',
      email: 'dana@example.com',
      subtotalCents: 5500,
      discountCents: 0,
      shippingCents: 1095,
      totalCents: 6595,
      itemCount: 3,
      totalWeightTenthsOz: 86,
      quoteId: priority.id,
    })
    expect(JSON.parse(row?.lines ?? '[]')).toEqual([
      {
        productId: 1,
        name: 'Hammered Citrus',
        // No scent chosen: the first, named so the order keeps the scent its units were held on.
        variant: 'Hammered Citrus',
        unitCents: 2100,
        quantity: 2,
        discountCents: 0,
        weightTenthsOz: 30,
        stockVariant: 'Hammered Citrus',
      },
      {
        productId: 4,
        name: 'Workforce Repair Original Grit',
        variant: null,
        unitCents: 1300,
        quantity: 1,
        discountCents: 0,
        weightTenthsOz: 26,
        stockVariant: '',
      },
    ])
  })

  test('free standard shipping is charged as $0.00 from $35.00 of goods', async () => {
    const items = [{ id: 1, quantity: 2 }]
    const ground = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
    const session = await createSession(shop, items, ground)
    expect(stripe.sessions.get(session.sessionId)?.amount_total).toBe(4200)
    const sent = stripe.createdSessions().at(-1)?.body
    expect(at(sent, 'shipping_options', 0, 'shipping_rate_data', 'fixed_amount', 'amount')).toBe('0')
  })

  test('a double click makes one session: same idempotency key, same answer', async () => {
    const items = [{ id: 2, quantity: 1 }]
    const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
    const body = sessionBody(items, rate)
    const before = stripe.createdSessions().length
    const [first, second] = await Promise.all([
      shop.call('POST', '/api/create-checkout-session', body),
      shop.call('POST', '/api/create-checkout-session', body),
    ])
    const a = (await first?.json()) as { sessionId: string }
    const b = (await second?.json()) as { sessionId: string }
    expect(a.sessionId).toBe(b.sessionId)
    expect(stripe.createdSessions().length).toBe(before + 1)
    const keys = stripe.requests
      .filter((r) => r.path === '/v1/checkout/sessions')
      .slice(-2)
      .map((r) => r.headers['idempotency-key'])
    expect(keys[0]).toMatch(/^checkout-[0-9a-f]{64}$/)
    expect(keys[1]).toBe(keys[0])
    const rows = await shop.deps.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, a.sessionId))
    expect(rows).toHaveLength(1)
  })

  test('the real SDK reads a session back from the API', async () => {
    const items = [{ id: 5, quantity: 1 }]
    const session = await createSession(
      shop,
      items,
      rateFor(await getRates(shop, items), 'USPS Ground Advantage'),
    )
    const read = await shop.deps.payments.retrieveSession(session.sessionId)
    expect(read).toMatchObject({
      id: session.sessionId,
      status: 'open',
      paymentStatus: 'unpaid',
      customerEmail: 'dana@example.com',
    })
    expect(await shop.deps.payments.retrieveSession('cs_test_nothing_here')).toBeNull()
  })
})

describe('shipping quotes', () => {
  const items = [{ id: 3, quantity: 1 }]

  test('a forged rate id is refused', async () => {
    expect(await refused(sessionBody(items, { id: 'rate_made_up_by_the_browser' }))).toEqual([
      409,
      QUOTE_EXPIRED_MESSAGE,
    ])
  })

  test('an expired quote is refused', async () => {
    const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
    shop.clock.advance(30 * 60 * 1000 + 1)
    expect(await refused(sessionBody(items, rate))).toEqual([409, QUOTE_EXPIRED_MESSAGE])
  })

  test('a quote for another cart is refused', async () => {
    const rate = rateFor(await getRates(shop, [{ id: 3, quantity: 1 }]), 'USPS Ground Advantage')
    expect(await refused(sessionBody([{ id: 3, quantity: 4 }], rate))).toEqual([409, QUOTE_EXPIRED_MESSAGE])
    expect(await refused(sessionBody([{ id: 2, quantity: 1 }], rate))).toEqual([409, QUOTE_EXPIRED_MESSAGE])
  })

  test('a quote for another address is refused', async () => {
    const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
    const elsewhere = { ...HOME, zip: '10001', state: 'NY', city: 'New York' }
    expect(await refused(sessionBody(items, rate, { shipping_address: elsewhere }))).toEqual([
      409,
      QUOTE_EXPIRED_MESSAGE,
    ])
  })

  test('a quote is good for exactly 30 minutes', async () => {
    const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
    shop.clock.advance(30 * 60 * 1000 - 1)
    expect((await createSession(shop, items, rate)).sessionId).toMatch(/^cs_test_/)
    shop.clock.advance(1)
    expect(await refused(sessionBody(items, rate, { customer_email: 'late@example.com' }))).toEqual([
      409,
      QUOTE_EXPIRED_MESSAGE,
    ])
  })

  test('a quote whose price or service was edited is refused', async () => {
    const rates = await getRates(shop, items)
    const express = rateFor(rates, 'USPS Priority Mail Express')
    const [payload, mac] = express.id.slice('rate_'.length).split('.')
    const fields = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as unknown[]
    const edit = (index: number, value: unknown) => {
      const changed = [...fields]
      changed[index] = value
      return `rate_${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${mac}`
    }
    // A price of one cent, a free standard flag, a later expiry: each breaks the signature.
    for (const id of [edit(4, 1), edit(5, 1), edit(8, Number(fields[8]) + 3_600_000)]) {
      expect(await refused(sessionBody(items, { id }))).toEqual([409, QUOTE_EXPIRED_MESSAGE])
    }
    // Another quote's signature on this quote's terms.
    const ground = rateFor(rates, 'USPS Ground Advantage')
    const swapped = `${express.id.split('.')[0]}.${ground.id.split('.')[1]}`
    expect(await refused(sessionBody(items, { id: swapped }))).toEqual([409, QUOTE_EXPIRED_MESSAGE])
  })

  test('malformed and oversized rate ids are refused with a clear message', async () => {
    for (const id of ['rate_', 'rate_.', 'rate_abc.def', 'rate_%%%.%%%', 'cs_test_x', '.'.repeat(40)]) {
      expect(await refused(sessionBody(items, { id }))).toEqual([409, QUOTE_EXPIRED_MESSAGE])
    }
    const huge = `rate_${'A'.repeat(MAX_QUOTE_ID_LENGTH)}`
    expect(await refused(sessionBody(items, { id: huge }))).toEqual([422, 'Please choose a shipping method.'])
  })

  test('every instance of the shop reads the quotes any other one signed', async () => {
    const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
    // A second instance on the same database: a new process would build exactly this.
    const other = createShippingService({
      ...shop.deps,
      catalog: shop.services.catalog,
      discounts: shop.services.discounts,
    })
    const binding = {
      cartFingerprint: (
        await buildCart(
          shop.services.catalog,
          items.map((item) => ({ productId: item.id, quantity: item.quantity })),
        )
      ).fingerprint,
      addressHash: addressHash(normalizeAddress(HOME)),
    }
    expect(await other.liveQuote(rate.id, binding)).toMatchObject({
      id: rate.id,
      serviceToken: 'usps_ground_advantage',
    })
  })

  test('a changed name keeps the quote valid', async () => {
    const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
    const session = await createSession(shop, items, rate, {
      shipping_address: { ...HOME, name: 'Dana B. Cole' },
    })
    expect(session.sessionId).toMatch(/^cs_test_/)
  })
})

describe('bad requests', () => {
  test('an unknown product', async () => {
    const rate = rateFor(await getRates(shop, [{ id: 1, quantity: 1 }]), 'USPS Ground Advantage')
    expect(await refused(sessionBody([{ id: 999, quantity: 1 }], rate))).toEqual([
      422,
      UNKNOWN_PRODUCT_MESSAGE,
    ])
  })

  test('a missing or malformed e-mail', async () => {
    const rate = rateFor(await getRates(shop, [{ id: 1, quantity: 1 }]), 'USPS Ground Advantage')
    const { customer_email: _, ...noEmail } = sessionBody([{ id: 1, quantity: 1 }], rate)
    expect(await refused(noEmail)).toEqual([422, 'Please enter your e-mail address.'])
    expect(await refused(sessionBody([{ id: 1, quantity: 1 }], rate, { customer_email: 'dana@' }))).toEqual([
      422,
      'Please enter a valid e-mail address, like name@example.com.',
    ])
  })

  test.each([
    ['a NUL character', 'nul\u0000@example.com'],
    ['a right-to-left override', '\u202eevil@example.com'],
    ['markup', '<script>alert(1)</script>@example.org'],
  ])('an e-mail with %s', async (_name, email) => {
    const rate = rateFor(await getRates(shop, [{ id: 1, quantity: 1 }]), 'USPS Ground Advantage')
    expect(await refused(sessionBody([{ id: 1, quantity: 1 }], rate, { customer_email: email }))).toEqual([
      422,
      'Please enter a valid e-mail address, like name@example.com.',
    ])
  })

  test('no shipping rate chosen', async () => {
    const { shipping_rate: _, ...noRate } = sessionBody([{ id: 1, quantity: 1 }], { id: 'x' })
    expect(await refused(noRate)).toEqual([422, 'Please choose a shipping method.'])
  })

  test.each([0, -1, 1.5, 10000])('quantity %p', async (quantity) => {
    expect(await refused(sessionBody([{ id: 1, quantity }], { id: 'rate_x' }))).toEqual([
      422,
      'Quantities must be whole numbers from 1 to 99.',
    ])
  })

  test('a bad billing address says it is the billing address', async () => {
    const items = [{ id: 1, quantity: 1 }]
    const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
    expect(await refused(sessionBody(items, rate, { billing_address: { ...HOME, state: 'ZZ' } }))).toEqual([
      422,
      'Billing address: Please choose a state.',
    ])
  })

  test('an unreachable or refusing provider is a 502 with a plain message', async () => {
    const broken = await createTestApp({}, (base) => ({
      payments: createStripePayments({
        secretKey: 'sk_test_wrong_key',
        publishableKey: 'pk_test_x',
        webhookSecret: WEBHOOK_SECRET,
        publicUrl: base.config.publicUrl,
        host: stripe.host,
        port: stripe.port,
        protocol: 'http',
      }),
    }))
    try {
      const items = [{ id: 1, quantity: 1 }]
      const rate = rateFor(await getRates(broken, items), 'USPS Ground Advantage')
      const res = await broken.call('POST', '/api/create-checkout-session', sessionBody(items, rate))
      expect(res.status).toBe(502)
      expect(await res.json()).toEqual({
        error: 'We could not start the secure payment. Please try again in a moment.',
      })
    } finally {
      broken.close()
    }
  })
})

describe('session status and publishable key', () => {
  test('the publishable key is served for the embedded form', async () => {
    const res = await shop.call('GET', '/api/stripe/publishable-key')
    expect(await res.json()).toEqual({ publishableKey: 'pk_test_shop_123' })
  })

  test('demo payment endpoints do not exist when Stripe is the provider', async () => {
    const res = await shop.call('POST', '/api/demo-payments/cs_test_demo_abc/pay', {
      cardNumber: '4242424242424242',
      expiry: '12/30',
      cvc: '123',
      name: 'Dana',
    })
    expect(res.status).toBe(404)
  })

  test('status is open until the signed webhook makes the order, then shows only the order number', async () => {
    const items = [{ id: 2, quantity: 2 }]
    const { sessionId } = await createSession(
      shop,
      items,
      rateFor(await getRates(shop, items), 'USPS Ground Advantage'),
    )
    const open = await shop.call('GET', `/api/checkout/session/${sessionId}/status`)
    expect(await open.json()).toEqual({ status: 'open' })

    const paid = stripe.complete(sessionId)
    const res = await postWebhook(shop, stripe.event('checkout.session.completed', paid), WEBHOOK_SECRET)
    expect(res.status).toBe(200)

    const done = await shop.call('GET', `/api/checkout/session/${sessionId}/status`)
    expect(done.headers.get('cache-control')).toBe('no-store')
    const body = (await done.json()) as Record<string, unknown>
    expect(Object.keys(body).sort()).toEqual(['orderNumber', 'status'])
    expect(body.status).toBe('complete')
    expect(body.orderNumber).toMatch(/^\d{6}$/)
  })

  test('an unknown session is a 404', async () => {
    for (const id of ['cs_test_unknown', 'not-a-session', '..%2F..%2Fetc']) {
      const res = await shop.call('GET', `/api/checkout/session/${id}/status`)
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ error: 'Checkout session not found.' })
    }
  })
})
