/**
 * Stripe Checkout (embedded) through the official SDK. `host`/`port`/`protocol` point the SDK at another
 * API (tests use a local fake of Stripe's API, so the SDK's real request encoding is exercised).
 */

import { createHash, createHmac } from 'node:crypto'
import { CHARGE_CURRENCY } from '@core/rules/money'
import Stripe from 'stripe'
import {
  type CheckoutSessionRequest,
  MalformedWebhookEventError,
  type PaymentEvent,
  type PaymentProvider,
  PaymentProviderError,
  type ProviderRefund,
  type ProviderSession,
  REFUND_EVENT_TYPES,
  type RefundActivity,
  type RefundRefusal,
  RefundRefusedError,
  type RefundRequest,
  type RefundStatus,
  WEBHOOK_FUTURE_SKEW_SECONDS,
  WEBHOOK_TOLERANCE_SECONDS,
  WebhookSignatureError,
} from './types'

export interface StripeOptions {
  secretKey: string
  publishableKey: string
  webhookSecret: string
  /** The shop's public origin: the customer returns to `${publicUrl}/success?session_id=…`. */
  publicUrl: string
  host?: string
  port?: number
  protocol?: 'http' | 'https'
}

type StripeSession = Stripe.Checkout.Session

/** Stripe's currency when an object does not say: the shop charges in US dollars. */
const DEFAULT_CURRENCY = 'usd'

function stringMetadata(metadata: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  if (!metadata || typeof metadata !== 'object') return out
  for (const [key, value] of Object.entries(metadata)) {
    if (typeof value === 'string') out[key] = value
  }
  return out
}

/** An id field that may be expanded into its object (payment_intent, charge): the id either way. */
function expandableId(value: unknown): string | null {
  if (typeof value === 'string') return value
  if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string') {
    return (value as { id: string }).id
  }
  return null
}

function currencyOf(value: unknown): string {
  return typeof value === 'string' && value !== '' ? value.toLowerCase() : DEFAULT_CURRENCY
}

export function toProviderSession(session: StripeSession): ProviderSession {
  return {
    id: session.id,
    clientSecret: session.client_secret ?? null,
    status: session.status ?? 'open',
    paymentStatus: session.payment_status,
    amountTotal: session.amount_total ?? null,
    paymentRef: expandableId(session.payment_intent),
    currency: typeof session.currency === 'string' ? session.currency.toLowerCase() : null,
    customerEmail: session.customer_email ?? session.customer_details?.email ?? null,
    metadata: stringMetadata(session.metadata),
  } as ProviderSession
}

/**
 * What an event id may look like: Stripe's are short ASCII tokens (evt_…). It is stored as the event's
 * key and shown on the dashboard, so nothing else is taken. Refund, charge and payment ids are held to the
 * same rule: the shop stores them as keys too.
 */
const EVENT_ID = /^[\x21-\x7e]{1,255}$/

/** Stripe's refund statuses, as the shop counts them: `requires_action` is not done, so pending. */
const REFUND_STATUSES: Readonly<Record<string, RefundStatus>> = {
  pending: 'pending',
  requires_action: 'pending',
  succeeded: 'succeeded',
  failed: 'failed',
  canceled: 'canceled',
}

function isCents(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
}

function optionalId(value: unknown, what: string): string | null {
  const id = expandableId(value)
  if (id !== null && !EVENT_ID.test(id)) {
    throw new MalformedWebhookEventError(`The refund event's ${what} is not a valid id.`)
  }
  return id
}

/**
 * Reads a Stripe Refund object. Money is at stake, so a refund without a valid id or a whole, non-negative
 * amount is refused as malformed rather than guessed at; a status Stripe may add later counts as pending.
 */
export function toProviderRefund(refund: Stripe.Refund): ProviderRefund {
  const raw = refund as Partial<Record<keyof Stripe.Refund, unknown>>
  if (raw.object !== 'refund' || typeof raw.id !== 'string' || !EVENT_ID.test(raw.id)) {
    throw new MalformedWebhookEventError('The refund has no valid id.')
  }
  if (!isCents(raw.amount)) throw new MalformedWebhookEventError('The refund has no valid amount.')
  return {
    id: raw.id,
    paymentRef: optionalId(raw.payment_intent, 'payment'),
    amountCents: raw.amount,
    currency: currencyOf(raw.currency),
    status: (typeof raw.status === 'string' && REFUND_STATUSES[raw.status]) || 'pending',
    failureReason: typeof raw.failure_reason === 'string' ? raw.failure_reason : null,
    metadata: stringMetadata(raw.metadata),
    created: typeof raw.created === 'number' ? raw.created : 0,
  }
}

