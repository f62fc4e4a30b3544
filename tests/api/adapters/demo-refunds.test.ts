// The demo payment provider's refunds: kept in the shop's database (so they survive a restart), one per
// idempotency key, never more than was paid, and announced with the same signed events Stripe sends,
// delivered to the shop's webhook.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import {
  createDemoPayments,
  type DemoWebhookDelivery,
  postToWebhook,
} from '../../../api/adapters/demo-payments'
import {
  type CheckoutSessionRequest,
  type DemoPaymentProvider,
  type PaymentEvent,
  type RefundPaymentEvent,
  RefundRefusedError,
  type RefundRequest,
} from '../../../api/adapters/types'
import { fixedClock } from '../../../api/lib/clock'
import { type DatabaseHandle, openDatabase } from '../../../db/client'
import { demoPaymentEvents, demoPaymentRefunds } from '../../../db/schema/checkout'
import { webhookEvents } from '../../../db/schema/webhooks'
import { DEMO_CARD } from '../checkout/helpers'
import { createTestApp, type TestApp } from '../support/test-app'

const dir = mkdtempSync(join(tmpdir(), 'demo-refunds-'))
const databaseUrl = `file:${join(dir, 'shop.db')}`
const clock = fixedClock(new Date('2026-03-02T15:00:00Z'))

/** The shop's end of the webhook: what arrived, verified by the provider as the route verifies it. */
const inbox = {
  up: true,
  bodies: [] as string[],
  events: [] as PaymentEvent[],
}

let database: DatabaseHandle
let demo: DemoPaymentProvider

function provider(db: DatabaseHandle): DemoPaymentProvider {
  const deliver: DemoWebhookDelivery = async (rawBody, signature) => {
    if (!inbox.up) return false
    inbox.events.push(await provider.verifyWebhook(rawBody, signature, clock.now().getTime()))
    inbox.bodies.push(rawBody)
    return true
  }
  const provider = createDemoPayments(db.db, clock, { deliver })
  return provider
}

beforeAll(async () => {
  database = await openDatabase(databaseUrl)
  demo = provider(database)
})
afterAll(() => {
  database.close()
  rmSync(dir, { recursive: true, force: true })
})

let sessions = 0
/** A paid demo session of `total` cents (shipping included); returns what a refund names. */
async function paidSession(total = 5000): Promise<string> {
  sessions += 1
  const request: CheckoutSessionRequest = {
    customerEmail: 'dana@example.com',
    lineItems: [{ name: 'Cedar Beard Oil', unitAmountCents: total - 500, quantity: 1, productId: 1 }],
    shipping: {
      amountCents: 500,
      displayName: 'USPS Ground Advantage',
      estimate: { minDays: 3, maxDays: 5 },
    },
    metadata: { checkout: `demo-refund-${sessions}` },
    idempotencyKey: `demo-refund-session-${sessions}`,
  }
  const session = await demo.createCheckoutSession(request)
  expect(await demo.markPaid(session.id)).toBe(true)
  const paid = await demo.retrieveSession(session.id)
  if (!paid?.paymentRef) throw new Error('a paid demo session names its payment')
  return paid.paymentRef
}

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
    idempotencyKey: `demo-refund-${keys}`,
    metadata: { order_number: '000007' },
    ...extra,
  }
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  if (!(error instanceof RefundRefusedError)) throw new Error(`expected a refusal, got ${String(error)}`)
  return error.refusal
}

function refundEvents(type: string, paymentRef: string): RefundPaymentEvent[] {
  return inbox.events.filter(
    (event): event is RefundPaymentEvent =>
      event.kind === 'refund' && event.type === type && event.refund.paymentRef === paymentRef,
  )
}

async function refundRows(paymentRef: string) {
  const sessionId = `cs_test_demo_${paymentRef.slice('pi_demo_'.length)}`
  return database.db.select().from(demoPaymentRefunds).where(eq(demoPaymentRefunds.sessionId, sessionId))
}

describe('a paid demo session says what to refund', () => {
  test('its payment once paid, and the currency; nothing before', async () => {
    const session = await demo.createCheckoutSession({
      customerEmail: 'dana@example.com',
      lineItems: [{ name: 'Cedar Beard Oil', unitAmountCents: 2100, quantity: 1, productId: 1 }],
      shipping: {
        amountCents: 695,
        displayName: 'USPS Ground Advantage',
        estimate: { minDays: 3, maxDays: 5 },
      },
      metadata: {},
      idempotencyKey: 'demo-refund-unpaid',
    })
    expect(session).toMatchObject({ paymentRef: null, currency: 'usd' })
    const prepared = await demo.preparePayment(session.id, DEMO_CARD)
    if (!prepared.ok) throw new Error(prepared.message)
    const paymentRef = `pi_demo_${session.id.slice('cs_test_demo_'.length)}`
    expect(prepared.event.session).toMatchObject({ paymentRef, currency: 'usd', paymentStatus: 'paid' })
    expect(await demo.retrieveSession(session.id)).toMatchObject({ paymentRef: null })
    await demo.markPaid(session.id)
    expect(await demo.retrieveSession(session.id)).toMatchObject({ paymentRef, currency: 'usd' })
  })
})

