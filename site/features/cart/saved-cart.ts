/**
 * Rules for a cart saved earlier: by an earlier version of the shop, or at earlier prices. Applied on the
 * pages that show the cart's totals only (kept out of ./cart-logic.ts, which the header loads on every page).
 */
import { dollarsToCents } from '@core/rules/money'
import { parseWeightOunces } from '@core/rules/shipping'
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

/** A line whose saved price was not the shop's price any more: its name, and the two prices in cents. */
export interface Repriced {
  name: string
  wasCents: number
  nowCents: number
}

/**
 * A cart keeps each product's price and weight from when it was added; the shop's may have changed since
 * (prices with a redeploy, weights by staff: docs/product.md#catalogue). Each line takes the live
 * catalogue's (`liveOf`), so the totals, the free-shipping line and whether a code's minimum is reached are
 * the ones checkout will charge; what changed in price is listed once per product to be said. A product the
 * catalogue does not list, or a figure it gives that cannot be read, leaves the line as it is. The same
 * array comes back when nothing changes, so the store is not written.
 */
export function withLivePrices(
  lines: readonly CartLine[],
  liveOf: (productId: number) => { price: string; weight: string } | undefined,
): { lines: readonly CartLine[]; repriced: Repriced[] } {
  const repriced: Repriced[] = []
  let changed = false
  const updated = lines.map((line) => {
    const live = liveOf(line.product.id)
    if (!live) return line
    const wasCents = dollarsToCents(line.product.price)
    const nowCents = dollarsToCents(live.price)
    const newPrice = nowCents !== null && nowCents !== wasCents
    const liveOunces = Number(live.weight)
    const newWeight =
      typeof live.weight === 'string' &&
      live.weight.trim() !== '' &&
      Number.isFinite(liveOunces) &&
      liveOunces > 0 &&
      liveOunces !== parseWeightOunces(line.product.weight)
    if (!newPrice && !newWeight) return line
    changed = true
    if (newPrice && wasCents !== null && !repriced.some((each) => each.name === line.product.name))
      repriced.push({ name: line.product.name, wasCents, nowCents })
    return {
      ...line,
      product: {
        ...line.product,
        ...(newPrice ? { price: live.price } : {}),
        ...(newWeight ? { weight: live.weight } : {}),
      },
    }
  })
  return { lines: changed ? updated : lines, repriced }
}
