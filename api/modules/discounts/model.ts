import { t } from 'elysia'

export const validateDiscountBody = t.Object({
  code: t.String({ maxLength: 200, error: 'Please enter a discount code.' }),
  /** The cart subtotal in dollars, as the spec sends it; only used for the minimum-order rule. */
  amount: t.Union([t.Number(), t.String({ maxLength: 20 })], {
    error: 'amount must be the cart subtotal in dollars.',
  }),
})

export const MAX_CODE_LENGTH = 40
