/**
 * Turns the cart and the /shipping form into the bodies of POST /api/shipping/rates and
 * POST /api/create-checkout-session (docs/product.md#checkout-calls). The server reprices everything from product ids; the
 * names, prices and weights sent beside them follow the old request's shape and are ignored there.
 */
import type { CreateSessionBody, createSessionResponse } from '@core/contracts/checkout'
import type { RatesBody, RateView } from '@core/contracts/shipping'
import { type DiscountTerms, meetsMinimumCharge, orderTotals } from '@core/rules/discounts'
import { dollarsToCents } from '@core/rules/money'
import { parseWeightOunces, totalWeightOunces } from '@core/rules/shipping'
import type { CartLine } from '../cart/store'
import { type CheckoutDraft, toApiAddress } from './form'

export type Rate = RateView
export type SessionAnswer = typeof createSessionResponse.static

/** Cents of one cart line's unit price; a price the page cannot read counts as 0 (the server has the real one). */
function unitCents(line: CartLine): number {
  return dollarsToCents(line.product.price) ?? 0
}

/** A line's value in cents at the price the page shows. */
export function lineCents(line: CartLine): number {
  return unitCents(line) * line.quantity
}

export function cartWeightOunces(lines: readonly CartLine[]): number {
  return totalWeightOunces(
    lines.map((line) => ({ weightOz: parseWeightOunces(line.product.weight), quantity: line.quantity })),
  )
}

/** Subtotal, discount and the total before shipping, as the cart shows them. */
export function goodsTotals(lines: readonly CartLine[], discount: DiscountTerms | null | undefined) {
  return orderTotals({
    lines: lines.map((line) => ({ unitCents: unitCents(line), quantity: line.quantity })),
    discount,
    shippingCents: 0,
  })
}

/** docs/product.md#money: the order after discounts must reach $0.50 before a payment can start. */
export function isBelowMinimumCharge(
  lines: readonly CartLine[],
  discount: DiscountTerms | null | undefined,
): boolean {
  return !meetsMinimumCharge(goodsTotals(lines, discount).totalCents)
}

export function ratesRequest(
  draft: CheckoutDraft,
  lines: readonly CartLine[],
  discountCode: string | null,
): RatesBody {
  const subtotal = goodsTotals(lines, null).subtotalCents
  return {
    address: toApiAddress(draft.shipping),
    items: lines.map((line) => ({
      id: line.product.id,
      name: line.product.name,
      quantity: line.quantity,
      weight: line.product.weight,
    })),
    subtotal: (subtotal / 100).toFixed(2),
    ...(discountCode ? { discount_code: discountCode } : {}),
  }
}

export function sessionRequest(
  draft: CheckoutDraft,
  lines: readonly CartLine[],
  rate: Rate,
  discountCode: string | null,
): CreateSessionBody {
  const shipping = toApiAddress(draft.shipping)
  return {
    line_items: lines.map((line) => ({
      product_id: line.product.id,
      quantity: line.quantity,
      ...(line.selectedVariant ? { variant: line.selectedVariant } : {}),
      price_data: {
        currency: 'usd',
        product_data: { name: line.product.name, description: line.product.category },
        unit_amount: unitCents(line),
      },
    })),
    customer_email: draft.email.trim(),
    shipping_address: shipping,
    billing_address: draft.separateBilling ? toApiAddress(draft.billing) : shipping,
    shipping_rate: {
      id: rate.id,
      price: rate.price,
      carrier: rate.carrier,
      serviceName: rate.serviceName,
      duration: deliveryText(rate.estimatedDays),
    },
    metadata: {
      shipping_rate_id: rate.id,
      total_weight: cartWeightOunces(lines).toFixed(1),
      item_count: String(lines.reduce((sum, line) => sum + line.quantity, 0)),
    },
    ...(discountCode ? { discount_code: discountCode } : {}),
  }
}

/** '1 business day', '5 business days'. */
export function deliveryText(days: number): string {
  return `${days} business ${days === 1 ? 'day' : 'days'}`
}

/**
 * What a quote was priced for: the destination (not the recipient's name, as on the server), the
 * products and quantities, and the discount code (free shipping depends on it). When it changes, the
 * rates on screen no longer apply.
 */
export function quoteBinding(
  draft: CheckoutDraft,
  lines: readonly CartLine[],
  discountCode: string | null,
): string {
  const { name: _name, ...destination } = toApiAddress(draft.shipping)
  const items = lines
    .map((line) => [line.product.id, line.quantity])
    .sort((a, b) => Number(a[0]) - Number(b[0]))
  return JSON.stringify({ destination, items, discountCode })
}
