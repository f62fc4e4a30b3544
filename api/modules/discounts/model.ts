import { customerKey } from '@core/rules/customer'
import { and, eq, gt, or, type Placeholder, type SQL } from 'drizzle-orm'
import { type discountCodes, discountRedemptions } from '../../../db/schema'

export interface DiscountContext {
  subtotalCents: number
  /** The e-mail the session is for, kept with its reservation; no rule looks it up when a session opens. */
  email?: string
  /**
   * The signed-in customer's account. Per-customer rules (first order only, uses per customer) are checked
   * when a session opens against this account's own orders and uses, and only then: a guest's e-mail is
   * never looked up, since the answer would tell whoever typed it whether that address has ordered, and a
   * guest's reservation never holds anyone else's use (docs/decisions/021). Every payment is checked
   * again when it is paid, by e-mail and by account (repeatUseWarning).
   */
  userId?: string | null
}

export interface Customer {
  email: string
  key: string
  userId: string | null
}

/** Who a paid order belongs to, as the rules checked at payment compare customers. */
export interface PayingCustomer {
  email: string
  userId: string | null
}

export interface Redemption {
  orderRef: string
  email: string
  userId: string | null
  /** The reservation the paid session held, if any: it becomes this redemption. */
  reservationKey?: string | null
}

export interface Reservation {
  /** The checkout request's idempotency key: the same request reserves once. */
  key: string
  /** The payment session lasts until then; an unpaid reservation stops counting after it. */
  expiresAt: Date
  /**
   * The key of the use the cart's earlier session holds, handed over to this one in the same transaction
   * (docs/decisions/032-one-open-session-per-cart.md): not counted against it.
   */
  handedOver?: string
}

export type CodeRow = typeof discountCodes.$inferSelect

export const USED_UP_MESSAGE = 'This discount code has been used up.'
export const ALREADY_USED_MESSAGE = 'You have already used this discount code.'
export const FIRST_ORDER_MESSAGE = 'This code is for your first order only.'

export function customerOf(context: DiscountContext): Customer | null {
  const email = context.email?.trim().toLowerCase()
  return email ? { email, key: customerKey(email), userId: context.userId ?? null } : null
}

/**
 * The same customer, as the rules checked at payment see one: the same customer key, or the same account.
 * The key and account may be placeholders, for a statement built once (redemptions.ts).
 */
export function sameCustomer(customer: {
  key: string | Placeholder
  /** Null for a guest: then only the customer key matches. */
  userId: string | Placeholder | null
}): SQL {
  const byKey = eq(discountRedemptions.customerKey, customer.key)
  return (customer.userId ? or(byKey, eq(discountRedemptions.userId, customer.userId)) : byKey) as SQL
}

/** Uses that count against limits: paid ones, and reservations whose payment session may still be paid. */
export function counting(now: Date): SQL {
  return or(
    eq(discountRedemptions.status, 'redeemed'),
    and(eq(discountRedemptions.status, 'reserved'), gt(discountRedemptions.expiresAt, now)),
  ) as SQL
}

/** A first-order code is once per customer even when its row sets no per-customer limit. */
export function perCustomerLimit(row: CodeRow): number | null {
  if (row.maxPerCustomer !== null)
    return row.firstOrderOnly ? Math.min(row.maxPerCustomer, 1) : row.maxPerCustomer
  return row.firstOrderOnly ? 1 : null
}
