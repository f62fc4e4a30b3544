/**
 * The built-in demo payment provider: sessions live in our own database, the /checkout page shows a
 * test-card form, and a successful payment produces the same `checkout.session.completed` event Stripe
 * would send, handled by the same webhook service. Refunds are kept in the same database and announced
 * with Stripe's refund events, signed and posted to the shop's webhook. It runs only where it cannot take a
 * real order: at a loopback PUBLIC_URL or with DEMO_PAYMENTS=true, never in production or beside a Shippo
 * key (api/env.ts).
 */
import { randomBytes } from 'node:crypto'
import { cardDigits, demoCardProblems } from '@core/rules/demo-card'
import { CHARGE_CURRENCY } from '@core/rules/money'
import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm'
import Stripe from 'stripe'
import type { Database } from '../../db/client'
import { demoPaymentEvents, demoPaymentRefunds, demoPaymentSessions } from '../../db/schema/checkout'
import type { Clock } from '../lib/clock'
import { errorMessage, log } from '../lib/log'
import { builtOnce, placeholders } from '../lib/statements'
import { refundMetadata, toPaymentEvent, toProviderRefund, verifyStripeSignature } from './stripe'
import {
  type CheckoutSessionRequest,
  type DemoCard,
  type DemoPaymentProvider,
  type ProviderRefund,
  type ProviderSession,
  RefundRefusedError,
  type RefundRequest,
} from './types'

/**
 * Signs webhooks posted to /api/stripe/webhook while the demo provider is active (load tests, scripts).
 * Public on purpose: in development anyone may pay with the test card anyway.
 */
export const DEMO_WEBHOOK_SECRET = 'whsec_demo_payments_development_only'

export const DEMO_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
} as const

/** Like Stripe: an unpaid session expires after 24 hours. */
const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

function randomId(length: number): string {
  const bytes = randomBytes(length)
  let out = ''
  for (const byte of bytes) out += BASE62[byte % 62]
  return out
}

export type CardCheck = { ok: true } | { ok: false; status: 402 | 422; message: string }

/**
 * The demo's card rules: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined (Stripe's own test
 * numbers), any future expiry and any 3-digit code. Field errors come first so the form can say which
 * field to fix: the first the shared rules find (core/rules/demo-card.ts), the name first.
 */
export function checkDemoCard(card: DemoCard, now: Date): CardCheck {
  const problems = demoCardProblems(card, now)
  const problem = problems.name ?? problems.cardNumber ?? problems.expiry ?? problems.cvc
  if (problem) return { ok: false, status: 422, message: problem }
  const number = cardDigits(card.cardNumber)
  if (number === DEMO_CARDS.declined) {
    return { ok: false, status: 402, message: 'Your card was declined. No payment was taken.' }
  }
  if (number !== DEMO_CARDS.success) {
    return {
      ok: false,
      status: 402,
      message: 'Your card was declined. This demo checkout accepts the test card 4242 4242 4242 4242.',
    }
  }
  return { ok: true }
}

/**
 * Hands one signed event to the shop's webhook; true when it was taken (a 2xx). The demo provider's
 * stand-in for Stripe's delivery.
 */
export type DemoWebhookDelivery = (rawBody: string, signatureHeader: string) => Promise<boolean>

export interface DemoPaymentsOptions {
  /** Where events go; without it they are kept until `deliverEvents` has somewhere to send them. */
  deliver?: DemoWebhookDelivery
}

/** Posts events to a webhook URL as Stripe does: the JSON body as signed, a Stripe-Signature header. */
export function postToWebhook(url: string, timeoutMs = 10_000): DemoWebhookDelivery {
  return async (rawBody, signatureHeader) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signatureHeader },
      body: rawBody,
      signal: AbortSignal.timeout(timeoutMs),
    })
    await response.arrayBuffer()
    return response.ok
  }
}

type DemoRow = typeof demoPaymentSessions.$inferSelect
type RefundRow = typeof demoPaymentRefunds.$inferSelect

