import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { formatOrderNumber } from '@core/rules/order-status'
import { eq, sql } from 'drizzle-orm'
import { DEMO_WEBHOOK_SECRET } from '../../../api/adapters/demo-payments'
import { createSmtpMailer } from '../../../api/adapters/mailer'
import { DELAYED_PAYMENT_HOLD_MS } from '../../../api/modules/checkout/model'
import { EARLIER_PAID_MESSAGE } from '../../../api/modules/checkout/service'
import { checkoutSessions } from '../../../db/schema/checkout'
import { discountCodes, discountRedemptions } from '../../../db/schema/discounts'
import { jobs } from '../../../db/schema/jobs'
import { orderLines, orders } from '../../../db/schema/orders'
import { webhookEvents } from '../../../db/schema/webhooks'
import { type SmtpSink, startSmtpSink } from '../../fakes/smtp-sink'
import { type FakeStripe, startFakeStripe } from '../../fakes/stripe'
import {
  createSession,
  fakeStripePayments,
  getRates,
  type Items,
  postWebhook,
  rateFor,
  sessionBody,
  signature,
} from '../checkout/helpers'
import { planOfSent } from '../support/query-plan'
import { createTestApp, type TestApp } from '../support/test-app'

const SECRET = 'whsec_test_webhook_suite'
/** Workforce Repair Original Grit: no scents. */
const REPAIR = 4

let stripe: FakeStripe
let smtp: SmtpSink
let shop: TestApp

beforeAll(async () => {
  stripe = startFakeStripe()
  smtp = await startSmtpSink()
  shop = await createTestApp({}, (base) => ({
    payments: fakeStripePayments(stripe, base, { publishableKey: 'pk_test_webhooks', webhookSecret: SECRET }),
    mailer: createSmtpMailer({ smtpUrl: smtp.url, from: base.config.mailFrom }),
  }))
})
afterAll(async () => {
  shop.close()
  stripe.stop()
  await smtp.stop()
})
beforeEach(() => shop.clock.advance(60_000))

async function openSession(items: Items = [{ id: 1, quantity: 1 }], email = 'dana@example.com') {
  const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
  const { sessionId } = await createSession(shop, items, rate, { customer_email: email })
  return sessionId
}

async function ordersFor(sessionId: string) {
  return shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId))
}

async function eventRow(id: string) {
  const [row] = await shop.deps.db.select().from(webhookEvents).where(eq(webhookEvents.id, id))
  return row
}

async function sessionStatus(id: string) {
  const [row] = await shop.deps.db
    .select({ status: checkoutSessions.status })
    .from(checkoutSessions)
    .where(eq(checkoutSessions.id, id))
  return row?.status
}