describe('demo refunds', () => {
  // Each test starts once the deliveries its predecessor started are over.
  afterEach(async () => {
    inbox.up = true
    await demo.deliverEvents()
  })

  test('a full refund succeeds at once and is announced: refund.created, then charge.refunded', async () => {
    const paymentRef = await paidSession(4290)
    const request = refundOf(paymentRef, 4290, { reason: 'Cancelled before shipping' })
    const refund = await demo.refund(request)
    expect(refund).toMatchObject({
      paymentRef,
      amountCents: 4290,
      currency: 'usd',
      status: 'succeeded',
      failureReason: null,
    })
    expect(refund.metadata).toEqual({
      order_number: '000007',
      refund_key: request.idempotencyKey,
      reason: 'Cancelled before shipping',
    })
    expect(refund.id).toMatch(/^re_demo_/)

    expect(await demo.deliverEvents()).toBe(0)
    const created = refundEvents('refund.created', paymentRef)
    const refunded = refundEvents('charge.refunded', paymentRef)
    expect(created.map((event) => event.refund.refunds)).toEqual([[refund]])
    expect(refunded.map((event) => event.refund.amountRefundedCents)).toEqual([4290])
    expect(inbox.events.indexOf(created[0] as PaymentEvent)).toBeLessThan(
      inbox.events.indexOf(refunded[0] as PaymentEvent),
    )
    expect(JSON.parse(inbox.bodies.at(-1) ?? '{}').data.object).toMatchObject({
      refunded: true,
      amount: 4290,
    })
  })

  test('partial refunds add up to what was paid and no further', async () => {
    const paymentRef = await paidSession(5000)
    await demo.refund(refundOf(paymentRef, 1250))
    await demo.refund(refundOf(paymentRef, 2000))
    expect(await refusal(demo.refund(refundOf(paymentRef, 1751)))).toBe('amount_too_large')
    await demo.refund(refundOf(paymentRef, 1750))
    expect(await refusal(demo.refund(refundOf(paymentRef, 1)))).toBe('already_refunded')

    await demo.deliverEvents()
    expect(
      refundEvents('charge.refunded', paymentRef).map((event) => event.refund.amountRefundedCents),
    ).toEqual([1250, 3250, 5000])
    expect((await refundRows(paymentRef)).map((row) => row.amount)).toEqual([1250, 2000, 1750])
  })

  test('the same key again answers the same refund, even asked twenty times at once', async () => {
    const paymentRef = await paidSession(3000)
    const request = refundOf(paymentRef, 3000)
    const answers = await Promise.all(Array.from({ length: 20 }, () => demo.refund({ ...request })))
    for (const answer of answers) expect(answer).toEqual(answers[0] as (typeof answers)[number])
    expect(await refundRows(paymentRef)).toHaveLength(1)
    await demo.deliverEvents()
    expect(refundEvents('refund.created', paymentRef)).toHaveLength(1)

    expect(await demo.findRefund(paymentRef, request.idempotencyKey)).toEqual(
      answers[0] as (typeof answers)[number],
    )
    expect(await demo.findRefund(paymentRef, 'demo-refund-never-made')).toBeNull()
    expect(await demo.findRefund('pi_demo_nothing', request.idempotencyKey)).toBeNull()

    expect(await refusal(demo.refund({ ...request, amountCents: 100 }))).toBe('idempotency_conflict')
    expect(await refusal(demo.refund({ ...request, metadata: { order_number: '000008' } }))).toBe(
      'idempotency_conflict',
    )
  })

  test('twenty refunds of the whole amount at once, each with its own key: one refunds', async () => {
    const paymentRef = await paidSession(2600)
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        demo.refund(refundOf(paymentRef, 2600)).then(
          () => 'refunded',
          (error: unknown) => (error instanceof RefundRefusedError ? error.refusal : String(error)),
        ),
      ),
    )
    expect(outcomes.filter((outcome) => outcome === 'refunded')).toHaveLength(1)
    expect(outcomes.filter((outcome) => outcome === 'already_refunded')).toHaveLength(19)
    expect((await refundRows(paymentRef)).map((row) => row.amount)).toEqual([2600])
  })

  test('an unknown or unpaid payment, or a bad amount, is refused', async () => {
    expect(await refusal(demo.refund(refundOf('pi_demo_nothing', 100)))).toBe('unknown_payment')
    expect(await refusal(demo.refund(refundOf('pi_3Nsomethingelse', 100)))).toBe('unknown_payment')
    const unpaid = await demo.createCheckoutSession({
      customerEmail: 'dana@example.com',
      lineItems: [{ name: 'Cedar Beard Oil', unitAmountCents: 2100, quantity: 1, productId: 1 }],
      shipping: {
        amountCents: 0,
        displayName: 'USPS Ground Advantage',
        estimate: { minDays: 3, maxDays: 5 },
      },
      metadata: {},
      idempotencyKey: 'demo-refund-never-paid',
    })
    const unpaidRef = `pi_demo_${unpaid.id.slice('cs_test_demo_'.length)}`
    expect(await refusal(demo.refund(refundOf(unpaidRef, 100)))).toBe('unknown_payment')

    const paymentRef = await paidSession(1000)
    for (const amount of [0, -5, 10.5, Number.NaN]) {
      expect(await refusal(demo.refund(refundOf(paymentRef, amount)))).toBe('refused')
    }
    expect(await refundRows(paymentRef)).toEqual([])
  })

  test('a failed refund is announced with refund.failed, and its amount can be refunded again', async () => {
    const paymentRef = await paidSession(2700)
    const refund = await demo.refund(refundOf(paymentRef, 2700))
    const failed = await demo.failRefund(refund.id, 'expired_or_canceled_card')
    expect(failed).toMatchObject({
      id: refund.id,
      status: 'failed',
      failureReason: 'expired_or_canceled_card',
    })
    // Failing it again changes nothing and announces nothing more.
    expect(await demo.failRefund(refund.id, 'lost_or_stolen_card')).toEqual(failed)
    await demo.deliverEvents()
    const events = refundEvents('refund.failed', paymentRef)
    expect(events.map((event) => event.refund.refunds)).toEqual([[failed]])
    expect(refundEvents('refund.updated', paymentRef)).toHaveLength(1)
    expect(refundEvents('charge.refund.updated', paymentRef)).toHaveLength(1)

    const again = await demo.refund(refundOf(paymentRef, 2700))
    expect(again.status).toBe('succeeded')
    await expect(demo.failRefund('re_demo_unknown')).rejects.toBeInstanceOf(RefundRefusedError)
  })

  test('events the webhook did not take stay queued and go at the next delivery, each once', async () => {
    const paymentRef = await paidSession(1500)
    inbox.up = false
    await demo.refund(refundOf(paymentRef, 500))
    expect(await demo.deliverEvents()).toBe(0)
    expect(refundEvents('refund.created', paymentRef)).toEqual([])
    const queued = await database.db
      .select()
      .from(demoPaymentEvents)
      .where(eq(demoPaymentEvents.type, 'refund.created'))
    expect(queued.filter((row) => row.deliveredAt === null).map((row) => row.attempts)).toEqual([2])

    inbox.up = true
    expect(await demo.deliverEvents()).toBe(2)
    expect(await demo.deliverEvents()).toBe(0)
    expect(refundEvents('refund.created', paymentRef)).toHaveLength(1)
    expect(refundEvents('charge.refunded', paymentRef)).toHaveLength(1)
  })

  test('refunds and undelivered events survive a restart', async () => {
    const paymentRef = await paidSession(4000)
    inbox.up = false
    const request = refundOf(paymentRef, 3000)
    const refund = await demo.refund(request)
    await demo.deliverEvents()

    // The process stops; a new one opens the same database.
    database.close()
    database = await openDatabase(databaseUrl)
    demo = provider(database)
    inbox.up = true

    expect(await demo.refund({ ...request })).toEqual(refund)
    expect(await refusal(demo.refund(refundOf(paymentRef, 1001)))).toBe('amount_too_large')
    expect(await demo.deliverEvents()).toBe(2)
    expect(refundEvents('refund.created', paymentRef).map((event) => event.refund.refunds[0]?.id)).toEqual([
      refund.id,
    ])
  })
})

