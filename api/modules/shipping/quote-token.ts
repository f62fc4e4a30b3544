/**
 * A shipping quote as a signed token instead of a stored row (docs/decisions/013): the rate id the customer
 * gets back carries the service and price checkout will charge, and an HMAC over those terms and the cart
 * and destination they were quoted for. Checkout recomputes the cart fingerprint and address hash from its
 * own request, so a quote used for another cart or address, an edited price or an id made up in the
 * browser all fail the same check; the expiry inside the signed terms ends it after 30 minutes.
 */

import { timingSafeEqual } from 'node:crypto'
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

/**
 * Bytes as text and back without node's Buffer. Made for every rate, `Buffer.from(text)` and a Buffer's
 * `subarray` were about half of each young collection's pause under the rates load, most likely because
 * both are views of a shared ArrayBuffer that the collector tracks one by one; plain Uint8Arrays and their
 * own base64 methods cost it nothing measurable (scripts/bench/findings.md).
 */
const BASE64URL = { alphabet: 'base64url', omitPadding: true } as const
const utf8 = new TextEncoder()
const fromUtf8 = new TextDecoder('utf-8', { fatal: true })

function mac(secret: Buffer, payload: string, binding: QuoteBinding): Uint8Array {
  const digest = hmacSha256(
    secret,
    `shipping-quote-v1\n${payload}\n${binding.cartFingerprint}\n${binding.addressHash}`,
  )
  // Copied, not a subarray of the digest (see above).
  const truncated = new Uint8Array(MAC_BYTES)
  for (let index = 0; index < MAC_BYTES; index++) truncated[index] = digest[index] as number
  return truncated
}

/** The bytes of base64url text, or null for text that is not base64url. */
function base64urlBytes(text: string): Uint8Array | null {
  try {
    return Uint8Array.fromBase64(text, { alphabet: 'base64url' })
  } catch {
    return null
  }
}

/**
 * Every quote is new, like the rows it replaces: two rate requests for the same cart in the same
 * millisecond still give different ids, so two orders of the same cart never share a payment session
 * (checkout's idempotency key includes the rate id).
 */
const nonce = () => crypto.getRandomValues(new Uint8Array(9)).toBase64(BASE64URL)

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
  const payload = utf8.encode(JSON.stringify(fields)).toBase64(BASE64URL)
  const id = `${PREFIX}${payload}.${mac(secret, payload, binding).toBase64(BASE64URL)}`
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
  const given = base64urlBytes(id.slice(dot + 1))
  if (given?.length !== MAC_BYTES || !timingSafeEqual(given, mac(secret, payload, binding))) return null
  const payloadBytes = base64urlBytes(payload)
  if (!payloadBytes) return null
  let fields: unknown
  try {
    fields = JSON.parse(fromUtf8.decode(payloadBytes))
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
