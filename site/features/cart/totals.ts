/** What a cart adds up to: money in cents, items, parcel weight. Kept apart from ./cart-logic (see there). */
import { dollarsToCents } from '@core/rules/money'
import { parseWeightOunces, totalWeightOunces } from '@core/rules/shipping'
import type { CartLine, CartProduct } from './store'

/** A product's price in cents; a price the shop cannot read counts as 0 rather than breaking the cart. */
export function unitCents(product: Pick<CartProduct, 'price'>): number {
  return dollarsToCents(product.price) ?? 0
}

export interface CartTotals {
  subtotalCents: number
  itemCount: number
  /** Ounces, rounded to 1 decimal. */
  weightOz: number
}

export function cartTotals(lines: readonly CartLine[]): CartTotals {
  return {
    subtotalCents: lines.reduce((sum, line) => sum + unitCents(line.product) * line.quantity, 0),
    itemCount: lines.reduce((sum, line) => sum + line.quantity, 0),
    weightOz: totalWeightOunces(
      lines.map((line) => ({ weightOz: parseWeightOunces(line.product.weight), quantity: line.quantity })),
    ),
  }
}
