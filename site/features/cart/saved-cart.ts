/**
 * Rules for a cart saved by an earlier version of the shop, applied on the cart page only (kept out of
 * ./cart-logic.ts, which the header loads on every page).
 */
import { type CartLine, clampQuantity, lineFor } from './cart-logic'

/**
 * A cart saved before a line without a scent and its product's first scent counted as one line (see
 * sameLine) may hold both: joined here into the line that came first, once the page knows each product's
 * first scent (`firstScentOf`, from the live catalogue). The same lines come back when nothing joins.
 */
export function joinFirstScentLines(
  lines: readonly CartLine[],
  firstScentOf: (productId: number) => string | undefined,
): readonly CartLine[] {
  const joined: CartLine[] = []
  for (const line of lines) {
    const firstScent = firstScentOf(line.product.id)
    const earlier = lineFor(joined, line.product.id, line.selectedVariant, firstScent)
    if (!earlier) {
      joined.push(line)
      continue
    }
    joined[joined.indexOf(earlier)] = {
      ...earlier,
      quantity: clampQuantity(earlier.quantity + line.quantity),
    }
  }
  return joined.length === lines.length ? lines : joined
}