const REFUND_EVENTS: ReadonlySet<string> = new Set(REFUND_EVENT_TYPES)

/** The refunds a refund event carries: `charge.refunded` is about a charge, the others about one refund. */
function refundActivity(type: string, object: unknown): RefundActivity {
  if (type !== 'charge.refunded') {
    const refund = toProviderRefund(object as Stripe.Refund)
    return {
      paymentRef: refund.paymentRef,
      chargeRef: optionalId((object as { charge?: unknown }).charge, 'charge'),
      currency: refund.currency,
      amountRefundedCents: null,
      refunds: [refund],
    }
  }
  const charge = object as Partial<Record<keyof Stripe.Charge, unknown>>
  if (charge.object !== 'charge' || typeof charge.id !== 'string' || !EVENT_ID.test(charge.id)) {
    throw new MalformedWebhookEventError('The charge.refunded event has no valid charge.')
  }
  if (!isCents(charge.amount_refunded)) {
    throw new MalformedWebhookEventError('The charge.refunded event has no valid amount refunded.')
  }
  const listed = (charge.refunds as { data?: unknown } | null | undefined)?.data
  return {
    paymentRef: optionalId(charge.payment_intent, 'payment'),
    chargeRef: charge.id,
    currency: currencyOf(charge.currency),
    amountRefundedCents: charge.amount_refunded,
    refunds: Array.isArray(listed) ? listed.map((refund) => toProviderRefund(refund as Stripe.Refund)) : [],
  }
}

/** Reduces a verified Stripe event to what the shop acts on; refuses one it could not store or act on. */
export function toPaymentEvent(event: Stripe.Event): PaymentEvent {
  // Typed by the SDK, but only as trustworthy as the JSON that was signed: `null`, a number or an array
  // signs as well as an event does.
  const signed: unknown = event
  if (typeof signed !== 'object' || signed === null || Array.isArray(signed)) {
    throw new MalformedWebhookEventError('The webhook body is not an event object.')
  }
  const { id, type, created, data } = signed as Partial<Record<keyof Stripe.Event, unknown>>
  if (typeof id !== 'string' || !EVENT_ID.test(id)) {
    throw new MalformedWebhookEventError(
      'The webhook event has no valid id (a string of 1 to 255 characters without spaces).',
    )
  }
  if (typeof type !== 'string' || type === '') {
    throw new MalformedWebhookEventError('The webhook event has no type.')
  }
  const object = (data as { object?: { object?: unknown; id?: unknown } } | undefined)?.object
  const base = { id, type, created: typeof created === 'number' ? created : 0 }
  if (
    type.startsWith('checkout.session.') &&
    object?.object === 'checkout.session' &&
    typeof object.id === 'string'
  ) {
    return { ...base, kind: 'session', session: toProviderSession(object as StripeSession), refund: null }
  }
  if (REFUND_EVENTS.has(type)) {
    if (!object || typeof object !== 'object') {
      throw new MalformedWebhookEventError(`The ${type} event carries no object.`)
    }
    return { ...base, kind: 'refund', session: null, refund: refundActivity(type, object) }
  }
  return { ...base, kind: 'other', session: null, refund: null }
}

/** The `t=` of a Stripe-Signature header, read as Stripe's SDK reads it (the last one counts). */
function signatureTimestamp(header: string): number | null {
  let timestamp: number | null = null
  for (const item of header.split(',')) {
    const [key, value = ''] = item.split('=')
    if (key === 't') timestamp = Number.parseInt(value, 10)
  }
  return timestamp !== null && Number.isFinite(timestamp) ? timestamp : null
}

/**
 * The SDK's signature check with Bun's own HMAC (node:crypto, computed at once), as the SDK's
 * NodeCryptoProvider does under Node. Under Bun the SDK loads its Web Crypto provider, which imports the
 * secret as a key and hands each HMAC to another thread: about a tenth of a paid order's CPU time.
 */
