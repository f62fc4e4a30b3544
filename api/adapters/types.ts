/**
 * What the shop needs from outside services. Each has a real adapter (used when its keys are set) and a
 * built-in stand-in, so the shop runs, and is tested, with none of them (docs/architecture.md#outside-services).
 */
import type { DemoSessionSummary } from '@core/contracts/payments'
import { isEmail } from '@core/rules/address'

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
  /**
   * Shown on the label and in the carrier's records: the padded order number and the order's uid
   * (`000042-3f9c…`), which no other order ever has, even after a restored backup reuses the number.
   */
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
  /**
   * The carrier's own id for the purchase, which a void names: Shippo's transaction object id; the
   * built-in carrier's tracking number.
   */
  labelId: string
  /** The carrier's public page following this parcel, for the customer's shipping e-mail; null if none. */
  trackingUrl: string | null
}

/** The label to void: what the shop keeps of a bought label. */
export interface LabelToVoid {
  /** The reference the label was bought under (the padded order number). */
  reference: string
  trackingNumber: string
  /** The carrier's id for the purchase when the shop kept it; otherwise found from the two above. */
  labelId?: string | null
}

/**
 * Where a void stands, as the carrier says: `queued` and `pending` are asked and not yet answered (USPS
 * refunds unused postage after some days), `success` is voided, `error` is refused (a label already
 * scanned, or too old).
 */
export type LabelVoidStatus = 'queued' | 'pending' | 'success' | 'error'

export interface LabelVoid {
  /** The carrier's id for the void request (Shippo's refund object id); null when not told. */
  id: string | null
  /** The purchase that was voided (see PurchasedLabel.labelId). */
  labelId: string
  status: LabelVoidStatus
  /** The label had been voided before this call: nothing new was asked of the carrier. */
  alreadyVoided: boolean
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
  /**
   * Asks the carrier to void an unused label and refund its postage. Safe to repeat: a label voided
   * before answers that void (`alreadyVoided`), never a second request. A voided label is no longer found
   * by `findLabel`. Throws UnknownLabelError when the carrier has no such label, ShippingProviderError
   * when it cannot be asked.
   */
  voidLabel(label: LabelToVoid): Promise<LabelVoid>
  /**
   * For a customer who deleted their account: the address forgotten from what the shop keeps of the labels
   * bought under `reference` (the demo carrier's label files). A carrier's own records (Shippo's) are the
   * carrier's, which the privacy policy names: nothing to do here.
   */
  forgetAddress(reference: string): Promise<void>
}

/** A carrier refused or failed; the message is safe to log, never shown raw to customers. */
export class ShippingProviderError extends Error {}

/** The carrier has no label by that id, reference and tracking number: there is nothing to void. */
export class UnknownLabelError extends ShippingProviderError {}

/**
 * The service the customer paid for is not offered for this parcel (any more). Buying another one would
 * ship something other than what was sold, so nothing is bought and the order fails with this reason.
 */
export class PaidServiceUnavailableError extends ShippingProviderError {}

// ── Payments ────────────────────────────────────────────────────────────────────────────────────────────

export interface ProviderLineItem {
  name: string
  description?: string
  /** Integer cents, already discounted (docs/product.md#money: fixed discounts are spread over lines). */
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
  /**
   * What a refund of this session's payment names (Stripe: the payment intent id); null until the
   * customer has paid.
   */
  paymentRef: string | null
  /** The charge's currency, lower case ('usd'), or null when the provider did not say. */
  currency: string | null
  customerEmail: string | null
  metadata: Record<string, string>
}

/**
 * Where a refund stands. `pending` is asked and not yet final (Stripe's `requires_action` counts as
 * pending); `failed` and `canceled` returned nothing to the customer, and their amount may be refunded
 * again.
 */
export type RefundStatus = 'pending' | 'succeeded' | 'failed' | 'canceled'

