/**
 * Discount arithmetic in integer cents. The server recomputes all of this from the catalogue and the
 * stored discount (docs/product.md#money); the site uses the same functions so the cart shows what will be charged.
 */
import { formatCents, MIN_CHARGE_CENTS } from './money'

export type DiscountType = 'percentage' | 'fixed'

export interface DiscountTerms {
  code: string
  type: DiscountType
  /** A whole percent (1–100) for 'percentage'; cents for 'fixed'. */
  amount: number
  /**
   * The subtotal the code needs, in cents (0 or absent: none). The server refuses a code below it; the cart
   * keeps an accepted code whose cart has since fallen below it, and counts it only once the subtotal is back.
   */
  minSubtotalCents?: number
}

/** A cart line priced from the catalogue; `key` identifies it (product id plus variant). */
export interface PricedLine {
  key: string
  unitCents: number
  quantity: number
}

/** One item as the payment provider receives it: integer unit amount in cents. */
export type ChargeableLine = PricedLine

export interface OrderTotals {
  subtotalCents: number
  discountCents: number
  shippingCents: number
  totalCents: number
  itemCount: number
}

/** Terms a discount record must satisfy before it may be offered to a customer. */
export function isValidDiscountTerms(terms: DiscountTerms): boolean {
  if (terms.code.trim() === '') return false
  if (!Number.isInteger(terms.amount)) return false
  if (terms.type === 'percentage') return terms.amount >= 1 && terms.amount <= 100
  return terms.type === 'fixed' && terms.amount >= 1
}

function nonNegativeInteger(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : 0
}

/**
 * The discount on a subtotal, always within [0, subtotal]. Percentages round half up to the cent
 * (integer arithmetic: (subtotal × pct + 50) / 100); fixed amounts are capped at the subtotal (docs/product.md#limits).
 */
export function discountCents(subtotalCents: number, terms: DiscountTerms | null | undefined): number {
  const subtotal = nonNegativeInteger(subtotalCents)
  if (!terms || discountShortfallCents(subtotal, terms) > 0) return 0
  const raw =
    terms.type === 'percentage'
      ? Math.floor((subtotal * Math.min(nonNegativeInteger(terms.amount), 100) + 50) / 100)
      : nonNegativeInteger(terms.amount)
  return Math.min(raw, subtotal)
}

/** How much more subtotal the code needs before it counts (0: it counts, or there is no code). */
export function discountShortfallCents(
  subtotalCents: number,
  terms: DiscountTerms | null | undefined,
): number {
  const minimum = nonNegativeInteger(terms?.minSubtotalCents ?? 0)
  return Math.max(0, minimum - nonNegativeInteger(subtotalCents))
}

/** The code a checkout or rates request names: the applied one, unless the cart is below its minimum. */
export function codeThatCounts(
  subtotalCents: number,
  terms: DiscountTerms | null | undefined,
): string | null {
  return terms && discountShortfallCents(subtotalCents, terms) === 0 ? terms.code : null
}

function assertLine(line: Pick<PricedLine, 'unitCents' | 'quantity'>): void {
  // Lines are built by our own code from the catalogue; a bad one is a bug, not customer input.
  if (!Number.isSafeInteger(line.unitCents) || line.unitCents < 0) {
    throw new RangeError(`unitCents must be a non-negative integer (got ${line.unitCents})`)
  }
  if (!Number.isSafeInteger(line.quantity) || line.quantity < 0) {
    throw new RangeError(`quantity must be a non-negative integer (got ${line.quantity})`)
  }
}

function lineValue(line: Pick<PricedLine, 'unitCents' | 'quantity'>): number {
  assertLine(line)
  return line.unitCents * line.quantity
}

/**
 * Spreads a discount over lines in proportion to their value (largest-remainder method) so the parts
 * sum exactly to the discount (capped at the subtotal) and no line is discounted beyond its value.
 * Leftover cents go to the largest remainders; equal remainders go to the earlier line, so the result
 * is the same on every run and on both sides of the wire. BigInt keeps value × discount exact.
 */