const SESSION_PREFIX = 'cs_test_demo_'
const PAYMENT_PREFIX = 'pi_demo_'

/** A paid session's payment and charge ids, made from the session's own so no table is needed for them. */
function paymentRefFor(sessionId: string): string {
  return `${PAYMENT_PREFIX}${sessionId.slice(SESSION_PREFIX.length)}`
}
function chargeRefFor(sessionId: string): string {
  return `ch_demo_${sessionId.slice(SESSION_PREFIX.length)}`
}
function sessionIdFor(paymentRef: string): string | null {
  return paymentRef.startsWith(PAYMENT_PREFIX)
    ? `${SESSION_PREFIX}${paymentRef.slice(PAYMENT_PREFIX.length)}`
    : null
}

/** Refunds that hold money: what is left to refund is the total less these. */
const HOLDING_STATUSES = ['pending', 'succeeded'] as const

function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000)
}

function sessionStatus(row: DemoRow, now: Date): DemoRow['status'] {
  if (row.status === 'open' && now.getTime() - row.createdAt.getTime() > SESSION_LIFETIME_MS) return 'expired'
  return row.status
}

function toSession(row: DemoRow, now: Date): ProviderSession & { clientSecret: string } {
  const request = JSON.parse(row.request) as CheckoutSessionRequest
  return {
    id: row.id,
    clientSecret: row.clientSecret,
    status: sessionStatus(row, now),
    paymentStatus: row.paymentStatus,
    amountTotal: row.amountTotal,
    paymentRef: row.paymentStatus === 'paid' ? paymentRefFor(row.id) : null,
    currency: row.currency,
    customerEmail: row.customerEmail,
    metadata: request.metadata,
  }
}

/** The Stripe-shaped refund object, so demo refunds read exactly like Stripe's. */
function stripeShapedRefund(row: RefundRow) {
  return {
    id: row.id,
    object: 'refund',
    amount: row.amount,
    balance_transaction: null,
    charge: chargeRefFor(row.sessionId),
    created: epochSeconds(row.createdAt),
    currency: row.currency,
    ...(row.failureReason ? { failure_reason: row.failureReason } : {}),
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    payment_intent: paymentRefFor(row.sessionId),
    reason: 'requested_by_customer',
    receipt_number: null,
    status: row.status,
  }
}

function toRefund(row: RefundRow): ProviderRefund {
  return toProviderRefund(stripeShapedRefund(row) as unknown as Stripe.Refund)
}

/** The Stripe-shaped charge of a paid session; `amount_refunded` and `refunded` are filled in by SQL. */
function stripeShapedCharge(row: DemoRow) {
  const request = JSON.parse(row.request) as CheckoutSessionRequest
  return {
    id: chargeRefFor(row.id),
    object: 'charge',
    amount: row.amountTotal,
    amount_captured: row.amountTotal,
    amount_refunded: 0,
    captured: true,
    created: epochSeconds(row.updatedAt),
    currency: row.currency,
    livemode: false,
    metadata: request.metadata,
    paid: true,
    payment_intent: paymentRefFor(row.id),
    refunded: false,
    status: 'succeeded',
  }
}

/** An event as Stripe sends it, as JSON text. */
function eventPayload(id: string, type: string, object: unknown, now: Date): string {
  return JSON.stringify({
    id,
    object: 'event',
    created: epochSeconds(now),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  })
}

/** A refund request's parameters, compared when the same key comes again. */
function refundParams(request: RefundRequest, metadata: Record<string, string>): string {
  const sorted = Object.entries(metadata).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return JSON.stringify([request.paymentRef, request.amountCents, sorted])
}