/** A refund as the provider records it, whoever made it (the shop, or staff in the provider's dashboard). */
export interface ProviderRefund {
  /** The provider's id (re_…). */
  id: string
  /** The payment refunded (Stripe: the payment intent id); null when the provider does not say. */
  paymentRef: string | null
  /** Integer cents. */
  amountCents: number
  currency: string
  status: RefundStatus
  /** Why it failed, in the provider's words (`expired_or_canceled_card`, `lost_or_stolen_card` …). */
  failureReason: string | null
  /** What the shop attached when it asked; empty for a refund made in the provider's dashboard. */
  metadata: Record<string, string>
  /** Epoch seconds. */
  created: number
}

/** What a refund event says about a payment's refunds. */
export interface RefundActivity {
  /** The payment the refunds are of (Stripe: the payment intent id); null when the provider does not say. */
  paymentRef: string | null
  /** The provider's charge (ch_…); null when not said. */
  chargeRef: string | null
  currency: string
  /**
   * Everything refunded of the payment so far, in cents: `charge.refunded` carries it (Stripe's
   * `amount_refunded`); null on events about one refund.
   */
  amountRefundedCents: number | null
  /**
   * The refunds the event carries: the one refund of `refund.*` and `charge.refund.updated`; a charge's
   * refunds as listed on it for `charge.refunded` (Stripe lists them only where the endpoint's API version
   * includes them, so often none: `amountRefundedCents` is the figure to trust there).
   */
  refunds: ProviderRefund[]
}

interface PaymentEventBase {
  id: string
  type: string
  /** Epoch seconds, as providers send it. */
  created: number
}

/** checkout.session.* with a checkout session. */
export interface SessionPaymentEvent extends PaymentEventBase {
  kind: 'session'
  session: ProviderSession
  refund: null
}

/** `charge.refunded`, `charge.refund.updated`, `refund.created`, `refund.updated`, `refund.failed`. */
export interface RefundPaymentEvent extends PaymentEventBase {
  kind: 'refund'
  session: null
  refund: RefundActivity
}

/** Any other type: stored and answered, not acted on. */
export interface OtherPaymentEvent extends PaymentEventBase {
  kind: 'other'
  session: null
  refund: null
}

/** A verified payment event, reduced to what the shop acts on. */
export type PaymentEvent = SessionPaymentEvent | RefundPaymentEvent | OtherPaymentEvent

/** The event types that carry refunds, whoever made them. */
export const REFUND_EVENT_TYPES = [
  'charge.refunded',
  'charge.refund.updated',
  'refund.created',
  'refund.updated',
  'refund.failed',
] as const

export interface RefundRequest {
  /** ProviderSession.paymentRef of the paid session. */
  paymentRef: string
  /** Integer cents, more than 0. */
  amountCents: number
  /** Why, in staff's words; kept with the refund at the provider (metadata `reason`, at most 500 characters). */
  reason?: string | null
  /**
   * One key per refund the shop means to make: the same key again (a retry after a crash or a lost
   * answer) answers the same refund and never refunds twice.
   */
  idempotencyKey: string
  /** Plain text values only, as for checkout sessions. */
  metadata: Record<string, string>
}

