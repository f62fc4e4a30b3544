/** Free-shipping threshold and parcel weight, shared by the cart and the shipping quote. */

/** docs/product.md#free-shipping: free shipping from $35.00 of subtotal after discount (spec says 'over $35'). */
export const FREE_SHIPPING_THRESHOLD_CENTS = 3500

/** docs/product.md#catalogue: a product without a weight weighs 2.0 oz. */
export const DEFAULT_WEIGHT_OZ = 2.0

export function qualifiesForFreeShipping(subtotalAfterDiscountCents: number): boolean {
  return subtotalAfterDiscountCents >= FREE_SHIPPING_THRESHOLD_CENTS
}

/** The X in 'Add $X to qualify for free shipping'; 0 once the order qualifies. */
export function amountToFreeShippingCents(subtotalAfterDiscountCents: number): number {
  return Math.max(0, FREE_SHIPPING_THRESHOLD_CENTS - subtotalAfterDiscountCents)
}

/**
 * A product's weight in ounces from its stored value ('2.0', 1.5); missing, non-numeric, zero or negative
 * weights fall back to the default so a parcel is never quoted as weightless.
 */
export function parseWeightOunces(value: string | number | null | undefined): number {
  const weight = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  return typeof weight === 'number' && Number.isFinite(weight) && weight > 0 ? weight : DEFAULT_WEIGHT_OZ
}

/**
 * Total parcel weight, rounded half up to 1 decimal (docs/product.md#catalogue). Summed in thousandths of an ounce as
 * integers, so 0.1 × 3 is 0.3 and not 0.30000000000000004 nudging the rounding.
 */
export function totalWeightOunces(lines: readonly { weightOz: number; quantity: number }[]): number {
  const thousandths = lines.reduce((sum, line) => sum + Math.round(line.weightOz * 1000) * line.quantity, 0)
  return Math.round(thousandths / 100) / 10
}

/** 6 → '6.0 oz'. */
export function formatWeight(oz: number): string {
  return `${(Math.round(oz * 10) / 10).toFixed(1)} oz`
}