/** The Stripe-shaped checkout.session object, so demo events parse exactly like Stripe's. */
function stripeShapedSession(row: DemoRow, now: Date) {
  const request = JSON.parse(row.request) as CheckoutSessionRequest
  return {
    id: row.id,
    object: 'checkout.session',
    amount_subtotal: row.amountTotal - request.shipping.amountCents,
    amount_total: row.amountTotal,
    client_secret: row.clientSecret,
    created: Math.floor(row.createdAt.getTime() / 1000),
    currency: row.currency,
    customer_email: row.customerEmail,
    customer_details: { email: row.customerEmail },
    livemode: false,
    metadata: request.metadata,
    mode: 'payment',
    payment_intent: row.paymentStatus === 'paid' ? paymentRefFor(row.id) : null,
    payment_status: row.paymentStatus,
    status: sessionStatus(row, now),
    ui_mode: 'embedded_page',
  }
}

/** The columns a new session is written with; the others keep their defaults (open, unpaid). */
const NEW_SESSION_COLUMNS = [
  'id',
  'clientSecret',
  'idempotencyKey',
  'amountTotal',
  'currency',
  'customerEmail',
  'request',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof typeof demoPaymentSessions.$inferInsert)[]

type NewSession = Pick<typeof demoPaymentSessions.$inferInsert, (typeof NEW_SESSION_COLUMNS)[number]>

