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

function sameLine(line: CartLine, productId: number, variant?: string): boolean {
  return line.product.id === productId && line.selectedVariant === variant
}

/** Adds `quantity` (default 1) of a product: raises an existing line's quantity, else appends a line. */
export function addLine(
  lines: readonly CartLine[],
  product: CartProduct,
  quantity = 1,
  variant?: string,
): CartLine[] {
  const added = clampQuantity(quantity)
  const existing = lines.find((line) => sameLine(line, product.id, variant))
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