const hmacProvider: Stripe.CryptoProvider = {
  computeHMACSignature: (payload, secret) =>
    createHmac('sha256', secret).update(payload, 'utf8').digest('hex'),
  computeHMACSignatureAsync: async (payload, secret) =>
    createHmac('sha256', secret).update(payload, 'utf8').digest('hex'),
  computeSHA256Async: async (data) => new Uint8Array(createHash('sha256').update(data).digest()),
}

/**
 * Verifies a Stripe-Signature header over the raw body with Stripe's SDK (HMAC, at most 300 s old) and
 * returns the event it signs. The SDK only checks age, so a timestamp more than a minute ahead of our clock
 * is refused here. Used by the Stripe adapter and by the demo provider, which signs the same way.
 */
export async function verifyStripeSignature(
  stripe: Stripe,
  rawBody: string,
  signatureHeader: string | null,
  secret: string,
  receivedAtMs: number,
): Promise<Stripe.Event> {
  if (!signatureHeader) throw new WebhookSignatureError('Missing Stripe-Signature header')
  let event: Stripe.Event
  try {
    // The SDK's own checks (signature over the raw body, compared in constant time; age within the
    // tolerance), with the HMAC above.
    event = stripe.webhooks.constructEvent(
      rawBody,
      signatureHeader,
      secret,
      WEBHOOK_TOLERANCE_SECONDS,
      hmacProvider,
      receivedAtMs,
    )
  } catch (error) {
    throw new WebhookSignatureError(error instanceof Error ? error.message : 'Invalid signature')
  }
  const signedAt = signatureTimestamp(signatureHeader)
  if (signedAt === null || signedAt - Math.floor(receivedAtMs / 1000) > WEBHOOK_FUTURE_SKEW_SECONDS) {
    throw new WebhookSignatureError('Timestamp too far in the future')
  }
  return event
}

function errorSummary(error: unknown): string {
  if (error instanceof Stripe.errors.StripeError) return `${error.type}: ${error.message}`
  return error instanceof Error ? error.message : String(error)
}

/** Stripe's metadata values stop at 500 characters. */
const METADATA_VALUE_MAX = 500

/**
 * What a refund carries in its metadata: the shop's own, the idempotency key (Stripe forgets keys after
 * 24 hours; a refund found later by its key cannot be made twice) and staff's reason, trimmed to fit.
 * The demo provider keeps the same.
 */
export function refundMetadata(request: RefundRequest): Record<string, string> {
  const reason = request.reason?.trim()
  return {
    ...request.metadata,
    refund_key: request.idempotencyKey,
    ...(reason ? { reason: reason.slice(0, METADATA_VALUE_MAX) } : {}),
  }
}

/**
 * Sorts a failed refund request. Stripe answered and refused (a 4xx about the request): nothing was
 * refunded. Anything else (no answer, a 5xx after the SDK's retries, a rate limit, bad keys) leaves the
 * outcome unknown, to be settled by asking again with the same key.
 */
function refundError(error: unknown): PaymentProviderError {
  const summary = `Stripe refused the refund: ${errorSummary(error)}`
  if (error instanceof Stripe.errors.StripeIdempotencyError) {
    return new RefundRefusedError('idempotency_conflict', summary)
  }
  if (
    error instanceof Stripe.errors.StripeInvalidRequestError ||
    error instanceof Stripe.errors.StripeCardError
  ) {
    const byCode: Readonly<Record<string, RefundRefusal>> = {
      charge_already_refunded: 'already_refunded',
      amount_too_large: 'amount_too_large',
      resource_missing: 'unknown_payment',
    }
    return new RefundRefusedError(byCode[error.code ?? ''] ?? 'refused', summary)
  }
  return new PaymentProviderError(`Stripe could not refund: ${errorSummary(error)}`)
}

