import { t } from 'elysia'

/**
 * `open_session`: the payment session this cart opened before, if the browser still has one
 * (docs/decisions/032-one-open-session-per-cart.md). Its code's use and its units are the cart's own: the
 * discount check and the rates do not count them against the cart, and a new checkout session ends it.
 * Optional everywhere; a session that is not open, or not this customer's, is simply not counted as theirs.
 */
export const openSessionField = t.Optional(
  t.String({ maxLength: 300, error: 'open_session must be a checkout session id.' }),
)
