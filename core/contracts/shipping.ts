import { t } from 'elysia'
import { addressSchema } from './address'
import { openSessionField } from './open-session'
import { wholeNumber } from './whole-number'

export type { AddressInput } from './address'

/**
 * The longest rate id the shop accepts: checkout sends it to the payment provider as metadata, whose
 * values Stripe caps at 500 characters.
 */
export const MAX_QUOTE_ID_LENGTH = 500

export const QUANTITY_ERROR = 'Quantities must be whole numbers from 1 to 99.'
export const MAX_CART_LINES = 50

export const ratesBody = t.Object({
  address: addressSchema,
  items: t.Array(
    t.Object({
      /** The catalogue product id, when the caller knows it; otherwise the product is found by name. */
      id: t.Optional(t.Integer({ minimum: 1, error: 'Each item needs a product id.' })),
      /** docs/product.md#api: the product's name, as the catalogue spells it (any capitals). */
      name: t.Optional(t.String({ maxLength: 200, error: 'Each item needs a product name.' })),
      quantity: t.Integer({ minimum: 1, maximum: 99, error: QUANTITY_ERROR }),
      /** docs/product.md#api sends it; ignored, since weights come from the catalogue, never from the request. */
      weight: t.Optional(t.Union([t.String(), t.Number()])),
    }),
    { minItems: 1, maxItems: MAX_CART_LINES, error: 'Your cart is empty or has too many lines.' },
  ),
  /** Ignored: the server recomputes the subtotal from the catalogue. */
  subtotal: t.Optional(t.Union([t.String(), t.Number()])),
  /** Optional: lets the free-shipping line reflect an applied discount code. */
  discount_code: t.Optional(t.Nullable(t.String({ maxLength: 64, error: 'The discount code is too long.' }))),
  open_session: openSessionField,
})

export type RatesBody = typeof ratesBody.static

export const rateView = t.Object({
  /** Quote id: send it back as shipping_rate.id when creating the checkout session. */
  id: t.String(),
  /** Dollars, e.g. 7.5 for $7.50; 0 when free shipping applies. */
  price: t.Number(),
  carrier: t.String(),
  serviceName: t.String(),
  /** The longest delivery estimate in business days ('Estimated delivery: N business days'). */
  estimatedDays: wholeNumber(),
  deliveryEstimate: t.Object({ minDays: wholeNumber(), maxDays: wholeNumber() }),
  /** True when this is the standard service made free by the order's subtotal. */
  free: t.Boolean(),
})

export type RateView = typeof rateView.static

export const ratesResponse = t.Object({ rates: t.Array(rateView) })
