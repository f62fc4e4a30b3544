import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { eq } from 'drizzle-orm'
import { orders } from '../../../db/schema/orders'
import { webhookEvents } from '../../../db/schema/webhooks'
import { createTestApp, type TestApp } from '../support/test-app'
import { createSession, getRates, rateFor } from './helpers'

// The built-in stand-ins: demo payments, the rate table with its demo carrier, the outbox folder.
let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp()
})
afterAll(() => shop.close())
beforeEach(() => shop.clock.advance(60_000))

const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', name: 'Dana Cole' }

function pay(sessionId: string, card: Record<string, unknown> = CARD) {
  return shop.call('POST', `/api/demo-payments/${sessionId}/pay`, card)
}

async function statusOf(sessionId: string) {
  return (await shop.call('GET', `/api/checkout/session/${sessionId}/status`)).json()
}

function outbox(): string[] {
  const dir = join(shop.deps.config.dataDir, 'outbox')
  return existsSync(dir) ? readdirSync(dir).sort() : []
}

test('the page learns it should show the demo card form', async () => {
  const res = await shop.call('GET', '/api/stripe/publishable-key')
  expect(await res.json()).toEqual({ publishableKey: null, demo: true })
})

describe('demo checkout end to end', () => {
  test('session → declined card → test card → order, e-mail in the outbox, label', async () => {
    const items = [
      { id: 1, quantity: 1 },
      { id: 4, quantity: 2 },
    ]
    const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
    const { sessionId, url } = await createSession(shop, items, rate)
    expect(sessionId).toMatch(/^cs_test_demo_[A-Za-z0-9]{24}$/)
    expect(url).toMatch(new RegExp(`^/checkout\\?client_secret=${sessionId}_secret_[A-Za-z0-9]{24}$`))

    // What the form shows before paying: the server's amounts, and nothing personal, since anyone holding
    // the session id (it is in the checkout URL) can read it.
    const shown = await (await shop.call('GET', `/api/demo-payments/${sessionId}`)).text()
    for (const personal of ['dana@example.com', 'Dana', 'Mill Rd', '94107'])
      expect(shown).not.toContain(personal)
    const summary = JSON.parse(shown)
    expect(summary).toEqual({
      sessionId,
      status: 'open',
      paymentStatus: 'unpaid',
      currency: 'usd',
      amountTotal: 2100 + 2 * 1300,
      lineItems: [
        { name: 'Hammered Citrus', description: expect.any(String), quantity: 1, unitAmount: 2100 },
        {
          name: 'Workforce Repair Original Grit',
          description: expect.any(String),
          quantity: 2,
          unitAmount: 1300,
        },
      ],
      shipping: { displayName: 'USPS Ground Advantage', amount: 0, minDays: 3, maxDays: 5 },
    })
    // No code, so each line's description is the product's own, as the provider's page would show it.
    for (const item of summary.lineItems) expect(item.description).not.toContain('before the code')

    const declined = await pay(sessionId, { ...CARD, cardNumber: '4000 0000 0000 0002' })
    expect(declined.status).toBe(402)
    expect(await declined.json()).toEqual({
      error: 'Your card was declined. No payment was taken.',
      declined: true,
    })
    expect(await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId))).toEqual(
      [],
    )
    expect(await statusOf(sessionId)).toEqual({ status: 'open' })

    const paid = await pay(sessionId)
    expect(paid.status).toBe(200)
    const answer = (await paid.json()) as Record<string, unknown>
    expect(answer).toEqual({
      paid: true,
      sessionId,
      returnUrl: `/success?session_id=${sessionId}`,
      orderNumber: expect.stringMatching(/^\d{6}$/),
    })
    const [order] = await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId))
    expect(order).toMatchObject({
      status: 'pending',
      totalCents: 4700,
      shippingCents: 0,
      email: 'dana@example.com',
    })
    expect(String(order?.id).padStart(6, '0')).toBe(String(answer.orderNumber))
    // The same webhook service recorded the demo's event.
    const [event] = await shop.deps.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.orderId, order?.id ?? 0))
    expect(event).toMatchObject({ eventType: 'checkout.session.completed', status: 'processed' })
    expect(event?.id).toMatch(/^evt_demo_/)
    expect(await statusOf(sessionId)).toEqual({ status: 'complete', orderNumber: answer.orderNumber })

    const before = outbox()
    await shop.runDueJobs()
    const written = outbox().filter((name) => !before.includes(name))
    expect(written.filter((name) => name.endsWith('.eml'))).toHaveLength(1)
    const json = written.find((name) => name.endsWith('.json'))
    const mail = JSON.parse(readFileSync(join(shop.deps.config.dataDir, 'outbox', json ?? ''), 'utf8'))
    expect(mail.to).toBe('dana@example.com')
    expect(mail.subject).toBe(`Your Grit & Whisker order ${answer.orderNumber}`)
    expect(mail.text).toContain('Total: $47.00')

    const [labelled] = await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId))
    expect(labelled?.status).toBe('label_created')
    expect(readFileSync(fileURLToPath(labelled?.labelUrl ?? ''), 'latin1')).toContain(
      `(Order ${answer.orderNumber}-${labelled?.uid}) Tj`,
    )

    const again = await pay(sessionId)
    expect(again.status).toBe(409)
    expect(await again.json()).toEqual({ error: 'This order has already been paid.' })
  })

  test('a declined card leaves no order and no e-mail', async () => {
    const items = [{ id: 2, quantity: 1 }]
    const { sessionId } = await createSession(
      shop,
      items,
      rateFor(await getRates(shop, items), 'USPS Priority Mail'),
    )
    const before = outbox()
    const res = await pay(sessionId, { ...CARD, cardNumber: '4000000000000002' })
    expect(res.status).toBe(402)
    await shop.runDueJobs()
    expect(outbox()).toEqual(before)
    expect(await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId))).toEqual(
      [],
    )
  })

  test('two payments at once charge once and make one order', async () => {
    const items = [{ id: 5, quantity: 1 }]
    const { sessionId } = await createSession(
      shop,
      items,
      rateFor(await getRates(shop, items), 'USPS Ground Advantage'),
    )
    const answers = await Promise.all([pay(sessionId), pay(sessionId), pay(sessionId)])
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409, 409])
    expect(
      await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId)),
    ).toHaveLength(1)
  })

  test('card mistakes are named; unknown and expired sessions are refused', async () => {
    const items = [{ id: 3, quantity: 1 }]
    const { sessionId } = await createSession(
      shop,
      items,
      rateFor(await getRates(shop, items), 'USPS Ground Advantage'),
    )
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...CARD, cardNumber: '4242 4242 4242 4241' }, 422, 'Your card number is invalid.'],
      [{ ...CARD, expiry: '01/20' }, 422, 'Your card has expired.'],
      [{ ...CARD, cvc: '1' }, 422, "Please enter the card's 3-digit security code."],
      [
        { cardNumber: '4242424242424242', expiry: '12/30', cvc: '123' },
        422,
        'Please enter the name on the card.',
      ],
    ]
    for (const [card, status, error] of cases) {
      const res = await pay(sessionId, card)
      expect(res.status).toBe(status)
      const text = await res.text()
      expect(JSON.parse(text)).toEqual({ error })
      // The card number never comes back in an answer.
      expect(text).not.toContain('4242')
    }
    const unknown = await pay('cs_test_demo_doesnotexist')
    expect(unknown.status).toBe(404)
    expect((await pay('../../etc/passwd')).status).toBe(404)
    expect((await pay('cs_test_demo_<script>')).status).toBe(404)
    for (const id of ['cs_test_demo_doesnotexist', 'cs_live_123', 'anything']) {
      const res = await shop.call('GET', `/api/demo-payments/${id}`)
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ error: 'Checkout session not found.' })
    }

    shop.clock.advance(24 * 60 * 60 * 1000 + 1)
    const expired = await pay(sessionId)
    expect(expired.status).toBe(409)
    expect(await expired.json()).toEqual({
      error: 'This checkout session has expired. Please return to your cart and try again.',
    })
  })
})

