/**
 * Where a checkout session stands (shown by /success while the payment is confirmed). Kept with the rules
 * so the site can import the list without pulling in the database schema.
 */
export const CHECKOUT_SESSION_STATUSES = [
  'open',
  'payment_pending',
  'complete',
  'payment_failed',
  'expired',
] as const

export type CheckoutSessionStatus = (typeof CHECKOUT_SESSION_STATUSES)[number]