describe('signatures', () => {
  test('a wrong secret, a stale timestamp, a missing header or a changed body get 400 and record nothing', async () => {
    const sessionId = await openSession()
    const eventId = 'evt_signature_checks'
    const payload = stripe.event('checkout.session.completed', stripe.complete(sessionId), eventId)
    const now = Math.floor(shop.clock.now().getTime() / 1000)

    const attempts = [
      await postWebhook(shop, payload, 'whsec_someone_else'),
      await postWebhook(shop, payload, SECRET, { timestampSeconds: now - 301 }),
      await postWebhook(shop, payload, SECRET, { header: '' }),
      await postWebhook(shop, payload.replace(/"amount_total":\d+/, '"amount_total":1'), SECRET, {
        header: await signature(payload, SECRET, now),
      }),
    ]
    for (const res of attempts) {
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ error: 'Invalid webhook signature.' })
    }
    expect(await eventRow(eventId)).toBeUndefined()
    expect(await ordersFor(sessionId)).toEqual([])

    // Within the 300 s tolerance the same event is accepted.
    const fresh = await postWebhook(shop, payload, SECRET, { timestampSeconds: now - 299 })
    expect(fresh.status).toBe(200)
    expect(await ordersFor(sessionId)).toHaveLength(1)
  })

  test('a signature dated in the future beyond a minute of clock skew is refused', async () => {
    const sessionId = await openSession()
    const eventId = 'evt_from_the_future'
    const payload = stripe.event('checkout.session.completed', stripe.complete(sessionId), eventId)
    const now = Math.floor(shop.clock.now().getTime() / 1000)

    for (const ahead of [24 * 60 * 60, 301, 61]) {
      const res = await postWebhook(shop, payload, SECRET, { timestampSeconds: now + ahead })
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ error: 'Invalid webhook signature.' })
    }
    // A header with two timestamps is judged by the one the signature was checked against (the last).
    const signed = await signature(payload, SECRET, now + 3600)
    const twoTimes = `t=${now},${signed}`
    expect((await postWebhook(shop, payload, SECRET, { header: twoTimes })).status).toBe(400)
    expect(await eventRow(eventId)).toBeUndefined()

    // Clocks differ a little: up to a minute ahead is accepted.
    const skewed = await postWebhook(shop, payload, SECRET, { timestampSeconds: now + 60 })
    expect(skewed.status).toBe(200)
    expect(await ordersFor(sessionId)).toHaveLength(1)
  })

  test('the demo provider refuses future signatures too', async () => {
    const demo = await createTestApp()
    try {
      const payload = JSON.stringify({
        id: 'evt_demo_future',
        object: 'event',
        type: 'payment_intent.succeeded',
        created: 1,
        data: { object: { id: 'pi_1', object: 'payment_intent' } },
      })
      const now = Math.floor(demo.clock.now().getTime() / 1000)
      const late = await postWebhook(demo, payload, DEMO_WEBHOOK_SECRET, {
        timestampSeconds: now + 24 * 60 * 60,
      })
      expect(late.status).toBe(400)
      const onTime = await postWebhook(demo, payload, DEMO_WEBHOOK_SECRET, { timestampSeconds: now + 30 })
      expect(onTime.status).toBe(200)
    } finally {
      demo.close()
    }
  })
})

describe('event ids', () => {
  test.each([
    ['no id', undefined],
    ['a number', 42],
    ['null', null],
    ['an empty string', ''],
    ['256 characters', `evt_${'x'.repeat(252)}`],
    ['spaces', 'evt with spaces'],
  ])('a signed event with %s as its id is a 400 and records nothing', async (_name, id) => {
    const sessionId = await openSession()
    const event = JSON.parse(stripe.event('checkout.session.completed', stripe.complete(sessionId)))
    const before = await shop.deps.db.select().from(webhookEvents)
    const res = await postWebhook(shop, JSON.stringify({ ...event, id }), SECRET)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      error: 'The webhook event has no valid id (a string of 1 to 255 characters without spaces).',
    })
    expect(await shop.deps.db.select().from(webhookEvents)).toHaveLength(before.length)
    expect(await ordersFor(sessionId)).toEqual([])
  })

  test.each([
    ['null', 'null'],
    ['a number', '42'],
    ['a string', '"evt_1"'],
    ['true', 'true'],
    ['an array', '[]'],
    ['an array of events', '[{"id":"evt_in_array","type":"checkout.session.completed"}]'],
  ])('a signed body that is %s, not an event object, is a 400 and records nothing', async (_name, body) => {
    const before = await shop.deps.db.select().from(webhookEvents)
    const res = await postWebhook(shop, body, SECRET)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: 'The webhook body is not an event object.' })
    expect(await shop.deps.db.select().from(webhookEvents)).toHaveLength(before.length)
  })

  test('a signed event without a type is a 400 too', async () => {
    const { type: _, ...untyped } = JSON.parse(
      stripe.event('checkout.session.completed', stripe.complete(await openSession()), 'evt_untyped'),
    )
    const res = await postWebhook(shop, JSON.stringify(untyped), SECRET)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: 'The webhook event has no type.' })
    expect(await eventRow('evt_untyped')).toBeUndefined()
  })

  test('an id of 255 characters is accepted', async () => {
    const sessionId = await openSession()
    const id = `evt_${'x'.repeat(251)}`
    const res = await postWebhook(
      shop,
      stripe.event('checkout.session.completed', stripe.complete(sessionId), id),
      SECRET,
    )
    expect(res.status).toBe(200)
    expect(await eventRow(id)).toMatchObject({ status: 'processed' })
  })
})

