import type { ShippingAddress } from '../../adapters/types'

/**
 * What an order is made from: the figures the server charged, whoever computed them. The orders module
 * owns this shape; the webhook service fills it from a paid checkout session.
 */
export interface OrderDraft {
  /** The payment provider's checkout session: one session makes at most one order. */
  checkoutSessionId: string
  userId: string | null
  email: string
  shippingAddress: ShippingAddress
  billingAddress: ShippingAddress
  lines: OrderDraftLine[]
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

export interface OrderDraftLine {
  productId: number
  name: string
  variant: string | null
  unitCents: number
  quantity: number
  /** This line's share of the order discount. */
  discountCents: number
  weightTenthsOz: number
}