describe('demo refund events reach the shop through its webhook', () => {
  let shop: TestApp
  let server: ReturnType<typeof Bun.serve>
  beforeAll(async () => {
    // The shop listening on a port, and the demo provider posting to its webhook over HTTP, as it does by
    // default (to PUBLIC_URL).
    server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => shop.app.handle(request) })
    shop = await createTestApp({}, (base) => ({
      payments: createDemoPayments(base.db, base.clock, {
        deliver: postToWebhook(`http://127.0.0.1:${server.port}/api/stripe/webhook`),
      }),
    }))
  })
  afterAll(() => {
    server.stop(true)
    shop.close()
  })

  test('signed with the demo secret, verified and stored once each', async () => {
    const payments = shop.deps.payments as DemoPaymentProvider
    const session = await payments.createCheckoutSession({
      customerEmail: 'dana@example.com',
      lineItems: [{ name: 'Cedar Beard Oil', unitAmountCents: 2100, quantity: 1, productId: 1 }],
      shipping: {
        amountCents: 0,
        displayName: 'USPS Ground Advantage',
        estimate: { minDays: 3, maxDays: 5 },
      },
      metadata: {},
      idempotencyKey: 'demo-refund-through-webhook',
    })
    await payments.markPaid(session.id)
    const paymentRef = (await payments.retrieveSession(session.id))?.paymentRef
    if (!paymentRef) throw new Error('no payment')
    await payments.refund({ paymentRef, amountCents: 2100, idempotencyKey: 'through-webhook', metadata: {} })
    await payments.deliverEvents()
    const stored = await shop.deps.db.select().from(webhookEvents)
    expect(stored.map((row) => row.eventType).sort()).toEqual(['charge.refunded', 'refund.created'])
    expect(await payments.deliverEvents()).toBe(0)
  })
})