describe('orders from paid sessions', () => {
  test('the same event delivered 100 times at once makes one order and one e-mail', async () => {
    const sessionId = await openSession([
      { id: 1, quantity: 1 },
      { id: 3, quantity: 2 },
    ])
    const payload = stripe.event(
      'checkout.session.completed',
      stripe.complete(sessionId),
      'evt_hundred_times',
    )
    const header = await signature(payload, SECRET, Math.floor(shop.clock.now().getTime() / 1000))
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => postWebhook(shop, payload, SECRET, { header })),
    )
    expect(answers.map((res) => res.status)).toEqual(Array(100).fill(200))
    const bodies = (await Promise.all(answers.map((res) => res.json()))) as { duplicate: boolean }[]
    expect(bodies.filter((body) => !body.duplicate)).toHaveLength(1)

    const made = await ordersFor(sessionId)
    expect(made).toHaveLength(1)
    const order = made[0]
    if (!order) throw new Error('no order')
    expect(order).toMatchObject({
      status: 'pending',
      email: 'dana@example.com',
      customerName: 'Dana Cole',
      subtotalCents: 5700,
      shippingCents: 0,
      totalCents: 5700,
      itemCount: 3,
      sourceEventId: 'evt_hundred_times',
    })
    const lines = await shop.deps.db.select().from(orderLines).where(eq(orderLines.orderId, order.id))
    expect(lines.map((line) => [line.productId, line.quantity, line.unitCents])).toEqual([
      [1, 1, 2100],
      [3, 2, 1800],
    ])
    expect(await eventRow('evt_hundred_times')).toMatchObject({
      eventType: 'checkout.session.completed',
      status: 'processed',
      orderId: order.id,
    })
    expect((await eventRow('evt_hundred_times'))?.processingTimeMs).toBeGreaterThanOrEqual(0)
    expect(await sessionStatus(sessionId)).toBe('complete')

    const before = smtp.messages.length
    await shop.runDueJobs()
    await shop.runDueJobs()
    const mine = smtp.messages
      .slice(before)
      .filter((mail) => mail.subject.includes(String(order.id).padStart(6, '0')))
    expect(mine).toHaveLength(1)
    expect(mine[0]?.to).toEqual(['dana@example.com'])
    expect(mine[0]?.raw).toContain('ships within 1-2 business days')

    const [labelled] = await ordersFor(sessionId)
    expect(labelled?.status).toBe('label_created')
    expect(labelled?.shippoTrackingNumber).toMatch(/^9400\d{18}$/)
  })

  test('completed and async_payment_succeeded for one session make one order', async () => {
    const sessionId = await openSession([{ id: 2, quantity: 1 }])
    const paid = stripe.complete(sessionId)
    const first = await postWebhook(
      shop,
      stripe.event('checkout.session.completed', paid, 'evt_pair_1'),
      SECRET,
    )
    const second = await postWebhook(
      shop,
      stripe.event('checkout.session.async_payment_succeeded', paid, 'evt_pair_2'),
      SECRET,
    )
    expect([first.status, second.status]).toEqual([200, 200])
    const made = await ordersFor(sessionId)
    expect(made).toHaveLength(1)
    expect(made[0]?.sourceEventId).toBe('evt_pair_1')
    expect(await eventRow('evt_pair_2')).toMatchObject({
      status: 'processed',
      orderId: made[0]?.id,
      note: 'order already existed',
    })
    const queued = await shop.deps.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `order-confirmation:${sessionId}`))
    expect(queued).toHaveLength(1)
  })

  test('out of order: async success first, a late expiry changes nothing', async () => {
    const sessionId = await openSession([{ id: 4, quantity: 1 }])
    const paid = stripe.complete(sessionId)
    await postWebhook(
      shop,
      stripe.event('checkout.session.async_payment_succeeded', paid, 'evt_ooo_1'),
      SECRET,
    )
    await postWebhook(shop, stripe.event('checkout.session.completed', paid, 'evt_ooo_2'), SECRET)
    await postWebhook(
      shop,
      stripe.event('checkout.session.expired', { ...paid, status: 'expired' }, 'evt_ooo_3'),
      SECRET,
    )
    expect(await ordersFor(sessionId)).toHaveLength(1)
    expect(await sessionStatus(sessionId)).toBe('complete')
  })

  test('sibling events racing in parallel still make one order', async () => {
    const sessionId = await openSession([{ id: 5, quantity: 1 }])
    const paid = stripe.complete(sessionId)
    const answers = await Promise.all([
      postWebhook(shop, stripe.event('checkout.session.completed', paid, 'evt_race_1'), SECRET),
      postWebhook(shop, stripe.event('checkout.session.async_payment_succeeded', paid, 'evt_race_2'), SECRET),
      postWebhook(shop, stripe.event('checkout.session.completed', paid, 'evt_race_3'), SECRET),
    ])
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200])
    expect(await ordersFor(sessionId)).toHaveLength(1)
  })

  test('a delayed payment: pending first, the order once the money arrives', async () => {
    const sessionId = await openSession([{ id: 1, quantity: 1 }], 'ach@example.com')
    const unpaid = stripe.complete(sessionId, 'unpaid')
    await postWebhook(shop, stripe.event('checkout.session.completed', unpaid, 'evt_delay_1'), SECRET)
    expect(await ordersFor(sessionId)).toEqual([])
    expect(await sessionStatus(sessionId)).toBe('payment_pending')
    const status = await shop.call('GET', `/api/checkout/session/${sessionId}/status`)
    expect(await status.json()).toEqual({ status: 'payment_pending' })

    const paid = stripe.complete(sessionId, 'paid')
    await postWebhook(
      shop,
      stripe.event('checkout.session.async_payment_succeeded', paid, 'evt_delay_2'),
      SECRET,
    )
    expect(await ordersFor(sessionId)).toHaveLength(1)
  })

  test("a delayed payment keeps its code's use and its units held while the bank takes days", async () => {
    await shop.deps.db
      .insert(discountCodes)
      .values({ code: 'BANK5', type: 'fixed', amount: 500, maxRedemptions: 1, createdAt: shop.clock.now() })
    await shop.services.stock.setLevels(REPAIR, { stock: 2 })
    try {
      const items: Items = [{ id: REPAIR, quantity: 2 }]
      const open = async (extra: Record<string, unknown>) => {
        const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
        return shop.call('POST', '/api/create-checkout-session', sessionBody(items, rate, extra))
      }
      const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
      const slowBody = sessionBody(items, rate, {
        customer_email: 'three.days@example.com',
        discount_code: 'BANK5',
      })
      const slowAnswer = await shop.call('POST', '/api/create-checkout-session', slowBody)
      const { sessionId: slow } = (await slowAnswer.json()) as { sessionId: string }
      await postWebhook(
        shop,
        stripe.event('checkout.session.completed', stripe.complete(slow, 'unpaid'), 'evt_bank_1'),
        SECRET,
      )
      // The customer goes back and presses Pay again: the same checkout is told its payment is on its way
      // (docs/decisions/032), and the holds stay as long as the delayed payment made them.
      shop.clock.advance(10 * 60 * 1000)
      const again = await shop.call('POST', '/api/create-checkout-session', slowBody)
      expect(again.status).toBe(409)
      expect(await again.json()).toEqual({ error: EARLIER_PAID_MESSAGE })
      // Three days on, well past the payment session's 25 hours: the use and the units are still held.
      shop.clock.advance(3 * 24 * 60 * 60 * 1000)
      await shop.sweep()
      const code = await open({ customer_email: 'code.taker@example.com', discount_code: 'BANK5' })
      expect(code.status).toBe(422)
      expect(await code.json()).toEqual({ error: 'This discount code has been used up.' })
      const units = await open({ customer_email: 'unit.taker@example.com' })
      expect(units.status).toBe(409)
      expect(await units.json()).toMatchObject({ error: expect.stringContaining('sold out') })

      await postWebhook(
        shop,
        stripe.event('checkout.session.async_payment_succeeded', stripe.complete(slow, 'paid'), 'evt_bank_2'),
        SECRET,
      )
      const [order] = await ordersFor(slow)
      expect(order).toMatchObject({ discountCode: 'BANK5', discountWarning: null, stockWarning: null })
      const [shelf] = await shop.deps.db.all<{ onHand: number }>(
        sql`select on_hand as onHand from stock_levels where product_id = ${REPAIR} and variant = ''`,
      )
      expect(shelf?.onHand).toBe(0)
    } finally {
      await shop.services.stock.setLevels(REPAIR, { stock: null })
    }
  })

  test("a delayed payment that clears after its code's last use went to another order: marked for staff", async () => {
    await shop.deps.db
      .insert(discountCodes)
      .values({ code: 'ONCE7', type: 'fixed', amount: 700, maxRedemptions: 1, createdAt: shop.clock.now() })
    const items: Items = [{ id: 1, quantity: 3 }]
    const withCode = async (email: string) => {
      const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
      return (await createSession(shop, items, rate, { customer_email: email, discount_code: 'ONCE7' }))
        .sessionId
    }
    const slow = await withCode('bank.debit@example.com')
    const unpaid = stripe.complete(slow, 'unpaid')
    await postWebhook(shop, stripe.event('checkout.session.completed', unpaid, 'evt_once_1'), SECRET)
    // The debit takes longer than its session's use of the code is held for, and another order takes it.
    shop.clock.advance(DELAYED_PAYMENT_HOLD_MS + 60 * 60 * 1000)
    await shop.sweep()
    const quick = await withCode('card@example.com')
    await postWebhook(
      shop,
      stripe.event('checkout.session.completed', stripe.complete(quick), 'evt_once_2'),
      SECRET,
    )
    shop.clock.advance(24 * 60 * 60 * 1000)
    const cleared = stripe.complete(slow, 'paid')
    await postWebhook(
      shop,
      stripe.event('checkout.session.async_payment_succeeded', cleared, 'evt_once_3'),
      SECRET,
    )

    const [first] = await ordersFor(quick)
    const [late] = await ordersFor(slow)
    expect(first?.discountWarning).toBeNull()
    // The money was taken, so the order stands; staff are told the code's limit was passed.
    expect(late?.discountCode).toBe('ONCE7')
    expect(late?.discountWarning).toBe(
      'ONCE7 allows 1 use(s) in all: other orders had used them before this payment came.',
    )
  })

  test('a failed delayed payment or an expired session makes no order', async () => {
    const failedId = await openSession([{ id: 2, quantity: 2 }], 'fail@example.com')
    const unpaid = stripe.complete(failedId, 'unpaid')
    await postWebhook(shop, stripe.event('checkout.session.completed', unpaid, 'evt_fail_1'), SECRET)
    await postWebhook(
      shop,
      stripe.event('checkout.session.async_payment_failed', unpaid, 'evt_fail_2'),
      SECRET,
    )
    expect(await ordersFor(failedId)).toEqual([])
    expect(await sessionStatus(failedId)).toBe('payment_failed')

    const expiredId = await openSession([{ id: 3, quantity: 3 }], 'gone@example.com')
    const expired = { ...stripe.sessions.get(expiredId), status: 'expired' }
    const res = await postWebhook(
      shop,
      stripe.event('checkout.session.expired', expired as never, 'evt_expired'),
      SECRET,
    )
    expect(res.status).toBe(200)
    expect(await ordersFor(expiredId)).toEqual([])
    expect(await sessionStatus(expiredId)).toBe('expired')
  })

  test('a session that is not ours, an amount or currency that does not match, and other event types make no order', async () => {
    const foreign = {
      ...stripe.complete(await openSession([{ id: 1, quantity: 3 }])),
      id: 'cs_test_not_from_this_shop',
    }
    await postWebhook(shop, stripe.event('checkout.session.completed', foreign, 'evt_foreign'), SECRET)
    expect(await eventRow('evt_foreign')).toMatchObject({ status: 'ignored', orderId: null })

    const sessionId = await openSession([{ id: 4, quantity: 3 }])
    const tampered = { ...stripe.complete(sessionId), amount_total: 1 }
    await postWebhook(shop, stripe.event('checkout.session.completed', tampered, 'evt_amount'), SECRET)
    expect(await eventRow('evt_amount')).toMatchObject({ status: 'failed', orderId: null })
    expect(await ordersFor(sessionId)).toEqual([])

    // A paid session that does not say what was charged is not checked, so it is not paid either.
    const unstated = await openSession([{ id: 2, quantity: 3 }])
    const missing = { ...stripe.complete(unstated), amount_total: null }
    await postWebhook(
      shop,
      stripe.event('checkout.session.completed', missing as never, 'evt_no_amount'),
      SECRET,
    )
    expect(await eventRow('evt_no_amount')).toMatchObject({
      status: 'failed',
      orderId: null,
      note: 'amount missing',
    })
    const { amount_total: _, ...absent } = stripe.complete(unstated)
    await postWebhook(
      shop,
      stripe.event('checkout.session.completed', absent as never, 'evt_absent_amount'),
      SECRET,
    )
    expect(await eventRow('evt_absent_amount')).toMatchObject({ status: 'failed', note: 'amount missing' })
    expect(await ordersFor(unstated)).toEqual([])

    // Charged in another currency: the same number of cents is not the same money.
    const euros = await openSession([{ id: 3, quantity: 2 }])
    const inEuros = { ...stripe.complete(euros), currency: 'eur' }
    const answer = await postWebhook(
      shop,
      stripe.event('checkout.session.completed', inEuros, 'evt_eur'),
      SECRET,
    )
    expect(answer.status).toBe(200)
    expect(await eventRow('evt_eur')).toMatchObject({
      status: 'failed',
      orderId: null,
      note: 'currency does not match the checkout session',
    })
    const { currency: __, ...noCurrency } = stripe.complete(euros)
    await postWebhook(
      shop,
      stripe.event('checkout.session.completed', noCurrency as never, 'evt_no_currency'),
      SECRET,
    )
    expect(await eventRow('evt_no_currency')).toMatchObject({ status: 'failed', note: 'currency missing' })
    expect(await ordersFor(euros)).toEqual([])
    expect(await sessionStatus(euros)).toBe('open')

    const other = JSON.stringify({
      id: 'evt_other_type',
      object: 'event',
      type: 'payment_intent.succeeded',
      created: 1,
      data: { object: { id: 'pi_123', object: 'payment_intent' } },
    })
    const res = await postWebhook(shop, other, SECRET)
    expect(res.status).toBe(200)
    expect(await eventRow('evt_other_type')).toMatchObject({
      status: 'ignored',
      eventType: 'payment_intent.succeeded',
    })
  })
})

