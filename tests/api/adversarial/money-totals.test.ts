// Property: for any cart and any code, what the payment provider is asked to charge equals, to the cent, a
// total worked out here independently from the catalogue (docs/product.md#catalogue) and the discount rules (docs/product.md#discount-codes) —
// not by calling the shop's own money functions.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import fc from 'fast-check'
import type { CheckoutSessionRequest } from '../../../api/adapters/types'
import { demoPaymentSessions } from '../../../db/schema/checkout'
import { discountCodes } from '../../../db/schema/discounts'
import { getRates, HOME, type Items, quotedCarrierCents, rateFor, sessionBody } from '../checkout/helpers'
import { uniqueAddress, uniqueEmail } from '../support/accounts'
import { createTestApp, type TestApp } from '../support/test-app'
import { attackCounter } from './tally'

setDefaultTimeout(60_000)

const attacks = attackCounter('money-totals')
let shop: TestApp

/** The catalogue (docs/product.md#catalogue), in cents, written out here rather than read from the shop's code. */
const PRICE_CENTS: Record<number, number> = { 1: 2100, 2: 1800, 3: 1800, 4: 1300, 5: 1900 }

/**
 * The codes in play and their terms: the README's seed codes, plus three made here to reach the edges
 * (a fixed amount larger than most carts, 100 % off, an odd percentage that rounds).
 */
type Terms = { type: 'percentage' | 'fixed'; amount: number; minSubtotalCents: number }
const CODES: Record<string, Terms> = {
  GRIT15: { type: 'percentage', amount: 15, minSubtotalCents: 0 },
  SAVE5: { type: 'fixed', amount: 500, minSubtotalCents: 2000 },
  TOOLBOX20: { type: 'percentage', amount: 20, minSubtotalCents: 5000 },
  CREW10: { type: 'percentage', amount: 10, minSubtotalCents: 0 },
  PROP37: { type: 'percentage', amount: 37, minSubtotalCents: 0 },
  PROPBIG: { type: 'fixed', amount: 4_950, minSubtotalCents: 0 },
  PROPALL: { type: 'percentage', amount: 100, minSubtotalCents: 0 },
}

beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
  const now = shop.clock.now()
  await shop.deps.db.insert(discountCodes).values([
    { code: 'PROP37', type: 'percentage', amount: 37, createdAt: now },
    { code: 'PROPBIG', type: 'fixed', amount: 4_950, createdAt: now },
    { code: 'PROPALL', type: 'percentage', amount: 100, createdAt: now },
  ])
})
afterAll(() => {
  shop.close()
  attacks.record()
})

/** The money rules (docs/product.md#money, docs/product.md#free-shipping), in plain arithmetic. */
type Expected = { refused: 422 } | { refused?: undefined; total: number; goods: number; shipping: number }

function expected(items: Items, code: string | null, carrierCents: number, standard: boolean): Expected {
  const subtotal = items.reduce((sum, item) => sum + (PRICE_CENTS[item.id] ?? NaN) * item.quantity, 0)
  const terms = code ? CODES[code] : undefined
  if (terms && subtotal < terms.minSubtotalCents) return { refused: 422 }
  let discount = 0
  if (terms?.type === 'percentage') discount = Math.round((subtotal * terms.amount) / 100)
  if (terms?.type === 'fixed') discount = Math.min(terms.amount, subtotal)
  const goods = subtotal - discount
  // docs/product.md#money: at least $0.50 after discounts.
  if (goods < 50) return { refused: 422 }
  const shipping = standard && goods >= 3500 ? 0 : carrierCents
  return { total: goods + shipping, goods, shipping }
}

const cart = fc.array(
  fc.record({ id: fc.integer({ min: 1, max: 5 }), quantity: fc.integer({ min: 1, max: 12 }) }),
  { minLength: 1, maxLength: 5 },
)
const code = fc.option(fc.constantFrom(...Object.keys(CODES)), { nil: null })
const service = fc.constantFrom('USPS Ground Advantage', 'USPS Priority Mail')

test('the charge always equals the catalogue total less the discount plus shipping, to the cent', async () => {
  await fc.assert(
    fc.asyncProperty(cart, code, service, async (items, chosen, serviceName) => {
      attacks.tried()
      // A new shopper each time: its own address for the limits, its own e-mail for first-order codes.
      const from = uniqueAddress()
      shop.clock.advance(1000)
      const rates = await getRates(shop, items, HOME)
      const rate = rateFor(rates, serviceName)
      const want = expected(
        items,
        chosen,
        quotedCarrierCents(rate.id),
        serviceName === 'USPS Ground Advantage',
      )

      const res = await shop.call(
        'POST',
        '/api/create-checkout-session',
        sessionBody(items, rate, { discount_code: chosen, customer_email: uniqueEmail('prop') }),
        from,
      )
      if (want.refused) {
        expect(res.status).toBe(want.refused)
        return
      }
      expect(res.status).toBe(200)
      const { sessionId } = (await res.json()) as { sessionId: string }
      const [session] = await shop.deps.db
        .select()
        .from(demoPaymentSessions)
        .where(eq(demoPaymentSessions.id, sessionId))
      if (!session) throw new Error('the provider has no session')
      expect(session.amountTotal).toBe(want.total)
      // What the provider itemises adds up to the same: lines plus shipping, all positive whole cents.
      const request = JSON.parse(session.request) as CheckoutSessionRequest
      const lines = request.lineItems.reduce((sum, line) => sum + line.unitAmountCents * line.quantity, 0)
      expect(lines).toBe(want.goods)
      expect(request.shipping.amountCents).toBe(want.shipping)
      for (const line of request.lineItems) {
        expect(Number.isInteger(line.unitAmountCents) && line.unitAmountCents > 0).toBe(true)
      }
    }),
    {
      numRuns: 150,
      // The edges, always tried: goods of exactly $35.00 after a discount (free standard shipping) and
      // $34.00 (not free), exactly the $0.50 minimum left and nothing left, and a minimum subtotal met
      // exactly and missed by a dollar.
      examples: [
        [
          [
            { id: 1, quantity: 1 },
            { id: 5, quantity: 1 },
          ],
          'SAVE5',
          'USPS Ground Advantage',
        ],
        [
          [
            { id: 1, quantity: 1 },
            { id: 2, quantity: 1 },
          ],
          'SAVE5',
          'USPS Ground Advantage',
        ],
        [
          [
            { id: 4, quantity: 1 },
            { id: 2, quantity: 1 },
            { id: 5, quantity: 1 },
          ],
          'PROPBIG',
          'USPS Priority Mail',
        ],
        [[{ id: 4, quantity: 2 }], 'PROPALL', 'USPS Priority Mail'],
        [
          [
            { id: 4, quantity: 1 },
            { id: 2, quantity: 1 },
            { id: 5, quantity: 1 },
          ],
          'TOOLBOX20',
          'USPS Ground Advantage',
        ],
        [
          [
            { id: 4, quantity: 1 },
            { id: 2, quantity: 1 },
            { id: 3, quantity: 1 },
          ],
          'TOOLBOX20',
          'USPS Ground Advantage',
        ],
        [[{ id: 2, quantity: 2 }], null, 'USPS Priority Mail'],
      ],
    },
  )
})
