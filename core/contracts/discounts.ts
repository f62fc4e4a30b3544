import { t } from 'elysia'
import { openSessionField } from './open-session'

export const validateDiscountBody = t.Object({
  code: t.String({ maxLength: 200, error: 'Please enter a discount code.' }),
  /** The cart subtotal in dollars, as the cart page sends it; only used for the minimum-order rule. */
  amount: t.Union([t.Number(), t.String({ maxLength: 20 })], {
    error: 'amount must be the cart subtotal in dollars.',
  }),
  open_session: openSessionField,
})

export const MAX_CODE_LENGTH = 40

/**
 * Guessing codes should be slow; a shopper trying a few never notices. Every call that says whether a
 * code is valid counts against this one allowance.
 */
export const DISCOUNT_ATTEMPT_LIMIT = {
  name: 'discount',
  max: 20,
  windowMs: 10 * 60 * 1000,
  message: 'Too many discount attempts. Please wait a few minutes and try again.',
}