test('a price a code lowered says so on the demo payment page too', async () => {
  // SAVE5 (api/modules/discounts/seed.ts): $5.00 off from $20.00, spread over the lines.
  const items = [{ id: 1, quantity: 1 }]
  const rate = rateFor(
    await getRates(shop, items, undefined, { discount_code: 'SAVE5' }),
    'USPS Ground Advantage',
  )
  const { sessionId } = await createSession(shop, items, rate, { discount_code: 'SAVE5' })
  const summary = await (await shop.call('GET', `/api/demo-payments/${sessionId}`)).json()
  expect(summary.lineItems).toEqual([
    {
      name: 'Hammered Citrus',
      description: expect.stringMatching(/^\$21\.00 each before the code SAVE5\. \S/),
      quantity: 1,
      unitAmount: 1600,
    },
  ])
})

test('a new demo session is answered as stored, and a repeated request gets the stored one back', async () => {
  const request = {
    idempotencyKey: 'checkout-demo-answer-as-stored',
    customerEmail: 'stored@example.com',
    lineItems: [{ name: 'Beard Oil', description: 'Oil', unitAmountCents: 2100, quantity: 2, productId: 1 }],
    shipping: {
      amountCents: 570,
      displayName: 'USPS Ground Advantage',
      estimate: { minDays: 3, maxDays: 5 },
    },
    metadata: { quote_id: 'rate_x', item_count: '2' },
  }
  const created = await shop.deps.payments.createCheckoutSession(request)
  expect(created).toMatchObject({ status: 'open', paymentStatus: 'unpaid', amountTotal: 4770 })
  expect(await shop.deps.payments.retrieveSession(created.id)).toEqual(created)
  expect(created.clientSecret).toStartWith(`${created.id}_secret_`)
  expect(await shop.deps.payments.createCheckoutSession(request)).toEqual(created)
})
