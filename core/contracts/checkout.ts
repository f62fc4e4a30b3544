import { t } from 'elysia'
import { CHECKOUT_SESSION_STATUSES } from '../rules/checkout-status'
import { addressSchema } from './address'
import { openSessionField } from './open-session'
import { MAX_CART_LINES, MAX_QUOTE_ID_LENGTH, QUANTITY_ERROR } from './shipping'

/**
 * The checkout session request of docs/product.md#catalogue. Only product ids, quantities, the e-mail, addresses, the quote
 * id and the discount code are used; prices, names, weights and totals the page sends are ignored and
 * rebuilt on the server (docs/product.md#money).
 */
export const createSessionBody = t.Object({
  line_items: t.Array(
    t.Object({
      /** The catalogue product id: what the server prices this line from. */
      product_id: t.Integer({ minimum: 1, error: 'Each item needs a product id.' }),
      quantity: t.Integer({ minimum: 1, maximum: 99, error: QUANTITY_ERROR }),
      /** Optional scent or option, shown on the order. */
      variant: t.Optional(
        t.Nullable(t.String({ maxLength: 60, error: 'Please choose a product option from the list.' })),
      ),
      /** docs/product.md#catalogue shape, accepted for compatibility and ignored. */
      price_data: t.Optional(t.Unknown()),
    }),
    { minItems: 1, maxItems: MAX_CART_LINES, error: 'Your cart is empty or has too many lines.' },
  ),
  customer_email: t.String({ maxLength: 254, error: 'Please enter your e-mail address.' }),
  shipping_address: addressSchema,
  /** Omit (or send the shipping address) when billing is not separate. */
  billing_address: t.Optional(t.Nullable(addressSchema)),
  shipping_rate: t.Object(
    {
      /** The `id` of a rate from POST /api/shipping/rates. */
      id: t.String({
        minLength: 1,
        maxLength: MAX_QUOTE_ID_LENGTH,
        error: 'Please choose a shipping method.',
      }),
      price: t.Optional(t.Unknown()),
      carrier: t.Optional(t.Unknown()),
      serviceName: t.Optional(t.Unknown()),
      duration: t.Optional(t.Unknown()),
    },
    { error: 'Please choose a shipping method.' },
  ),
  /** docs/product.md#catalogue metadata: ignored, the server writes its own. */
  metadata: t.Optional(t.Unknown()),
  discount_code: t.Optional(t.Nullable(t.String({ maxLength: 64, error: 'The discount code is too long.' }))),
  /** The session this cart opened before: ended when this one opens (docs/decisions/032). */
  open_session: openSessionField,
})

export type CreateSessionBody = typeof createSessionBody.static

export const createSessionResponse = t.Object({
  sessionId: t.String(),
  /** Where to send the browser: /checkout?client_secret=… */
  url: t.String(),
})

export const sessionStatusResponse = t.Object({
  status: t.UnionEnum(CHECKOUT_SESSION_STATUSES),
  /** Padded to 6 digits, present once the payment is confirmed and the order exists. */
  orderNumber: t.Optional(t.String()),
})
