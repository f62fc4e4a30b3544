/**
 * What the shop needs from outside services. Each has a real adapter (used when its keys are set) and a
 * built-in stand-in, so the shop runs, and is tested, with none of them (DESIGN §3).
 */
import { isEmail } from '../rules/address'

// ── Shipping ────────────────────────────────────────────────────────────────────────────────────────────

export interface ShippingAddress {
  name: string
  street1: string
  street2?: string
  city: string
  /** A US state code for US addresses; a region or empty elsewhere. */
  state: string
  zip: string
  /** ISO 3166-1 alpha-2, upper case. */
  country: string
}

/** Inches and ounces, as US carriers quote them. */
export interface Parcel {
  weightOz: number
  lengthIn: number
  widthIn: number
  heightIn: number
}

export interface DeliveryEstimate {
  /** Business days. */
  minDays: number
  maxDays: number
}

export interface CarrierRate {
  /** The carrier's own id for this rate (Shippo rate object id) or the service token for the rate table. */
  providerRateId: string
  carrier: string
  serviceName: string
  /** Stable service code, e.g. usps_ground_advantage; used to buy the same service later. */
  serviceToken: string
  priceCents: number
  estimate: DeliveryEstimate
  /** The standard domestic service: the one that becomes free above the threshold. */
  standard: boolean
}

export interface LabelRequest {
  /** Shown on the label and in the carrier's records: the padded order number. */
  reference: string
  serviceToken: string
  parcel: Parcel
  address: ShippingAddress
}

export interface PurchasedLabel {
  carrier: string
  trackingNumber: string
  /** Where the PDF label can be fetched (https:// from a carrier, file:// from the built-in carrier). */
  labelUrl: string
  /** The carrier's public page following this parcel, for the customer's shipping e-mail; null if none. */
  trackingUrl: string | null
}

export interface ShippingProvider {
  readonly name: 'rate-table' | 'shippo'
  quoteRates(parcel: Parcel, address: ShippingAddress): Promise<CarrierRate[]>
  /** Buys `request.serviceToken` and nothing else; PaidServiceUnavailableError when it is not offered. */
  buyLabel(request: LabelRequest): Promise<PurchasedLabel>
  /**
   * The label already bought under `reference`, or null. A purchase and our record of it cannot be one
   * transaction: a retry after a crash (or a lost answer) in between asks this first, and keeps that label
   * instead of buying a second one. Throws when the carrier cannot be asked: buying blind could buy twice.
   */
  findLabel(reference: string): Promise<PurchasedLabel | null>
}

/** A carrier refused or failed; the message is safe to log, never shown raw to customers. */
export class ShippingProviderError extends Error {}

/**
 * The service the customer paid for is not offered for this parcel (any more). Buying another one would
 * ship something other than what was sold, so nothing is bought and the order fails with this reason.
 */
export class PaidServiceUnavailableError extends ShippingProviderError {}

// ── Payments ────────────────────────────────────────────────────────────────────────────────────────────

export interface ProviderLineItem {
  name: string
  description?: string
  /** Integer cents, already discounted (DESIGN §4: fixed discounts are spread over lines). */
  unitAmountCents: number
  quantity: number
  productId: number
}

export interface CheckoutSessionRequest {
  customerEmail: string
  lineItems: ProviderLineItem[]
  shipping: { amountCents: number; displayName: string; estimate: DeliveryEstimate }
  /** Plain text values only (the providers' metadata is string → string). */
  metadata: Record<string, string>
  /** The same key for the same request makes the provider answer the same session (double clicks). */
  idempotencyKey: string
}

export type ProviderSessionStatus = 'open' | 'complete' | 'expired'
export type ProviderPaymentStatus = 'paid' | 'unpaid' | 'no_payment_required'

/** The parts of a provider's checkout session the shop reads. */
export interface ProviderSession {
  id: string
  clientSecret: string | null
  status: ProviderSessionStatus
  paymentStatus: ProviderPaymentStatus
  amountTotal: number | null
  customerEmail: string | null
  metadata: Record<string, string>
}

