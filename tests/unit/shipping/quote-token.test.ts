// The signed shipping quote (docs/decisions/013-signed-shipping-quotes.md): its text is the same whether its
// bytes are encoded with node's Buffer or with Uint8Array's own base64 (api/modules/shipping/quote-token.ts),
// so quotes handed out before a deploy still read after it, and anything else reads as no quote.
import { expect, test } from 'bun:test'
import { createHmac, randomBytes } from 'node:crypto'
import { type QuoteTerms, readQuote, signQuote } from '../../../api/modules/shipping/quote-token'

const secret = randomBytes(32)
const binding = { cartFingerprint: 'cart-fingerprint', addressHash: 'address-hash' }
const terms: QuoteTerms = {
  carrier: 'USPS',
  serviceName: 'USPS Ground Advantage',
  serviceToken: 'usps_ground_advantage',
  priceCents: 899,
  freeEligible: true,
  estimatedDaysMin: 2,
  estimatedDaysMax: 5,
  expiresAt: 1_800_000_000_000,
}

/** A quote id made as the shop made them with node's Buffer. */
function bufferMadeId(nonce: string): string {
  const fields = [
    nonce,
    'USPS',
    'USPS Ground Advantage',
    'usps_ground_advantage',
    899,
    1,
    2,
    5,
    1_800_000_000_000,
  ]
  const payload = Buffer.from(JSON.stringify(fields)).toString('base64url')
  const mac = createHmac('sha256', secret)
    .update(`shipping-quote-v1\n${payload}\n${binding.cartFingerprint}\n${binding.addressHash}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url')
  return `rate_${payload}.${mac}`
}

test('a signed quote reads back with its terms, and only for its own binding', () => {
  const id = signQuote(secret, terms, binding)
  expect(id).toMatch(/^rate_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/)
  expect(readQuote(secret, id, binding)).toEqual({ id, ...terms })
  expect(readQuote(secret, id, { ...binding, addressHash: 'elsewhere' })).toBeNull()
  expect(readQuote(randomBytes(32), id, binding)).toBeNull()
  // Two quotes of the same terms are still two ids (their nonces differ).
  expect(signQuote(secret, terms, binding)).not.toBe(id)
})

test("its text is what node's Buffer made: a quote given out before reads the same", () => {
  const id = signQuote(secret, terms, binding)
  const nonce = JSON.parse(Buffer.from(id.slice(5, id.indexOf('.')), 'base64url').toString())[0]
  expect(bufferMadeId(nonce)).toBe(id)
  expect(readQuote(secret, bufferMadeId('AAAAAAAAAAAA'), binding)).toMatchObject(terms)
})

test('an altered, cut or foreign-alphabet id is no quote', () => {
  const id = signQuote(secret, terms, binding)
  const [head, mac] = id.split('.') as [string, string]
  const flipped = `${mac.slice(0, 5)}${mac[5] === 'A' ? 'B' : 'A'}${mac.slice(6)}`
  expect(readQuote(secret, `${head}.${flipped}`, binding)).toBeNull()
  expect(readQuote(secret, `${head}.${mac.replace(/[-_]/g, '+')}x`, binding)).toBeNull()
  expect(readQuote(secret, `${head}.${mac.slice(0, -2)}!!`, binding)).toBeNull()
  expect(readQuote(secret, `${head}x.${mac}`, binding)).toBeNull()
  expect(readQuote(secret, `rate_bm90IGpzb24.${mac}`, binding)).toBeNull()
  expect(readQuote(secret, head, binding)).toBeNull()
})