describe('an event another process is handling', () => {
  test('is answered 503 with Retry-After while its lease runs, so the provider delivers it again', async () => {
    const sessionId = await openSession([{ id: 2, quantity: 2 }])
    const eventId = 'evt_held_by_a_dead_process'
    // A process stored the event and took its lease, then died before making the order.
    await shop.deps.db.insert(webhookEvents).values({
      id: eventId,
      eventType: 'checkout.session.completed',
      sessionId,
      status: 'received',
      claimedUntil: shop.clock.now().getTime() + 60_000,
      createdAt: shop.clock.now(),
    })
    const payload = stripe.event('checkout.session.completed', stripe.complete(sessionId), eventId)
    const during = await postWebhook(shop, payload, SECRET)
    expect(during.status).toBe(503)
    expect(Number(during.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await ordersFor(sessionId)).toEqual([])

    shop.clock.advance(61_000)
    const after = await postWebhook(shop, payload, SECRET)
    expect(after.status).toBe(200)
    expect(await after.json()).toEqual({ received: true, duplicate: false, status: 'processed' })
    expect(await ordersFor(sessionId)).toHaveLength(1)
  })
})

describe('one transaction per paid session', () => {
  test('the order, the completed session, the discount use and the event outcome are written together', async () => {
    const items = [{ id: 1, quantity: 2 }]
    const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
    const { sessionId } = await createSession(shop, items, rate, {
      customer_email: 'together@example.com',
      discount_code: 'GRIT15',
    })
    const payload = stripe.event('checkout.session.completed', stripe.complete(sessionId), 'evt_together')
    // Any step failing (here the discount's redemption, refused by a trigger) leaves none of them written.
    await shop.deps.db.run(
      sql.raw(`create trigger refuse_redemption before update on discount_redemptions
        begin select raise(abort, 'redemption refused for this test'); end`),
    )
    try {
      expect((await postWebhook(shop, payload, SECRET)).status).toBe(500)
    } finally {
      await shop.deps.db.run(sql.raw('drop trigger refuse_redemption'))
    }
    expect(await ordersFor(sessionId)).toEqual([])
    expect(await sessionStatus(sessionId)).toBe('open')
    expect(await eventRow('evt_together')).toMatchObject({ status: 'failed', orderId: null })

    // The provider delivers again: now everything is written, once, and names the same order.
    const again = await postWebhook(shop, payload, SECRET)
    expect(await again.json()).toEqual({ received: true, duplicate: false, status: 'processed' })
    const [order] = await ordersFor(sessionId)
    if (!order) throw new Error('no order after the redelivery')
    const [session] = await shop.deps.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, sessionId))
    expect(session).toMatchObject({ status: 'complete', orderId: order.id })
    expect(await eventRow('evt_together')).toMatchObject({
      status: 'processed',
      orderId: order.id,
      note: null,
    })
    const uses = await shop.deps.db
      .select()
      .from(discountRedemptions)
      .where(eq(discountRedemptions.email, 'together@example.com'))
    expect(uses).toEqual([
      expect.objectContaining({ code: 'GRIT15', status: 'redeemed', orderRef: formatOrderNumber(order.id) }),
    ])
  })
})