export function allocateDiscount(lines: readonly PricedLine[], discount: number): number[] {
  const values = lines.map(lineValue)
  const total = values.reduce((sum, value) => sum + value, 0)
  const capped = Math.min(nonNegativeInteger(discount), total)
  if (capped === 0) return values.map(() => 0)

  const bigTotal = BigInt(total)
  const shares = values.map((value, index) => {
    const scaled = BigInt(value) * BigInt(capped)
    return { index, base: Number(scaled / bigTotal), remainder: scaled % bigTotal }
  })
  let leftover = capped - shares.reduce((sum, share) => sum + share.base, 0)
  const byRemainder = [...shares].sort((a, b) =>
    a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
  )
  const parts = shares.map((share) => share.base)
  // Only lines with a non-zero remainder can be reached: there are always more of them than leftover
  // cents, and each has base < its exact share ≤ its value, so +1 never exceeds the line's value.
  for (const share of byRemainder) {
    if (leftover === 0) break
    parts[share.index] = (parts[share.index] ?? 0) + 1
    leftover -= 1
  }
  return parts
}

/**
 * Turns discounted lines into provider line items whose integer unit amounts sum exactly to
 * subtotal − discount. A line whose discounted total does not divide by its quantity becomes two items:
 * quantity − 1 units at the floor price and 1 unit carrying the remainder. Items priced at 0 cents
 * (a line discounted to nothing) are left out because the provider needs positive unit amounts; the
 * order itself keeps the real quantities, and callers must still check the minimum charge.
 */
export function chargeableLines(lines: readonly PricedLine[], discount: number): ChargeableLine[] {
  const parts = allocateDiscount(lines, discount)
  const items: ChargeableLine[] = []
  lines.forEach((line, index) => {
    if (line.quantity === 0) return
    const lineTotal = line.unitCents * line.quantity - (parts[index] ?? 0)
    const floorUnit = Math.floor(lineTotal / line.quantity)
    const remainder = lineTotal - floorUnit * line.quantity
    if (remainder === 0) {
      if (floorUnit > 0) items.push({ key: line.key, unitCents: floorUnit, quantity: line.quantity })
      return
    }
    if (floorUnit > 0 && line.quantity > 1) {
      items.push({ key: line.key, unitCents: floorUnit, quantity: line.quantity - 1 })
    }
    items.push({ key: line.key, unitCents: floorUnit + remainder, quantity: 1 })
  })
  return items
}

/**
 * The figures shown in the cart and charged at checkout. Shipping is the price of the quote the server
 * issued (already 0 when free shipping applies); it is never discounted.
 */
export function orderTotals(input: {
  lines: readonly Pick<PricedLine, 'unitCents' | 'quantity'>[]
  discount: DiscountTerms | null | undefined
  shippingCents: number
}): OrderTotals {
  const subtotalCents = input.lines.reduce((sum, line) => sum + lineValue(line), 0)
  const itemCount = input.lines.reduce((sum, line) => sum + line.quantity, 0)
  const discount = discountCents(subtotalCents, input.discount)
  const shippingCents = nonNegativeInteger(input.shippingCents)
  return {
    subtotalCents,
    discountCents: discount,
    shippingCents,
    totalCents: subtotalCents - discount + shippingCents,
    itemCount,
  }
}

/** docs/product.md#forms: the total after discounts must be at least $0.50. */
export function meetsMinimumCharge(totalCents: number): boolean {
  return totalCents >= MIN_CHARGE_CENTS
}

/** The toast shown once a code is accepted: '10% discount …' or '$5 discount …' (no '.00' when whole). */
export function describeDiscount(terms: DiscountTerms): string {
  const amount =
    terms.type === 'percentage'
      ? `${terms.amount}%`
      : formatCents(nonNegativeInteger(terms.amount)).replace(/\.00$/, '')
  return `${amount} discount has been applied to your order.`
}
