import { DISCOUNT_ATTEMPT_LIMIT, MAX_CODE_LENGTH, validateDiscountBody } from '@core/contracts/discounts'
import { discountCents } from '@core/rules/discounts'
import { centsToDollars, dollarsToCents, MAX_SUBTOTAL_CENTS } from '@core/rules/money'
import { Elysia } from 'elysia'
import { invalid } from '../../lib/domain-errors'
import type { RateLimitPlugin } from '../../plugins/rate-limit'
import type { DiscountService } from './service'

/** The key of the code's use the cart's open checkout session holds (the checkout module's `cartHold`). */
export type CartHold = (sessionId: string | undefined) => Promise<string[]>

export function discountRoutes(
  { discounts, checkout }: { discounts: DiscountService; checkout: { cartHold: CartHold } },
  limits: RateLimitPlugin,
) {
  return new Elysia().use(limits).post(
    '/api/validate-discount',
    async ({ body }) => {
      const code = body.code.trim()
      if (!code || code.length > MAX_CODE_LENGTH) throw invalid('Please enter a discount code.')
      const subtotalCents = dollarsToCents(body.amount)
      if (subtotalCents === null || subtotalCents > MAX_SUBTOTAL_CENTS) {
        throw invalid('amount must be the cart subtotal in dollars, like 42.00.')
      }
      // The cart's own open session holds a use: not counted against it (docs/decisions/032).
      const heldBy = await checkout.cartHold(body.open_session)
      const terms = await discounts.validate(code, { subtotalCents }, heldBy)
      return {
        code: terms.code,
        type: terms.type,
        // The cart's toast shows '$5 discount' (docs/product.md#cart), so fixed amounts travel in dollars; cents stay below the UI.
        amount: terms.type === 'fixed' ? Number(centsToDollars(terms.amount)) : terms.amount,
        discountCents: discountCents(subtotalCents, terms),
        // The cart keeps an accepted code and counts it only while its cart reaches this (docs/product.md#cart).
        minSubtotal: Number(centsToDollars(terms.minSubtotalCents ?? 0)),
      }
    },
    // The shop's pages send JSON; a form post or text body is not one of them.
    {
      detail: { summary: 'Check a discount code against a cart subtotal', tags: ['Shop'] },
      body: validateDiscountBody,
      parse: 'json',
      rateLimit: DISCOUNT_ATTEMPT_LIMIT,
    },
  )
}