/** A verified payment event, reduced to what the shop acts on. */
export interface PaymentEvent {
  id: string
  type: string
  /** Epoch seconds, as providers send it. */
  created: number
  /** Present for checkout.session.* events. */
  session: ProviderSession | null
}

export interface PaymentProvider {
  readonly name: 'stripe' | 'demo'
  /** For the browser's payment form; null for the demo provider, which needs none. */
  readonly publishableKey: string | null
  createCheckoutSession(request: CheckoutSessionRequest): Promise<ProviderSession & { clientSecret: string }>
  retrieveSession(id: string): Promise<ProviderSession | null>
  /**
   * Checks the signature over the raw body and its time against `receivedAtMs` (at most 300 s old, at most
   * 60 s ahead), then parses it. Throws WebhookSignatureError for anything that is not a fresh, correctly
   * signed event, and MalformedWebhookEventError for a signed one the shop cannot use.
   */
  verifyWebhook(rawBody: string, signatureHeader: string | null, receivedAtMs: number): Promise<PaymentEvent>
}

export class WebhookSignatureError extends Error {}

/**
 * A correctly signed event the shop cannot act on, such as one without a usable id. The signature proves
 * who sent it, not that it is well formed (the demo provider's secret is public). The message is safe to
 * answer with.
 */
export class MalformedWebhookEventError extends Error {}

/** The provider refused to create a session or could not be reached. */
export class PaymentProviderError extends Error {}

/** Stripe's own default; a replayed event older than this is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300

/**
 * How far ahead of our clock a signature may be dated. Clocks drift by seconds; a signature dated further
 * ahead would stay "fresh", and so replayable, for that much longer than the tolerance above.
 */
export const WEBHOOK_FUTURE_SKEW_SECONDS = 60

// ── E-mail ──────────────────────────────────────────────────────────────────────────────────────────────

export interface MailMessage {
  to: string
  subject: string
  text: string
  html: string
  /**
   * A Message-ID fixed by what the mail is about (this order's confirmation), so a message sent again
   * after a crash between the mail server's acceptance and the shop's note of it is the same message:
   * mail clients show one.
   */
  messageId?: string
}

export interface Mailer {
  readonly name: 'smtp' | 'outbox'
  /** Sends or stores the message; rejects with UndeliverableMailError when it has no valid recipient. */
  send(message: MailMessage): Promise<void>
}

/** A message that could reach nobody. The job sending it fails, so it is logged and retried, never marked done. */
export class UndeliverableMailError extends Error {}

/**
 * Every adapter calls this before sending: nodemailer silently drops an address it cannot use (one with a
 * NUL, say), which would leave a message with no recipient that still counts as sent. The address stays
 * out of the error, like every log line about mail: it is personal data.
 */
export function assertDeliverable(message: MailMessage): void {
  if (!isEmail(message.to)) {
    throw new UndeliverableMailError(`Mail "${message.subject}" has no valid recipient: not sent`)
  }
}

// ── Sign-in with Google ─────────────────────────────────────────────────────────────────────────────────

/** What the browser must bring back to the callback: kept server-side in a short-lived HttpOnly cookie. */
export interface SignInChecks {
  state: string
  nonce: string
  codeVerifier: string
}

/** The identity an ID token proved: its signature, issuer, audience, expiry and nonce were checked. */
export interface VerifiedIdentity {
  /** The provider's stable id for the person. */
  subject: string
  /** Lower-cased. */
  email: string
  /** Only a verified e-mail may create an account or sign into one (DESIGN decision 3). */
  emailVerified: boolean
  givenName: string | null
  familyName: string | null
  picture: string | null
}

export interface IdentityProvider {
  readonly name: 'google'
  /** Where to send the browser, and the checks to keep until it comes back. */
  start(redirectUri: string): Promise<{ url: string; checks: SignInChecks }>
  /** Completes the sign-in from the callback URL (with `code` and `state`); throws IdentityProviderError. */
  finish(callbackUrl: URL, checks: SignInChecks): Promise<VerifiedIdentity>
}

/** Sign-in failed or the provider could not be reached; the message is safe to log, never shown raw. */
export class IdentityProviderError extends Error {}