describe('a paid event delivered for the first time', () => {
  test('is stored with its order, already processed, in one write; delivered again it is a duplicate', async () => {
    const sessionId = await openSession([{ id: REPAIR, quantity: 1 }])
    const eventId = 'evt_first_delivery'
    // How each event row is first written: with its order (processed) or before it (received).
    await shop.deps.db.run(sql.raw('create table first_writes (event_id text, status text)'))
    await shop.deps.db.run(
      sql.raw(`create trigger note_first_write after insert on webhook_events
        begin insert into first_writes values (new.id, new.status); end`),
    )
    try {
      const payload = stripe.event('checkout.session.completed', stripe.complete(sessionId), eventId)
      const first = await postWebhook(shop, payload, SECRET)
      expect(await first.json()).toEqual({ received: true, duplicate: false, status: 'processed' })
      const [order] = await ordersFor(sessionId)
      const stored = await eventRow(eventId)
      expect(stored).toMatchObject({
        status: 'processed',
        orderId: order?.id,
        note: null,
        claimedUntil: null,
      })
      expect(stored?.processingTimeMs).toBeGreaterThanOrEqual(0)
      expect(
        await shop.deps.db.all(sql.raw(`select status from first_writes where event_id = '${eventId}'`)),
      ).toEqual([{ status: 'processed' }])

      const again = await postWebhook(shop, payload, SECRET)
      expect(await again.json()).toEqual({ received: true, duplicate: true, status: 'processed' })
      expect(await ordersFor(sessionId)).toHaveLength(1)
      expect(await eventRow(eventId)).toEqual(stored)
    } finally {
      await shop.deps.db.run(sql.raw('drop trigger note_first_write'))
      await shop.deps.db.run(sql.raw('drop table first_writes'))
    }
  })

  test('a sibling event for a session whose order exists is stored processed, with the note, once', async () => {
    const sessionId = await openSession([{ id: REPAIR, quantity: 1 }])
    await postWebhook(
      shop,
      stripe.event('checkout.session.completed', stripe.complete(sessionId), 'evt_one'),
      SECRET,
    )
    const sibling = stripe.event(
      'checkout.session.async_payment_succeeded',
      stripe.complete(sessionId),
      'evt_two',
    )
    const answer = await postWebhook(shop, sibling, SECRET)
    expect(await answer.json()).toEqual({ received: true, duplicate: false, status: 'processed' })
    const [order, ...more] = await ordersFor(sessionId)
    expect(more).toEqual([])
    expect(await eventRow('evt_two')).toMatchObject({
      status: 'processed',
      orderId: order?.id,
      note: 'order already existed',
    })
  })
})

describe('the sweep of unfinished events', () => {
  test('reads them from the partial index of unfinished events, which finished ones never enter', async () => {
    const plan = await planOfSent(shop, 'select "payload" from "webhook_events"', () =>
      shop.services.webhooks.sweep(),
    )
    expect(plan.join('\n')).toContain('USING INDEX webhook_events_unfinished_idx')
    const [entries] = await shop.deps.db.all<{ n: number }>(
      sql.raw(
        `select count(*) as n from webhook_events indexed by webhook_events_unfinished_idx where status = 'received'`,
      ),
    )
    const [unfinished] = await shop.deps.db.all<{ n: number }>(
      sql.raw(`select count(*) as n from webhook_events where status = 'received'`),
    )
    expect(entries?.n).toBe(unfinished?.n)
  })
})
