/**
 * The built-in demo payment provider: sessions live in our own database, the /checkout page shows a
 * test-card form, and a successful payment produces the same `checkout.session.completed` event Stripe
 * would send, handled by the same webhook service. It runs only where it cannot take a real order: at a
 * loopback PUBLIC_URL or with DEMO_PAYMENTS=true, never in production or beside a Shippo key (api/env.ts).
 */
import { randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import Stripe from 'stripe'
import type { Database } from '../../db/client'
import { demoPaymentSessions } from '../../db/schema/checkout'
import type { Clock } from '../lib/clock'
import { CHARGE_CURRENCY } from '../rules/money'
import { toPaymentEvent, verifyStripeSignature } from './stripe'
import type { CheckoutSessionRequest, PaymentEvent, PaymentProvider, ProviderSession } from './types'

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

export interface DemoCard {
  cardNumber: string
  expiry: string
  cvc: string
  name: string
}

export type CardCheck = { ok: true } | { ok: false; status: 402 | 422; message: string }

function luhn(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

/**
 * The demo's card rules: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined (Stripe's own test
 * numbers), any future expiry and any 3-digit code. Field errors come first so the form can say which
 * field to fix.
 */
export function checkDemoCard(card: DemoCard, now: Date): CardCheck {
  if (card.name.trim() === '')
    return { ok: false, status: 422, message: 'Please enter the name on the card.' }
  const number = card.cardNumber.replace(/[\s-]/g, '')
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) {
    return { ok: false, status: 422, message: 'Your card number is invalid.' }
  }
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(card.expiry)
  const month = Number(expiry?.[1])
  if (!expiry || month < 1 || month > 12) {
    return { ok: false, status: 422, message: 'Please enter the expiry date as MM/YY.' }
  }
  const yearText = expiry[2] ?? ''
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText)
  // A card is good through the last day of its expiry month.
  const lastValid = Date.UTC(year, month, 1)
  if (now.getTime() >= lastValid) return { ok: false, status: 422, message: 'Your card has expired.' }
  if (!/^\d{3}$/.test(card.cvc.trim())) {
    return { ok: false, status: 422, message: "Please enter the card's 3-digit security code." }
  }
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

/** What the demo checkout form shows: the amounts the customer is about to pay. */
/**
 * What the demo payment form shows. Anyone holding the session id can read it (it is in the checkout URL,
 * the browser history and the success page's link), so it carries nothing personal: no e-mail, no name,
 * no address; only what is being paid for.
 */
export interface DemoSessionSummary {
  sessionId: string
  status: 'open' | 'complete' | 'expired'
  paymentStatus: 'paid' | 'unpaid'
  currency: string
  /** Cents. */
  amountTotal: number
  lineItems: { name: string; quantity: number; unitAmount: number }[]
  shipping: { displayName: string; amount: number; minDays: number; maxDays: number }
}

export type DemoPayResult =
  | {
      ok: true
      /** The completed-session event for the webhook service; the same event for every try on a session. */
      event: PaymentEvent
      /** The session was paid before this try: the caller only finishes what that payment started. */
      alreadyPaid: boolean
    }
  | { ok: false; status: 402 | 404 | 409 | 422; message: string }

export interface DemoPaymentProvider extends PaymentProvider {
  readonly name: 'demo'
  describeSession(id: string): Promise<DemoSessionSummary | null>
  /**
   * Checks the session and the test card and returns the event a successful payment produces, without
   * marking anything paid: the caller stores the event first, then calls `markPaid`, so a crash in
   * between never leaves a paid session without its event.
   */
  preparePayment(id: string, card: DemoCard): Promise<DemoPayResult>
  /** One conditional UPDATE: of two simultaneous payments exactly one marks the session paid. */
  markPaid(id: string): Promise<boolean>
}

type DemoRow = typeof demoPaymentSessions.$inferSelect

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
    currency: row.currency,
    customerEmail: row.customerEmail,
    metadata: request.metadata,
  }
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
    payment_status: row.paymentStatus,
    status: sessionStatus(row, now),
    ui_mode: 'embedded_page',
  }
}

export function createDemoPayments(db: Database, clock: Clock): DemoPaymentProvider {
  // Only the signature helpers are used; this client never makes a network call.
  const stripe = new Stripe('sk_test_demo_payments_offline')

  async function load(id: string): Promise<DemoRow | undefined> {
    const [row] = await db.select().from(demoPaymentSessions).where(eq(demoPaymentSessions.id, id)).limit(1)
    return row
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
      const inserted = await db
        .insert(demoPaymentSessions)
        .values({
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
        .onConflictDoNothing({ target: demoPaymentSessions.idempotencyKey })
      if (inserted.rowsAffected > 0) {
        return {
          id,
          clientSecret,
          status: 'open',
          paymentStatus: 'unpaid',
          amountTotal,
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
  }
}