export interface PaymentProvider {
  readonly name: 'stripe' | 'demo'
  /** For the browser's payment form; null for the demo provider, which needs none. */
  readonly publishableKey: string | null
  createCheckoutSession(request: CheckoutSessionRequest): Promise<ProviderSession & { clientSecret: string }>
  retrieveSession(id: string): Promise<ProviderSession | null>
  /**
   * Ends an open session so it can no longer be paid. Answers what the session is afterwards: 'expired',
   * or 'complete' when it was paid before it could be ended. Throws PaymentProviderError when the
   * provider cannot be asked.
   */
  expireSession(id: string): Promise<'expired' | 'complete'>
  /**
   * Checks the signature over the raw body and its time against `receivedAtMs` (at most 300 s old, at most
   * 60 s ahead), then parses it. Throws WebhookSignatureError for anything that is not a fresh, correctly
   * signed event, and MalformedWebhookEventError for a signed one the shop cannot use.
   */
  verifyWebhook(rawBody: string, signatureHeader: string | null, receivedAtMs: number): Promise<PaymentEvent>
  /**
   * Refunds part or all of a paid session's payment. Resolves with the refund as the provider has it
   * (card refunds usually `succeeded` at once, some `pending`). Throws RefundRefusedError when the provider
   * refused and refunded nothing, PaymentProviderError when the answer was lost or the provider failed:
   * then whether it refunded is unknown, and the same call with the same key settles it.
   */
  refund(request: RefundRequest): Promise<ProviderRefund>
  /**
   * The refund made under this idempotency key for this payment, or null. Stripe keeps keys for 24 hours
   * only: a retry later than that asks this first (the key is in each refund's metadata). Throws
   * PaymentProviderError when the provider cannot be asked.
   */
  findRefund(paymentRef: string, idempotencyKey: string): Promise<ProviderRefund | null>
  /**
   * Every refund of a payment, newest first ([] for a payment the provider does not know). Throws
   * PaymentProviderError when the provider cannot be asked.
   */
  listRefunds(paymentRef: string): Promise<ProviderRefund[]>
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

/**
 * Why a refund was refused: the payment is refunded in full already, the amount is more than what is
 * left, the idempotency key was used before for a different refund, the payment is unknown or unpaid, or
 * anything else the provider refused.
 */
export type RefundRefusal =
  | 'already_refunded'
  | 'amount_too_large'
  | 'idempotency_conflict'
  | 'unknown_payment'
  | 'refused'

/**
 * The provider answered and refused the refund: this request refunded nothing. (With
 * `idempotency_conflict`, the key's first use may have refunded; that refund stands.)
 */
export class RefundRefusedError extends PaymentProviderError {
  constructor(
    readonly refusal: RefundRefusal,
    message: string,
  ) {
    super(message)
  }
}

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
  /**
   * For a customer who deleted their account: the copies the shop keeps (the outbox's files) of the mail
   * about them removed: about its orders (`orderReferences`, '{number}-{uid}', which an order mail's
   * Message-ID carries) whatever address it went to, and the account's own mail to `email` (mail about no
   * order). Mail about another order stays, also at the same address: a guest's order is not the account's
   * (docs/decisions/018-account-data.md). Mail sent over SMTP is kept by no one but its recipient.
   */
  forgetCustomer(customer: { email: string; orderReferences: readonly string[] }): Promise<void>
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
  /** Only a verified e-mail may create an account or sign into one (docs/product.md#google-sign-in). */
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

/** The test card the demo checkout form sends (never a real card: the demo provider takes no money). */
export interface DemoCard {
  cardNumber: string
  expiry: string
  cvc: string
  name: string
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
  /** What the demo payment form shows (core/contracts/payments.ts): nothing personal. */
  describeSession(id: string): Promise<DemoSessionSummary | null>
  /**
   * Checks the session and the test card and returns the event a successful payment produces, without
   * marking anything paid: the caller stores the event first, then calls `markPaid`, so a crash in
   * between never leaves a paid session without its event.
   */
  preparePayment(id: string, card: DemoCard): Promise<DemoPayResult>
  /** One conditional UPDATE: of two simultaneous payments exactly one marks the session paid. */
  markPaid(id: string): Promise<boolean>
  /**
   * Makes a refund fail, as a card refund can days after it succeeded (the card was closed): its amount
   * becomes refundable again and `refund.updated`, `charge.refund.updated` and `refund.failed` are sent.
   * A refund already failed or canceled is answered as it is. RefundRefusedError for an unknown refund.
   */
  failRefund(refundId: string, reason?: string): Promise<ProviderRefund>
  /**
   * Delivers the events the webhook has not taken yet, oldest first, signed with DEMO_WEBHOOK_SECRET, and
   * resolves with how many it took. Refunds start a delivery by themselves; call this again to retry
   * events the webhook did not take (it was down, or answered 503).
   */
  deliverEvents(): Promise<number>
}
