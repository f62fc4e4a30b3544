// The Stripe adapter's refunds and refund events: the real `stripe` SDK against the fake Stripe API, which
// keeps charges, refunds what is left of them and no more, honours Idempotency-Key as Stripe does, and
// posts its events signed to a local receiver, where the adapter verifies and reads them.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createStripePayments, toProviderSession } from '../../../api/adapters/stripe'
import {
  MalformedWebhookEventError,
  type PaymentEvent,
  PaymentProviderError,
  type RefundPaymentEvent,
  RefundRefusedError,
  type RefundRequest,
  WebhookSignatureError,
} from '../../../api/adapters/types'
import { type FakeStripe, startFakeStripe, stripeSignatureHeader } from '../../fakes/stripe'

const WEBHOOK_SECRET = 'whsec_refund_adapter_tests'

/** A webhook endpoint that keeps what Stripe posts to it, byte for byte. */
function startReceiver() {
  const received: { body: string; signature: string | null }[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      received.push({ body: await request.text(), signature: request.headers.get('stripe-signature') })
      return Response.json({ received: true })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}/api/stripe/webhook`,
    received,
    stop: () => server.stop(true),
  }
}

let stripe: FakeStripe
let receiver: ReturnType<typeof startReceiver>
let payments: ReturnType<typeof createStripePayments>

beforeAll(() => {
  receiver = startReceiver()
  stripe = startFakeStripe({ webhook: { url: receiver.url, secret: WEBHOOK_SECRET } })
  payments = createStripePayments({
    secretKey: stripe.secretKey,
    publishableKey: 'pk_test_refunds',
    webhookSecret: WEBHOOK_SECRET,
    publicUrl: 'http://localhost:4321',
    host: stripe.host,
    port: stripe.port,
    protocol: 'http',
  })
})
afterAll(() => {
  stripe.stop()
  receiver.stop()
})

let keys = 0
function refundOf(
  paymentRef: string,
  amountCents: number,
  extra: Partial<RefundRequest> = {},
): RefundRequest {
  keys += 1
  return {
    paymentRef,
    amountCents,
    idempotencyKey: `refund-test-${keys}`,
    metadata: { order_number: '000042' },
    ...extra,
  }
}

async function refused(promise: Promise<unknown>): Promise<RefundRefusedError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(RefundRefusedError)
  return error as RefundRefusedError
}

/** Where the next events will start, once everything made so far has been posted. */
async function mark(): Promise<number> {
  await stripe.flush()
  return receiver.received.length
}

/** The events Stripe posted since `from`, verified and parsed by the adapter. */
async function eventsSince(from: number): Promise<PaymentEvent[]> {
  await stripe.flush()
  return Promise.all(
    receiver.received
      .slice(from)
      .map(({ body, signature }) => payments.verifyWebhook(body, signature, Date.now())),
  )
}

function refundEvent(events: PaymentEvent[], type: string): RefundPaymentEvent {
  const event = events.find((candidate) => candidate.type === type)
  if (event?.kind !== 'refund') throw new Error(`no ${type} refund event among ${events.map((e) => e.type)}`)
  return event
}

describe('what a paid session says to refund', () => {
  test('the payment intent and currency, from the session and from its completed event', async () => {
    const session = await payments.createCheckoutSession({
      customerEmail: 'dana@example.com',
      lineItems: [{ name: 'Cedar Beard Oil', unitAmountCents: 2100, quantity: 1, productId: 1 }],
      shipping: {
        amountCents: 695,
        displayName: 'USPS Ground Advantage',
        estimate: { minDays: 3, maxDays: 5 },
      },
      metadata: { checkout: 'refund-test' },
      idempotencyKey: 'refund-test-session',
    })
    expect(session.paymentRef).toBeNull()
    expect(session.currency).toBe('usd')

    const paid = stripe.complete(session.id)
    const retrieved = await payments.retrieveSession(session.id)
    expect(retrieved?.paymentRef).toBe(paid.payment_intent as string)
    expect(retrieved?.paymentRef).toMatch(/^pi_/)
    expect(retrieved?.currency).toBe('usd')

    const body = stripe.event('checkout.session.completed', paid)
    const event = await payments.verifyWebhook(
      body,
      stripeSignatureHeader(body, WEBHOOK_SECRET, Math.floor(Date.now() / 1000)),
      Date.now(),
    )
    expect(event.kind).toBe('session')
    expect(event.session?.paymentRef).toBe(paid.payment_intent as string)
    expect(event.session?.currency).toBe('usd')
    expect(stripe.charges.get(paid.payment_intent as string)?.amount).toBe(2100 + 695)
  })

  test('an expanded payment intent gives its id; a session that does not say its currency says so (null: the webhook makes no order of it)', () => {
    const base = {
      id: 'cs_test_defaults',
      object: 'checkout.session',
      client_secret: null,
      status: 'complete',
      payment_status: 'paid',
      amount_total: 1000,
      metadata: {},
    }
    expect(
      toProviderSession({
        ...base,
        payment_intent: { id: 'pi_expanded', object: 'payment_intent' },
      } as never),
    ).toMatchObject({ paymentRef: 'pi_expanded', currency: null })
    expect(toProviderSession(base as never)).toMatchObject({ paymentRef: null, currency: null })
    expect(toProviderSession({ ...base, currency: 'EUR', payment_intent: 'pi_x' } as never)).toMatchObject({
      paymentRef: 'pi_x',
      currency: 'eur',
    })
  })
})

describe('refunds through the SDK', () => {
  test('a full refund sends the payment intent, amount, reason, metadata and the idempotency key', async () => {
    const charge = stripe.pay(4290)
    const request = refundOf(charge.payment_intent, 4290, { reason: 'Cancelled before shipping' })
    const refund = await payments.refund(request)

    // The key rides along in the metadata: Stripe forgets keys after a day, the refund keeps it.
    const metadata = {
      order_number: '000042',
      refund_key: request.idempotencyKey,
      reason: 'Cancelled before shipping',
    }
    expect(refund).toMatchObject({
      paymentRef: charge.payment_intent,
      amountCents: 4290,
      currency: 'usd',
      status: 'succeeded',
      failureReason: null,
      metadata,
    })
    expect(refund.id).toMatch(/^re_/)
    const sent = stripe.createdRefunds().at(-1)
    expect(sent?.headers['idempotency-key']).toBe(request.idempotencyKey)
    expect(sent?.body).toEqual({
      payment_intent: charge.payment_intent,
      amount: '4290',
      reason: 'requested_by_customer',
      metadata,
    })
    expect(stripe.charges.get(charge.payment_intent)).toMatchObject({ amount_refunded: 4290, refunded: true })
  })

  test('staff’s reason is kept to Stripe’s 500 characters', async () => {
    const charge = stripe.pay(1000)
    const refund = await payments.refund(
      refundOf(charge.payment_intent, 1000, { reason: `  ${'x'.repeat(600)}  ` }),
    )
    expect(refund.metadata.reason).toBe('x'.repeat(500))
  })

  test('partial refunds add up to the charge and no further', async () => {
    const charge = stripe.pay(5000)
    expect((await payments.refund(refundOf(charge.payment_intent, 1250))).amountCents).toBe(1250)
    expect((await payments.refund(refundOf(charge.payment_intent, 2000))).amountCents).toBe(2000)

    const tooMuch = await refused(payments.refund(refundOf(charge.payment_intent, 1751)))
    expect(tooMuch.refusal).toBe('amount_too_large')
    expect(tooMuch.message).toContain('greater than unrefunded amount on charge ($17.50)')

    expect((await payments.refund(refundOf(charge.payment_intent, 1750))).amountCents).toBe(1750)
    const nothingLeft = await refused(payments.refund(refundOf(charge.payment_intent, 1)))
    expect(nothingLeft.refusal).toBe('already_refunded')
    expect(stripe.charges.get(charge.payment_intent)?.amount_refunded).toBe(5000)
  })

  test('the same key again answers the same refund: one refund at Stripe, however many tries', async () => {
    const charge = stripe.pay(3000)
    const request = refundOf(charge.payment_intent, 3000)
    const before = stripe.createdRefunds().length
    const first = await payments.refund(request)
    const again = await Promise.all(Array.from({ length: 8 }, () => payments.refund({ ...request })))

    for (const refund of again) expect(refund).toEqual(first)
    expect(stripe.createdRefunds().length).toBe(before + 1)
    expect(stripe.charges.get(charge.payment_intent)?.amount_refunded).toBe(3000)
  })

  test('the same key with other parameters is refused and refunds nothing more', async () => {
    const charge = stripe.pay(3000)
    const request = refundOf(charge.payment_intent, 1000)
    await payments.refund(request)
    const conflict = await refused(payments.refund({ ...request, amountCents: 2000 }))
    expect(conflict.refusal).toBe('idempotency_conflict')
    expect(stripe.charges.get(charge.payment_intent)?.amount_refunded).toBe(1000)
  })

  test('an answer lost after Stripe refunded: the SDK asks again with the key and gets that refund', async () => {
    const charge = stripe.pay(2500)
    const before = stripe.createdRefunds().length
    stripe.loseRefundAnswers = 1
    const refund = await payments.refund(refundOf(charge.payment_intent, 2500))
    expect(refund).toMatchObject({ amountCents: 2500, status: 'succeeded' })
    expect(stripe.loseRefundAnswers).toBe(0)
    expect(stripe.createdRefunds().length).toBe(before + 1)
    expect(stripe.charges.get(charge.payment_intent)?.amount_refunded).toBe(2500)
  })

  test('a refund is found again by its key, after Stripe has forgotten the key', async () => {
    const charge = stripe.pay(9000)
    // More refunds than one page of Stripe's list holds.
    stripe.listPageSize = 2
    try {
      const made = []
      for (let i = 0; i < 5; i++) made.push(await payments.refund(refundOf(charge.payment_intent, 100)))
      const wanted = made[1]
      if (!wanted) throw new Error('no refund')
      expect(await payments.findRefund(charge.payment_intent, wanted.metadata.refund_key as string)).toEqual(
        wanted,
      )
      const pages = stripe.requests.filter((r) => r.method === 'GET' && r.path === '/v1/refunds')
      expect(pages.map((page) => page.body.starting_after ?? null)).toEqual([null, made[3]?.id ?? 'missing'])
      expect(await payments.findRefund(charge.payment_intent, 'refund-never-made')).toBeNull()
      expect(await payments.findRefund('pi_unknown', wanted.metadata.refund_key as string)).toBeNull()
    } finally {
      stripe.listPageSize = 100
    }
  })

  test("a payment's refunds are listed, every page, newest first; none for a payment Stripe does not know", async () => {
    const charge = stripe.pay(9000)
    stripe.listPageSize = 2
    try {
      const made = []
      for (let i = 0; i < 3; i++) made.push(await payments.refund(refundOf(charge.payment_intent, 100 + i)))
      const listed = await payments.listRefunds(charge.payment_intent)
      expect(listed).toEqual([...made].reverse())
      expect(await payments.listRefunds('pi_unknown')).toEqual([])
    } finally {
      stripe.listPageSize = 100
    }
  })

  test('a pending refund is answered pending', async () => {
    const charge = stripe.pay(1800)
    stripe.refundStatus = 'pending'
    try {
      expect((await payments.refund(refundOf(charge.payment_intent, 800))).status).toBe('pending')
    } finally {
      stripe.refundStatus = 'succeeded'
    }
  })

  test('an unknown payment, or a bad amount, is refused; nothing refunded', async () => {
    expect((await refused(payments.refund(refundOf('pi_unknown', 100)))).refusal).toBe('unknown_payment')
    const charge = stripe.pay(1000)
    expect((await refused(payments.refund(refundOf(charge.payment_intent, 0)))).refusal).toBe('refused')
    expect((await refused(payments.refund(refundOf(charge.payment_intent, 10.5)))).refusal).toBe('refused')
    expect(stripe.charges.get(charge.payment_intent)?.amount_refunded).toBe(0)
  })

  test('Stripe out of reach is not a refusal: the outcome is unknown and the same key settles it', async () => {
    const unreachable = createStripePayments({
      secretKey: stripe.secretKey,
      publishableKey: 'pk_test_refunds',
      webhookSecret: WEBHOOK_SECRET,
      publicUrl: 'http://localhost:4321',
      host: '127.0.0.1',
      port: 9,
      protocol: 'http',
    })
    const error = await unreachable.refund(refundOf('pi_anything', 100)).then(
      () => null,
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(PaymentProviderError)
    expect(error).not.toBeInstanceOf(RefundRefusedError)
  })
})

describe('refund events, signed by Stripe and read by the adapter', () => {
  test('a refund made by the shop: refund.created and charge.refunded', async () => {
    const from = await mark()
    const charge = stripe.pay(6000)
    const request = refundOf(charge.payment_intent, 2500, { reason: 'One jar arrived broken' })
    const refund = await payments.refund(request)
    const events = await eventsSince(from)
    expect(events.map((event) => event.type).sort()).toEqual(['charge.refunded', 'refund.created'])

    const created = refundEvent(events, 'refund.created')
    expect(created.session).toBeNull()
    expect(created.refund).toEqual({
      paymentRef: charge.payment_intent,
      chargeRef: charge.id,
      currency: 'usd',
      amountRefundedCents: null,
      refunds: [
        {
          id: refund.id,
          paymentRef: charge.payment_intent,
          amountCents: 2500,
          currency: 'usd',
          status: 'succeeded',
          failureReason: null,
          metadata: {
            order_number: '000042',
            refund_key: request.idempotencyKey,
            reason: 'One jar arrived broken',
          },
          created: refund.created,
        },
      ],
    })

    // Current API versions leave the charge's refunds out: the amount refunded so far is what counts.
    const refunded = refundEvent(events, 'charge.refunded')
    expect(refunded.refund).toEqual({
      paymentRef: charge.payment_intent,
      chargeRef: charge.id,
      currency: 'usd',
      amountRefundedCents: 2500,
      refunds: [],
    })
  })

  test('charge.refunded lists the charge’s refunds where the API version includes them', async () => {
    stripe.listRefundsOnCharge = true
    try {
      const charge = stripe.pay(4000)
      await payments.refund(refundOf(charge.payment_intent, 1000))
      const from = await mark()
      const second = await payments.refund(refundOf(charge.payment_intent, 500))
      const refunded = refundEvent(await eventsSince(from), 'charge.refunded')
      expect(refunded.refund.amountRefundedCents).toBe(1500)
      expect(refunded.refund.refunds.map((refund) => refund.amountCents)).toEqual([500, 1000])
      expect(refunded.refund.refunds[0]?.id).toBe(second.id)
    } finally {
      stripe.listRefundsOnCharge = false
    }
  })

  test('a refund made in Stripe’s dashboard arrives the same way, without the shop’s metadata', async () => {
    const charge = stripe.pay(3300)
    const from = await mark()
    const refund = stripe.dashboardRefund(charge.payment_intent)
    const events = await eventsSince(from)
    expect(refundEvent(events, 'refund.created').refund.refunds).toEqual([
      expect.objectContaining({ id: refund.id, amountCents: 3300, status: 'succeeded', metadata: {} }),
    ])
    expect(refundEvent(events, 'charge.refunded').refund.amountRefundedCents).toBe(3300)
  })

  test('a pending refund that succeeds: refund.updated and charge.refund.updated', async () => {
    const charge = stripe.pay(2000)
    stripe.refundStatus = 'pending'
    const refund = await payments.refund(refundOf(charge.payment_intent, 2000)).finally(() => {
      stripe.refundStatus = 'succeeded'
    })
    const from = await mark()
    stripe.succeedRefund(refund.id)
    const events = await eventsSince(from)
    expect(events.map((event) => event.type).sort()).toEqual(['charge.refund.updated', 'refund.updated'])
    for (const type of ['refund.updated', 'charge.refund.updated']) {
      expect(refundEvent(events, type).refund.refunds).toEqual([
        expect.objectContaining({ id: refund.id, status: 'succeeded', amountCents: 2000 }),
      ])
    }
  })

  test('a refund that fails: refund.failed with the reason, and its amount can be refunded again', async () => {
    const charge = stripe.pay(2700)
    const request = refundOf(charge.payment_intent, 2700)
    const refund = await payments.refund(request)
    const from = await mark()
    stripe.failRefund(refund.id, 'expired_or_canceled_card')
    const events = await eventsSince(from)
    expect(events.map((event) => event.type).sort()).toEqual([
      'charge.refund.updated',
      'refund.failed',
      'refund.updated',
    ])
    const failed = refundEvent(events, 'refund.failed')
    expect(failed.refund.paymentRef).toBe(charge.payment_intent)
    expect(failed.refund.refunds).toEqual([
      expect.objectContaining({
        id: refund.id,
        status: 'failed',
        failureReason: 'expired_or_canceled_card',
        amountCents: 2700,
        metadata: { order_number: '000042', refund_key: request.idempotencyKey },
      }),
    ])

    const retry = await payments.refund(refundOf(charge.payment_intent, 2700))
    expect(retry.status).toBe('succeeded')
    expect(retry.id).not.toBe(refund.id)
  })

  test('an event Stripe did not sign is refused', async () => {
    const charge = stripe.pay(1000)
    const from = await mark()
    await payments.refund(refundOf(charge.payment_intent, 1000))
    await stripe.flush()
    const posted = receiver.received[from]
    if (!posted) throw new Error('nothing posted')
    const forged = posted.body.replace('"amount":1000', '"amount":1')
    await expect(payments.verifyWebhook(forged, posted.signature, Date.now())).rejects.toBeInstanceOf(
      WebhookSignatureError,
    )
  })

  test('a signed refund event without a usable refund is malformed, not acted on', async () => {
    const sign = (body: string) => stripeSignatureHeader(body, WEBHOOK_SECRET, Math.floor(Date.now() / 1000))
    const event = (object: unknown, type = 'refund.updated') =>
      JSON.stringify({ id: 'evt_malformed_refund', object: 'event', created: 1, type, data: { object } })
    const refund = {
      id: 're_1',
      object: 'refund',
      amount: 100,
      currency: 'usd',
      status: 'succeeded',
      metadata: {},
    }
    for (const bad of [
      { ...refund, amount: -1 },
      { ...refund, amount: 1.5 },
      { ...refund, amount: '100' },
      { ...refund, id: 'has space' },
      { ...refund, object: 'charge' },
    ]) {
      const body = event(bad)
      await expect(payments.verifyWebhook(body, sign(body), Date.now())).rejects.toBeInstanceOf(
        MalformedWebhookEventError,
      )
    }
    const charge = { id: 'ch_1', object: 'charge', amount: 100, amount_refunded: 'all', currency: 'usd' }
    const body = event(charge, 'charge.refunded')
    await expect(payments.verifyWebhook(body, sign(body), Date.now())).rejects.toBeInstanceOf(
      MalformedWebhookEventError,
    )
  })

  test('other event types are kept as other: no session, no refund', async () => {
    const body = JSON.stringify({
      id: 'evt_other_type',
      object: 'event',
      created: 1,
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_1', object: 'payment_intent' } },
    })
    const event = await payments.verifyWebhook(
      body,
      stripeSignatureHeader(body, WEBHOOK_SECRET, Math.floor(Date.now() / 1000)),
      Date.now(),
    )
    expect(event).toEqual({
      id: 'evt_other_type',
      type: 'payment_intent.succeeded',
      created: 1,
      kind: 'other',
      session: null,
      refund: null,
    })
  })
})
