/**
 * Stripe Checkout (embedded) through the official SDK. `host`/`port`/`protocol` point the SDK at another
 * API (tests use a local fake of Stripe's API, so the SDK's real request encoding is exercised).
 */
import Stripe from 'stripe'
import { CHARGE_CURRENCY } from '../rules/money'
import {
  type CheckoutSessionRequest,
  MalformedWebhookEventError,
  type PaymentEvent,
  type PaymentProvider,
  PaymentProviderError,
  type ProviderSession,
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

export function toProviderSession(session: StripeSession): ProviderSession {
  const metadata: Record<string, string> = {}
  for (const [key, value] of Object.entries(session.metadata ?? {})) {
    if (typeof value === 'string') metadata[key] = value
  }
  return {
    id: session.id,
    clientSecret: session.client_secret ?? null,
    status: session.status ?? 'open',
    paymentStatus: session.payment_status,
    amountTotal: session.amount_total ?? null,
    currency: typeof session.currency === 'string' ? session.currency.toLowerCase() : null,
    customerEmail: session.customer_email ?? session.customer_details?.email ?? null,
    metadata,
  } as ProviderSession
}

/**
 * What an event id may look like: Stripe's are short ASCII tokens (evt_…). It is stored as the event's
 * key and shown on the dashboard, so nothing else is taken.
 */
const EVENT_ID = /^[\x21-\x7e]{1,255}$/

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
  const session =
    type.startsWith('checkout.session.') &&
    object?.object === 'checkout.session' &&
    typeof object.id === 'string'
  return {
    id,
    type,
    created: typeof created === 'number' ? created : 0,
    session: session ? toProviderSession(object as StripeSession) : null,
  }
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
    // Under Bun the SDK uses Web Crypto, which has no synchronous HMAC: hence the async variant of
    // constructEvent (same checks: signature over the raw body, then age within the tolerance).
    event = await stripe.webhooks.constructEventAsync(
      rawBody,
      signatureHeader,
      secret,
      WEBHOOK_TOLERANCE_SECONDS,
      undefined,
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

export function createStripePayments(options: StripeOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    ...(options.host ? { host: options.host } : {}),
    ...(options.port ? { port: options.port } : {}),
    ...(options.protocol ? { protocol: options.protocol } : {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  })

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

    async retrieveSession(id: string) {
      try {
        return toProviderSession(await stripe.checkout.sessions.retrieve(id))
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null
        throw new PaymentProviderError(`Stripe could not load the session: ${errorSummary(error)}`)
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
  }
}
