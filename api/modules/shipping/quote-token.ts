/**
 * A shipping quote as a signed token instead of a stored row (docs/decisions/013): the rate id the customer
 * gets back carries the service and price checkout will charge, and an HMAC over those terms and the cart
 * and destination they were quoted for. Checkout recomputes the cart fingerprint and address hash from its
 * own request, so a quote used for another cart or address, an edited price or an id made up in the
 * browser all fail the same check; the expiry inside the signed terms ends it after 30 minutes.
 */

import { randomBytes, timingSafeEqual } from 'node:crypto'
import { MAX_QUOTE_ID_LENGTH } from '@core/contracts/shipping'
import { hmacSha256 } from '../../lib/digests'

/** What checkout needs of a quote to charge for shipping and tell the label purchase which service. */
export interface QuoteTerms {
  carrier: string
  serviceName: string
  /** The carrier's service code (e.g. usps_ground_advantage), used again when the label is bought. */
  serviceToken: string
  /** The carrier's price; free shipping is decided at checkout from the discounted subtotal. */
  priceCents: number
  /** The standard service, free once the discounted subtotal reaches the threshold. */
  freeEligible: boolean
  estimatedDaysMin: number
  estimatedDaysMax: number
  /** Milliseconds since the epoch. */
  expiresAt: number
}

export interface Quote extends QuoteTerms {
  /** The signed token itself: the rate id the customer sends back. */
  id: string
}

/** What a quote is bound to: hashes of the cart's products and quantities and of the destination. */
export interface QuoteBinding {
  cartFingerprint: string
  addressHash: string
}

const PREFIX = 'rate_'
/** 128 bits of HMAC-SHA256: far beyond guessing within a quote's 30 minutes. */
const MAC_BYTES = 16

function mac(secret: Buffer, payload: string, binding: QuoteBinding): Buffer {
  return hmacSha256(
    secret,
    `shipping-quote-v1\n${payload}\n${binding.cartFingerprint}\n${binding.addressHash}`,
  ).subarray(0, MAC_BYTES)
}

/**
 * Every quote is new, like the rows it replaces: two rate requests for the same cart in the same
 * millisecond still give different ids, so two orders of the same cart never share a payment session
 * (checkout's idempotency key includes the rate id).
 */
const nonce = () => randomBytes(9).toString('base64url')

export function signQuote(secret: Buffer, terms: QuoteTerms, binding: QuoteBinding): string {
  const fields = [
    nonce(),
    terms.carrier,
    terms.serviceName,
    terms.serviceToken,
    terms.priceCents,
    terms.freeEligible ? 1 : 0,
    terms.estimatedDaysMin,
    terms.estimatedDaysMax,
    terms.expiresAt,
  ]
  const payload = Buffer.from(JSON.stringify(fields)).toString('base64url')
  const id = `${PREFIX}${payload}.${mac(secret, payload, binding).toString('base64url')}`
  if (id.length > MAX_QUOTE_ID_LENGTH) throw new Error(`a quote for ${terms.serviceName} is too long to sign`)
  return id
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0
const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0

/**
 * The terms of a quote this shop signed for exactly this binding, or null for anything else: another
 * key, cart or address, a changed field, a malformed id. Expiry is the caller's to judge, by its clock.
 */
export function readQuote(secret: Buffer, id: string, binding: QuoteBinding): Quote | null {
  if (id.length > MAX_QUOTE_ID_LENGTH || !id.startsWith(PREFIX)) return null
  const dot = id.indexOf('.', PREFIX.length)
  if (dot < 0) return null
  const payload = id.slice(PREFIX.length, dot)
  const given = Buffer.from(id.slice(dot + 1), 'base64url')
  if (given.length !== MAC_BYTES || !timingSafeEqual(given, mac(secret, payload, binding))) return null
  let fields: unknown
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    return null
  }
  if (!Array.isArray(fields) || fields.length !== 9) return null
  const [, carrier, serviceName, serviceToken, priceCents, free, daysMin, daysMax, expiresAt] = fields
  if (!isText(carrier) || !isText(serviceName) || !isText(serviceToken)) return null
  if (!isCount(priceCents) || (free !== 0 && free !== 1)) return null
  if (!isCount(daysMin) || !isCount(daysMax) || !isCount(expiresAt)) return null
  return {
    id,
    carrier,
    serviceName,
    serviceToken,
    priceCents,
    freeEligible: free === 1,
    estimatedDaysMin: daysMin,
    estimatedDaysMax: daysMax,
    expiresAt,
  }
}
