import type {
  orderHistory,
  orderLines,
  orderRefundLines,
  orderRefunds,
  orders,
} from '../../../db/schema/orders'
import type { ShippingAddress } from '../../adapters/types'

export const ORDER_JOBS = {
  confirmationEmail: 'order-confirmation-email',
  purchaseLabel: 'purchase-label',
  shippedEmail: 'order-shipped-email',
  refundEmail: 'order-refund-email',
  cancelledEmail: 'order-cancelled-email',
  voidLabel: 'void-label',
  /** Asks the payment provider for a refund; its handler is the fulfilment service's. */
  refundAtProvider: 'refund-at-provider',
  /**
   * Asks the payment provider for a payment's refunds when a `charge.refunded` event named more refunded
   * than the shop had counted and listed none; its handler is the fulfilment service's.
   */
  listRefunds: 'list-refunds',
} as const

/** Who made a status move that no person asked for: the webhook, the label job. */
export const SYSTEM_ACTOR = 'system'

/** Who made a refund in the payment provider's own dashboard: someone the shop does not know. */
export const PROVIDER_ACTOR = 'provider'

/** Who moved an order and why, for its history. */
export interface MoveNote {
  /** SYSTEM_ACTOR, or the id of the staff member who pressed the button. */
  actor: string
  reason: string
}

export type OrderRow = typeof orders.$inferSelect
export type OrderLineRow = typeof orderLines.$inferSelect
export type OrderHistoryEntry = typeof orderHistory.$inferSelect
export type RefundRow = typeof orderRefunds.$inferSelect
export type RefundLineRow = typeof orderRefundLines.$inferSelect

/** A refund with the units it returns (none for one by amount), each with its order line. */
export interface Refund extends RefundRow {
  lines: (Pick<RefundLineRow, 'refundId' | 'lineId' | 'quantity' | 'amountCents' | 'restockedQuantity'> & {
    name: string
    variant: string | null
    productId: number
    stockVariant: string | null
  })[]
}

export interface Order extends Omit<OrderRow, 'shippingAddress' | 'billingAddress'> {
  shippingAddress: ShippingAddress
  billingAddress: ShippingAddress
  lines: OrderLineRow[]
}

/**
 * One cart line as charged: the catalogue's price, and this line's share of the order discount, so line
 * totals add up to what was charged. A checkout session stores its lines in this shape and its order is
 * made from them unchanged.
 */
export interface ChargedLine {
  productId: number
  name: string
  variant: string | null
  unitCents: number
  quantity: number
  /** This line's share of the order discount. */
  discountCents: number
  weightTenthsOz: number
  /**
   * The stock the line draws on, as checkout named it (core/rules/stock.ts `stockVariant`: '' for a product
   * without scents): payment sells that, and the order line keeps it for a cancel or refund. Absent on
   * sessions stored before it was kept: worked out from the catalogue at payment.
   */
  stockVariant?: string | null
}

/**
 * What an order is made from: the figures the server charged, whoever computed them. The orders module
 * owns this shape; the fulfilment service fills it from a paid checkout session.
 */
export interface OrderDraft {
  /** The payment provider's checkout session: one session makes at most one order. */
  checkoutSessionId: string
  /** What a refund names at the provider (ProviderSession.paymentRef), when the paid event said. */
  paymentRef: string | null
  userId: string | null
  email: string
  shippingAddress: ShippingAddress
  billingAddress: ShippingAddress
  lines: ChargedLine[]
  discountCode: string | null
  subtotalCents: number
  discountCents: number
  shippingCents: number
  totalCents: number
  itemCount: number
  totalWeightTenthsOz: number
  shippingCarrier: string
  shippingService: string
  shippingServiceToken: string
}
