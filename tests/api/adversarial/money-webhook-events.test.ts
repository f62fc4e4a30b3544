// Attacks on the payment webhook with correctly signed bodies: a signature proves who sent a body, not
// that it is an event, nor that it paid what the session asked for. The demo provider's signing secret is
// public, so anyone can sign these against a shop running the demo provider. Bodies that are not event
// objects are refused with 400 and stored nowhere; events that pay another amount or in another currency
// make no order and leave the session payable.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { DEMO_WEBHOOK_SECRET } from '../../../api/adapters/demo-payments'
import { checkoutSessions, demoPaymentSessions } from '../../../db/schema/checkout'
import { orders } from '../../../db/schema/orders'
import { webhookEvents } from '../../../db/schema/webhooks'
import { createSession, getRates, type Items, payDemo, postWebhook, rateFor } from '../checkout/helpers'
import { createTestApp, type TestApp } from '../support/test-app'
import { attackCounter } from './tally'

setDefaultTimeout(30_000)

const attacks = attackCounter('money-webhook-events')
let shop: TestApp

beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
})
afterAll(() => {
  shop.close()
  attacks.record()
})

const ITEMS: Items = [{ id: 1, quantity: 1 }]

async function openSession(): Promise<{ sessionId: string; totalCents: number }> {
  shop.clock.advance(11 * 60_000)
  const rate = rateFor(await getRates(shop, ITEMS), 'USPS Ground Advantage')
  const { sessionId } = await createSession(shop, ITEMS, rate)
  const [row] = await shop.deps.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId))
  if (!row) throw new Error('session not stored')
  return { sessionId, totalCents: row.totalCents }
}

/** A `checkout.session.completed` event as the demo provider (and Stripe) sends it, with `session` changes. */
function completed(id: string, sessionId: string, session: Record<string, unknown>): string {
  return JSON.stringify({
    id,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(shop.clock.now().getTime() / 1000),
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        payment_status: 'paid',
        status: 'complete',
        currency: 'usd',
        metadata: {},
        ...session,
      },
    },
  })
}

async function storedEvents(): Promise<number> {
  return (await shop.deps.db.select({ id: webhookEvents.id }).from(webhookEvents)).length
}

describe('signed bodies that are not event objects', () => {
  const bodies = [
    'null',
    'true',
    'false',
    '0',
    '-1',
    '1e308',
    '""',
    '"evt_1"',
    '[]',
    '[null]',
    '[{"id":"evt_array","type":"checkout.session.completed","data":{"object":null}}]',
    '[[{"id":"evt_nested"}]]',
  ]

  test('each is a 400 that says so, and nothing is stored', async () => {
    const before = await storedEvents()
    const answers: { body: string; status: number; error: unknown }[] = []
    for (const body of bodies) {
      attacks.tried()
      const res = await postWebhook(shop, body, DEMO_WEBHOOK_SECRET)
      answers.push({ body, status: res.status, error: ((await res.json()) as { error?: unknown }).error })
    }
    expect(answers).toEqual(
      bodies.map((body) => ({ body, status: 400, error: 'The webhook body is not an event object.' })),
    )
    expect(await storedEvents()).toBe(before)
  })

  test('objects with null or odd parts are answered without a 5xx and make no order', async () => {
    const { sessionId } = await openSession()
    const odd = [
      { id: 'evt_null_data', type: 'checkout.session.completed', data: null },
      { id: 'evt_null_object', type: 'checkout.session.completed', data: { object: null } },
      { id: 'evt_number_object', type: 'checkout.session.completed', data: { object: 7 } },
      { id: 'evt_array_object', type: 'checkout.session.completed', data: { object: [sessionId] } },
      {
        id: 'evt_null_fields',
        type: 'checkout.session.completed',
        data: {
          object: {
            id: sessionId,
            object: 'checkout.session',
            payment_status: 'paid',
            amount_total: null,
            currency: null,
            metadata: null,
            customer_details: null,
          },
        },
      },
      {
        id: 'evt_text_amount',
        type: 'checkout.session.completed',
        data: {
          object: {
            id: sessionId,
            object: 'checkout.session',
            payment_status: 'paid',
            amount_total: '2100',
            currency: ['usd'],
          },
        },
      },
    ]
    for (const event of odd) {
      attacks.tried()
      const res = await postWebhook(shop, JSON.stringify(event), DEMO_WEBHOOK_SECRET)
      expect(res.status).toBeLessThan(500)
    }
    expect(await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId))).toEqual(
      [],
    )
  })
})

describe('a paid event in another currency', () => {
  const currencies = ['eur', 'gbp', 'jpy', 'cad', 'usdt', 'us', 'usd ', ' usd', 'usd\u0000', 'xxx', '']

  test('the stored amount in any currency but US dollars makes no order; the session stays payable', async () => {
    const { sessionId, totalCents } = await openSession()
    for (const [index, currency] of currencies.entries()) {
      attacks.tried()
      const id = `evt_currency_${index}`
      const res = await postWebhook(
        shop,
        completed(id, sessionId, { amount_total: totalCents, currency }),
        DEMO_WEBHOOK_SECRET,
      )
      expect(res.status).toBe(200)
      const [event] = await shop.deps.db.select().from(webhookEvents).where(eq(webhookEvents.id, id))
      expect(event).toMatchObject({ status: 'failed', orderId: null })
    }
    attacks.tried()
    const { currency: _, ...withoutCurrency } = JSON.parse(completed('x', sessionId, {})).data.object
    const res = await postWebhook(
      shop,
      JSON.stringify({
        ...JSON.parse(completed('evt_currency_absent', sessionId, {})),
        data: { object: { ...withoutCurrency, amount_total: totalCents } },
      }),
      DEMO_WEBHOOK_SECRET,
    )
    expect(res.status).toBe(200)
    expect(await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId))).toEqual(
      [],
    )
    const [session] = await shop.deps.db
      .select({ status: checkoutSessions.status })
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, sessionId))
    expect(session?.status).toBe('open')

    // The customer then pays for real, in dollars: one order.
    const [provider] = await shop.deps.db
      .select({ currency: demoPaymentSessions.currency })
      .from(demoPaymentSessions)
      .where(eq(demoPaymentSessions.id, sessionId))
    expect(provider?.currency).toBe('usd')
    expect((await payDemo(shop, sessionId)).status).toBe(200)
    expect(
      await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId)),
    ).toHaveLength(1)
  })

  test('"USD" in capitals is US dollars: the same money, one order', async () => {
    const { sessionId, totalCents } = await openSession()
    attacks.tried()
    const res = await postWebhook(
      shop,
      completed('evt_currency_upper', sessionId, { amount_total: totalCents, currency: 'USD' }),
      DEMO_WEBHOOK_SECRET,
    )
    expect(res.status).toBe(200)
    expect(
      await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId)),
    ).toHaveLength(1)
  })
})
