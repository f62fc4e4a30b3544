/**
 * Pure cart rules: lines in, new lines out. The store and the tests use these; nothing here touches the
 * browser. A line's identity is its product id plus its variant (docs/product.md#product-page). No imports: the
 * header loads this on every page, and the money rules belong only to pages that show totals (./totals.ts).
 */

/** What the cart keeps of a product: enough to show the line. Prices are re-checked by the server. */
export interface CartProduct {
  id: number
  name: string
  slug: string
  category: string
  /** Dollars as shown on the product page, e.g. '21.00'. */
  price: string
  /** Ounces, e.g. '2.0'. */
  weight: string
  image: string
}

export interface CartLine {
  product: CartProduct
  quantity: number
  selectedVariant?: string
}

/** A line holds at most this many: more is a typo, and the stepper has to stop somewhere. */
export const MAX_QUANTITY = 99

/** Whole numbers from 1 to 99; anything unreadable counts as 1. */
export function clampQuantity(quantity: number): number {
  if (!Number.isFinite(quantity)) return 1
  return Math.min(MAX_QUANTITY, Math.max(1, Math.floor(quantity)))
}

/**
 * Whether `line` is the product's line in `variant`. A line without a scent is sold as the product's first
 * (the server names it so, docs/decisions/026-stock-reserved-at-checkout.md): when the page adding knows
 * that first scent (`firstScent`), a line without one and the first scent are one line, whichever came first.
 */
function sameLine(line: CartLine, productId: number, variant?: string, firstScent?: string): boolean {
  if (line.product.id !== productId) return false
  if (line.selectedVariant === variant) return true
  return firstScent !== undefined && (line.selectedVariant ?? firstScent) === (variant ?? firstScent)
}

/** The product's line that an add of `variant` goes to (see sameLine), if the cart has one. */
export function lineFor(
  lines: readonly CartLine[],
  productId: number,
  variant?: string,
  firstScent?: string,
): CartLine | undefined {
  return lines.find((line) => sameLine(line, productId, variant, firstScent))
}

/**
 * Adds `quantity` (default 1) of a product: raises an existing line's quantity (the line keeps the scent it
 * was added with), else appends a line. `firstScent`: the product's first scent, when the page knows it.
 */
export function addLine(
  lines: readonly CartLine[],
  product: CartProduct,
  quantity = 1,
  variant?: string,
  firstScent?: string,
): CartLine[] {
  const added = clampQuantity(quantity)
  const existing = lineFor(lines, product.id, variant, firstScent)
  if (!existing) {
    const line: CartLine = { product, quantity: added }
    if (variant !== undefined) line.selectedVariant = variant
    return [...lines, line]
  }
  return lines.map((line) =>
    line === existing ? { ...line, product, quantity: clampQuantity(line.quantity + added) } : line,
  )
}

/** Sets a line's quantity; 0 or less removes the line (docs/product.md#cart). */
export function updateQuantity(
  lines: readonly CartLine[],
  productId: number,
  quantity: number,
  variant?: string,
): CartLine[] {
  if (Number.isNaN(quantity)) return [...lines]
  if (quantity <= 0) return removeLine(lines, productId, variant)
  return lines.map((line) =>
    sameLine(line, productId, variant) ? { ...line, quantity: clampQuantity(quantity) } : line,
  )
}

export function removeLine(lines: readonly CartLine[], productId: number, variant?: string): CartLine[] {
  return lines.filter((line) => !sameLine(line, productId, variant))
}