export function createDemoPayments(
  db: Database,
  clock: Clock,
  options: DemoPaymentsOptions = {},
): DemoPaymentProvider {
  // Only the signature helpers are used; this client never makes a network call.
  const stripe = new Stripe('sk_test_demo_payments_offline')
  // Every checkout opens a session: its INSERT is built once (api/lib/statements.ts).
  const insertSession = builtOnce<NewSession>(() =>
    db
      .insert(demoPaymentSessions)
      .values(placeholders(NEW_SESSION_COLUMNS))
      .onConflictDoNothing({ target: demoPaymentSessions.idempotencyKey }),
  )

  async function load(id: string): Promise<DemoRow | undefined> {
    const [row] = await db.select().from(demoPaymentSessions).where(eq(demoPaymentSessions.id, id)).limit(1)
    return row
  }

  async function refundByKey(key: string): Promise<RefundRow | undefined> {
    const [row] = await db
      .select()
      .from(demoPaymentRefunds)
      .where(eq(demoPaymentRefunds.idempotencyKey, key))
      .limit(1)
    return row
  }

  async function refundById(id: string): Promise<RefundRow | undefined> {
    const [row] = await db.select().from(demoPaymentRefunds).where(eq(demoPaymentRefunds.id, id)).limit(1)
    return row
  }

  /** The same key answers its refund, but only for the same parameters, as Stripe does. */
  function answerFor(row: RefundRow, params: string): ProviderRefund {
    if (row.params !== params) {
      throw new RefundRefusedError(
        'idempotency_conflict',
        'Keys for idempotent requests can only be used with the same parameters they were first used with.',
      )
    }
    return toRefund(row)
  }

  /** What a paid session has refunded so far (pending and succeeded refunds), in SQL. */
  const refundedSql = (sessionId: string) =>
    sql`(select coalesce(sum(amount), 0) from ${demoPaymentRefunds} where session_id = ${sessionId} and status in ('pending', 'succeeded'))`

  /**
   * Queues an event in the batch that makes the change it announces, if `when` holds at that moment.
   * `payload` builds the event's JSON around its id (text, or SQL that computes part of it).
   */
  function queueEvent(type: string, payload: (eventId: string) => string | SQL, when: SQL, now: Date) {
    const eventId = `evt_demo_${randomId(24)}`
    return db.run(
      sql`insert into ${demoPaymentEvents} (id, type, payload, created_at, attempts)
        select ${eventId}, ${type}, ${payload(eventId)}, ${now.getTime()}, 0 where ${when}`,
    )
  }

  let delivering: Promise<number> | null = null

  /** One pass over the events not yet taken, oldest first (rowid keeps a batch's events in order). */
  async function deliverPending(deliver: DemoWebhookDelivery): Promise<number> {
    const pending = await db
      .select({ id: demoPaymentEvents.id, payload: demoPaymentEvents.payload })
      .from(demoPaymentEvents)
      .where(isNull(demoPaymentEvents.deliveredAt))
      .orderBy(asc(demoPaymentEvents.createdAt), sql`rowid`)
      .limit(100)
    let taken = 0
    for (const event of pending) {
      const signature = await stripe.webhooks.generateTestHeaderStringAsync({
        payload: event.payload,
        secret: DEMO_WEBHOOK_SECRET,
        timestamp: epochSeconds(clock.now()),
      })
      let ok = false
      try {
        ok = await deliver(event.payload, signature)
      } catch (error) {
        log.warn('demo payment event not delivered', { event: event.id, error: errorMessage(error) })
      }
      if (ok) {
        taken += 1
        await db
          .update(demoPaymentEvents)
          .set({ deliveredAt: clock.now() })
          .where(and(eq(demoPaymentEvents.id, event.id), isNull(demoPaymentEvents.deliveredAt)))
      } else {
        await db
          .update(demoPaymentEvents)
          .set({ attempts: sql`${demoPaymentEvents.attempts} + 1` })
          .where(eq(demoPaymentEvents.id, event.id))
      }
    }
    return taken
  }

  /** One pass at a time in this process: a call made during a pass waits for it, then makes its own. */
  async function deliverEvents(): Promise<number> {
    const deliver = options.deliver
    if (!deliver) return 0
    while (delivering) await delivering.catch(() => 0)
    const pass = deliverPending(deliver).finally(() => {
      delivering = null
    })
    delivering = pass
    return pass
  }

  /** Sends new events without holding up the answer, as Stripe does; a failed pass is retried later. */
  function deliverSoon(): void {
    if (!options.deliver) return
    deliverEvents().catch((error: unknown) => {
      log.warn('demo payment events not delivered', { error: errorMessage(error) })
    })
  }

  return {
    name: 'demo',
    publishableKey: null,

    async createCheckoutSession(request) {
      const now = clock.now()
      const id = `cs_test_demo_${randomId(24)}`
      const amountTotal =
        request.lineItems.reduce((sum, item) => sum + item.unitAmountCents * item.quantity, 0) +
        request.shipping.amountCents
      const clientSecret = `${id}_secret_${randomId(24)}`
      // No RETURNING: the new row is what was just sent, so reading it back (with its request JSON, to
      // parse again) would only repeat it.
      const inserted = await insertSession.run({
        id,
        clientSecret,
        idempotencyKey: request.idempotencyKey,
        amountTotal,
        currency: CHARGE_CURRENCY,
        customerEmail: request.customerEmail,
        request: JSON.stringify(request),
        createdAt: now,
        updatedAt: now,
      })
      if (inserted.rowsAffected > 0) {
        return {
          id,
          clientSecret,
          status: 'open',
          paymentStatus: 'unpaid',
          amountTotal,
          paymentRef: null,
          currency: CHARGE_CURRENCY,
          customerEmail: request.customerEmail,
          metadata: request.metadata,
        }
      }
      const [row] = await db
        .select()
        .from(demoPaymentSessions)
        .where(eq(demoPaymentSessions.idempotencyKey, request.idempotencyKey))
        .limit(1)
      if (!row) throw new Error('demo session vanished after insert')
      return toSession(row, now)
    },

    async retrieveSession(id) {
      const row = await load(id)
      return row ? toSession(row, clock.now()) : null
    },

    async expireSession(id) {
      const ended = await db
        .update(demoPaymentSessions)
        .set({ status: 'expired', updatedAt: clock.now() })
        .where(and(eq(demoPaymentSessions.id, id), eq(demoPaymentSessions.status, 'open')))
        .returning({ id: demoPaymentSessions.id })
      if (ended.length > 0) return 'expired'
      const row = await load(id)
      return row?.status === 'complete' ? 'complete' : 'expired'
    },

    async describeSession(id) {
      const row = await load(id)
      if (!row) return null
      const request = JSON.parse(row.request) as CheckoutSessionRequest
      const status = sessionStatus(row, clock.now())
      return {
        sessionId: row.id,
        status,
        paymentStatus: row.paymentStatus,
        currency: row.currency,
        amountTotal: row.amountTotal,
        lineItems: request.lineItems.map((item) => ({
          name: item.name,
          description: item.description ?? '',
          quantity: item.quantity,
          unitAmount: item.unitAmountCents,
        })),
        shipping: {
          displayName: request.shipping.displayName,
          amount: request.shipping.amountCents,
          minDays: request.shipping.estimate.minDays,
          maxDays: request.shipping.estimate.maxDays,
        },
      }
    },

    async preparePayment(id, card) {
      const now = clock.now()
      const row = await load(id)
      if (!row) return { ok: false, status: 404, message: 'Checkout session not found.' }
      const status = sessionStatus(row, now)
      if (status === 'expired') {
        return {
          ok: false,
          status: 409,
          message: 'This checkout session has expired. Please return to your cart and try again.',
        }
      }
      const alreadyPaid = status === 'complete'
      if (!alreadyPaid) {
        const check = checkDemoCard(card, now)
        if (!check.ok) return check
      }
      const paid: DemoRow = { ...row, status: 'complete', paymentStatus: 'paid' }
      // One event per session, so every try (and a retry after a crash) finishes the same payment.
      const event = {
        id: `evt_demo_${row.id.slice('cs_test_demo_'.length)}`,
        object: 'event',
        type: 'checkout.session.completed',
        created: Math.floor(now.getTime() / 1000),
        livemode: false,
        data: { object: stripeShapedSession(paid, now) },
      }
      return { ok: true, event: toPaymentEvent(event as unknown as Stripe.Event), alreadyPaid }
    },

    async markPaid(id) {
      const now = clock.now()
      const paid = await db
        .update(demoPaymentSessions)
        .set({ status: 'complete', paymentStatus: 'paid', updatedAt: now })
        .where(and(eq(demoPaymentSessions.id, id), eq(demoPaymentSessions.status, 'open')))
        .returning({ id: demoPaymentSessions.id })
      return paid.length > 0
    },

    async verifyWebhook(rawBody, signatureHeader, receivedAtMs) {
      const event = await verifyStripeSignature(
        stripe,
        rawBody,
        signatureHeader,
        DEMO_WEBHOOK_SECRET,
        receivedAtMs,
      )
      return toPaymentEvent(event)
    },

    /**
     * One batch: the refund, inserted only while what was paid less what is refunded covers it (so
     * parallel refunds never return more than was paid), and its events, inserted only with it. The
     * `charge.refunded` event's amount refunded is summed in the same transaction.
     */
    async refund(request) {
      const amount = request.amountCents
      if (!Number.isSafeInteger(amount) || amount < 1) {
        throw new RefundRefusedError(
          'refused',
          'The refund amount must be a whole number of cents, at least 1.',
        )
      }
      const metadata = refundMetadata(request)
      const params = refundParams(request, metadata)
      const earlier = await refundByKey(request.idempotencyKey)
      if (earlier) return answerFor(earlier, params)

      const sessionId = sessionIdFor(request.paymentRef)
      const session = sessionId ? await load(sessionId) : undefined
      if (!sessionId || !session || session.paymentStatus !== 'paid') {
        throw new RefundRefusedError('unknown_payment', 'No such paid payment to refund.')
      }
      const now = clock.now()
      const row: RefundRow = {
        id: `re_demo_${randomId(24)}`,
        sessionId,
        idempotencyKey: request.idempotencyKey,
        params,
        amount,
        currency: session.currency,
        status: 'succeeded',
        failureReason: null,
        metadata: JSON.stringify(metadata),
        createdAt: now,
        updatedAt: now,
      }
      const made = sql`exists (select 1 from ${demoPaymentRefunds} where id = ${row.id})`
      const charge = stripeShapedCharge(session)
      await db.batch([
        db.run(
          sql`insert into ${demoPaymentRefunds}
              (id, session_id, idempotency_key, params, amount, currency, status, failure_reason, metadata,
               created_at, updated_at)
            select ${row.id}, ${sessionId}, ${row.idempotencyKey}, ${params}, ${amount}, ${row.currency},
                   'succeeded', null, ${row.metadata}, ${now.getTime()}, ${now.getTime()}
            where ${session.amountTotal} - ${refundedSql(sessionId)} >= ${amount}
            on conflict (idempotency_key) do nothing`,
        ),
        queueEvent(
          'refund.created',
          (eventId) => eventPayload(eventId, 'refund.created', stripeShapedRefund(row), now),
          made,
          now,
        ),
        queueEvent(
          'charge.refunded',
          (eventId) =>
            sql`json_set(${eventPayload(eventId, 'charge.refunded', charge, now)},
                '$.data.object.amount_refunded', ${refundedSql(sessionId)},
                '$.data.object.refunded', json(case when ${refundedSql(sessionId)} >= ${session.amountTotal} then 'true' else 'false' end))`,
          made,
          now,
        ),
      ])

      const stored = await refundByKey(request.idempotencyKey)
      if (stored) {
        if (stored.id === row.id) deliverSoon()
        return answerFor(stored, params)
      }
      const [{ refunded = 0 } = {}] = await db.all<{ refunded: number }>(
        sql`select ${refundedSql(sessionId)} as refunded`,
      )
      const left = session.amountTotal - refunded
      if (left <= 0)
        throw new RefundRefusedError('already_refunded', 'This payment has already been refunded.')
      throw new RefundRefusedError(
        'amount_too_large',
        `Refund amount (${amount} cents) is greater than the unrefunded amount (${left} cents).`,
      )
    },

    async findRefund(paymentRef, idempotencyKey) {
      const row = await refundByKey(idempotencyKey)
      return row && paymentRefFor(row.sessionId) === paymentRef ? toRefund(row) : null
    },

    async listRefunds(paymentRef) {
      const sessionId = sessionIdFor(paymentRef)
      if (sessionId === null) return []
      const rows = await db
        .select()
        .from(demoPaymentRefunds)
        .where(eq(demoPaymentRefunds.sessionId, sessionId))
        .orderBy(desc(demoPaymentRefunds.createdAt))
      return rows.map(toRefund)
    },

    async failRefund(refundId, reason = 'unknown') {
      const row = await refundById(refundId)
      if (!row) throw new RefundRefusedError('refused', 'No such refund.')
      if (row.status === 'failed' || row.status === 'canceled') return toRefund(row)
      const now = clock.now()
      const failed: RefundRow = { ...row, status: 'failed', failureReason: reason, updatedAt: now }
      const object = stripeShapedRefund(failed)
      // The events first, each only while the refund can still fail; then the change they announce.
      const failable = sql`exists (select 1 from ${demoPaymentRefunds} where id = ${row.id} and status in ('pending', 'succeeded'))`
      const announce = (type: string) =>
        queueEvent(type, (eventId) => eventPayload(eventId, type, object, now), failable, now)
      const [, , , changed] = await db.batch([
        announce('refund.updated'),
        announce('charge.refund.updated'),
        announce('refund.failed'),
        db
          .update(demoPaymentRefunds)
          .set({ status: 'failed', failureReason: reason, updatedAt: now })
          .where(
            and(eq(demoPaymentRefunds.id, row.id), inArray(demoPaymentRefunds.status, [...HOLDING_STATUSES])),
          ),
      ])
      if (changed.rowsAffected > 0) deliverSoon()
      const after = await refundById(row.id)
      if (!after) throw new Error('demo refund vanished after failing it')
      return toRefund(after)
    },

    deliverEvents,
  }
}