export function createStripePayments(options: StripeOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    ...(options.host ? { host: options.host } : {}),
    ...(options.port ? { port: options.port } : {}),
    ...(options.protocol ? { protocol: options.protocol } : {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  })

  async function retrieveSession(id: string) {
    try {
      return toProviderSession(await stripe.checkout.sessions.retrieve(id))
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null
      throw new PaymentProviderError(`Stripe could not load the session: ${errorSummary(error)}`)
    }
  }

  /**
   * A payment's refunds, newest first, every page of them (a payment has a handful); none for a payment
   * Stripe does not know. Stripe failing midway: PaymentProviderError.
   */
  async function* refundsOfPayment(paymentRef: string): AsyncGenerator<Stripe.Refund> {
    try {
      yield* stripe.refunds.list({ payment_intent: paymentRef, limit: 100 })
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing')
        return
      throw new PaymentProviderError(`Stripe could not list refunds: ${errorSummary(error)}`)
    }
  }

  return {
    name: 'stripe',
    publishableKey: options.publishableKey,

    async createCheckoutSession(request: CheckoutSessionRequest) {
      const params: Stripe.Checkout.SessionCreateParams = {
        // API 2026-03-25 renamed `embedded` to `embedded_page`; the SDK pins a version after that.
        ui_mode: 'embedded_page',
        mode: 'payment',
        return_url: `${options.publicUrl}/success?session_id={CHECKOUT_SESSION_ID}`,
        customer_email: request.customerEmail,
        line_items: request.lineItems.map((item) => ({
          quantity: item.quantity,
          price_data: {
            currency: CHARGE_CURRENCY,
            unit_amount: item.unitAmountCents,
            product_data: {
              name: item.name,
              ...(item.description ? { description: item.description } : {}),
              metadata: { product_id: String(item.productId) },
            },
          },
        })),
        shipping_options: [
          {
            shipping_rate_data: {
              type: 'fixed_amount',
              fixed_amount: { amount: request.shipping.amountCents, currency: CHARGE_CURRENCY },
              display_name: request.shipping.displayName,
              delivery_estimate: {
                minimum: { unit: 'business_day', value: request.shipping.estimate.minDays },
                maximum: { unit: 'business_day', value: request.shipping.estimate.maxDays },
              },
            },
          },
        ],
        metadata: request.metadata,
        payment_intent_data: { metadata: request.metadata },
      }
      let session: StripeSession
      try {
        session = await stripe.checkout.sessions.create(params, { idempotencyKey: request.idempotencyKey })
      } catch (error) {
        throw new PaymentProviderError(`Stripe refused the checkout session: ${errorSummary(error)}`)
      }
      if (!session.client_secret)
        throw new PaymentProviderError('Stripe answered a session without a client secret')
      return { ...toProviderSession(session), clientSecret: session.client_secret }
    },

    retrieveSession,

    async expireSession(id: string) {
      try {
        const session = await stripe.checkout.sessions.expire(id)
        return session.status === 'complete' ? 'complete' : 'expired'
      } catch (error) {
        // Stripe expires only open sessions: one that was paid or has expired meanwhile is refused.
        const current = await retrieveSession(id)
        if (!current || current.status === 'expired') return 'expired'
        if (current.status === 'complete') return 'complete'
        throw new PaymentProviderError(`Stripe could not expire the session: ${errorSummary(error)}`)
      }
    },

    async verifyWebhook(rawBody: string, signatureHeader: string | null, receivedAtMs: number) {
      const event = await verifyStripeSignature(
        stripe,
        rawBody,
        signatureHeader,
        options.webhookSecret,
        receivedAtMs,
      )
      return toPaymentEvent(event)
    },

    async refund(request: RefundRequest) {
      let refund: Stripe.Refund
      try {
        refund = await stripe.refunds.create(
          {
            payment_intent: request.paymentRef,
            amount: request.amountCents,
            // Stripe's own reasons are only duplicate, fraudulent and requested_by_customer; the shop's
            // refunds are the customer's (a cancellation, a return, a damaged jar), and staff's words go in
            // the metadata.
            reason: 'requested_by_customer',
            metadata: refundMetadata(request),
          },
          { idempotencyKey: request.idempotencyKey },
        )
      } catch (error) {
        throw refundError(error)
      }
      return toProviderRefund(refund)
    },

    async findRefund(paymentRef: string, idempotencyKey: string) {
      for await (const refund of refundsOfPayment(paymentRef)) {
        if (refund.metadata?.refund_key === idempotencyKey) return toProviderRefund(refund)
      }
      return null
    },

    async listRefunds(paymentRef: string) {
      const refunds: ProviderRefund[] = []
      // A refund the shop cannot read (toProviderRefund) is refused as an event's would be.
      for await (const refund of refundsOfPayment(paymentRef)) refunds.push(toProviderRefund(refund))
      return refunds
    },
  }
}
