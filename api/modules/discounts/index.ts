import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { badRequest } from '../../plugins/errors'
import { clientAddress, type RateLimiter } from '../../plugins/rate-limit'
import { discountCents } from '../../rules/discounts'
import { centsToDollars, dollarsToCents } from '../../rules/money'
import { MAX_CODE_LENGTH, validateDiscountBody } from './model'
import { createDiscountService } from './service'

/** Guessing codes should be slow; a shopper trying a few never notices. */
const ATTEMPT_LIMIT = {
  max: 20,
  windowMs: 10 * 60 * 1000,
  message: 'Too many discount attempts. Please wait a few minutes and try again.',
}

/** No cart in this shop comes near this; anything above is a typo or a probe. */
const MAX_SUBTOTAL_CENTS = 100_000_00

export function discountRoutes(deps: AppDeps, limit: RateLimiter) {
  const discounts = createDiscountService(deps.db, deps.clock)
  return new Elysia().post(
    '/api/validate-discount',
    async ({ body, request, server }) => {
      const code = body.code.trim()
      if (!code || code.length > MAX_CODE_LENGTH) throw badRequest('Please enter a discount code.')
      const subtotalCents = dollarsToCents(body.amount)
      if (subtotalCents === null || subtotalCents > MAX_SUBTOTAL_CENTS) {
        throw badRequest('amount must be the cart subtotal in dollars, like 42.00.')
      }
      await limit(`discount:${clientAddress(request, server, deps.config.trustProxy)}`, ATTEMPT_LIMIT)
      const terms = await discounts.validate(code, { subtotalCents })
      return {
        code: terms.code,
        type: terms.type,
        // The spec's toast shows '$5 discount', so fixed amounts travel in dollars; cents stay below the UI.
        amount: terms.type === 'fixed' ? Number(centsToDollars(terms.amount)) : terms.amount,
        discountCents: discountCents(subtotalCents, terms),
      }
    },
    // The shop's pages send JSON; a form post or text body is not one of them.
    { body: validateDiscountBody, parse: 'json' },
  )
}
