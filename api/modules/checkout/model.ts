import type { CheckoutSessionStatus } from '@core/rules/checkout-status'
import type { checkoutSessions } from '../../../db/schema/checkout'
import type { ShippingAddress } from '../../adapters/types'
import type { ChargedLine } from '../orders/model'

/** A checkout session as stored: everything the order will be built from. */
/** A checkout session's end without payment. */
export type UnpaidEnd = 'expired' | 'payment_failed'

export interface CheckoutRecord {
  id: string
  provider: 'stripe' | 'demo'
  status: CheckoutSessionStatus
  email: string
  userId: string | null
  shippingAddress: ShippingAddress
  billingAddress: ShippingAddress
  lines: ChargedLine[]
  discountCode: string | null
  /** The discount use this session holds until it is paid, expires or fails. */
  discountReservationKey: string | null
  /** The units this session holds (stock_reservations), under the same key. */
  stockReservationKey: string | null
  subtotalCents: number
  discountCents: number
  shippingCents: number
  totalCents: number
  itemCount: number
  totalWeightTenthsOz: number
  quoteId: string
  shippingCarrier: string
  shippingService: string
  shippingServiceToken: string
  estimatedDaysMin: number
  estimatedDaysMax: number
}

export function toRecord({
  orderId: _orderId,
  createdAt: _c,
  updatedAt: _u,
  ...row
}: typeof checkoutSessions.$inferSelect): CheckoutRecord {
  return {
    ...row,
    shippingAddress: JSON.parse(row.shippingAddress) as ShippingAddress,
    billingAddress: JSON.parse(row.billingAddress) as ShippingAddress,
    lines: JSON.parse(row.lines) as ChargedLine[],
  }
}

/** Payment sessions expire after 24 hours (Stripe's default, and the demo provider's): then none can be paid. */
export const PAYMENT_SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000

/**
 * How long a discount use and units stay reserved for an unpaid session: by then the session can no longer be paid; the
 * extra hour covers clock differences with the provider.
 */
export const RESERVATION_LIFETIME_MS = PAYMENT_SESSION_LIFETIME_MS + 60 * 60 * 1000

/**
 * How long a session whose customer chose a delayed payment method (a US bank debit, which Stripe confirms
 * or fails within 4 business days) keeps its code's use and its units: 10 days covers the 4 business days
 * with weekends and holidays between. The failure event releases them at once; a payment later still is
 * checked as any late one (the order's warnings).
 */
export const DELAYED_PAYMENT_HOLD_MS = 10 * 24 * 60 * 60 * 1000

const SESSION_ID = /^cs_(test|live)_[A-Za-z0-9_]{1,250}$/

export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value)
}

export const CHECKOUT_JOBS = {
  expireFirstOrderSessions: 'expire-first-order-sessions',
} as const
