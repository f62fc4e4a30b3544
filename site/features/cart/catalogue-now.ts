/**
 * The saved cart brought up to the catalogue as it is now, on the pages that show its totals: /cart with
 * the stock it reads anyway, /shipping when it opens (a cart may have been saved by an earlier version of
 * the shop, or at earlier prices: saved-cart.ts).
 */
import { formatCents } from '@core/rules/money'
import type { LiveProduct } from '../catalog/stock'
import { showToast } from '../toasts/store'
import { joinFirstScentLines, withLivePrices } from './saved-cart'
import { cartLines } from './store'

/**
 * A line without a scent joined with its product's first scent's line, and each line at the catalogue's
 * price and weight; a price that changed since the line was added is said, so the total checkout charges
 * is not a surprise (docs/product.md#cart). Nothing when the catalogue did not answer (`products` empty).
 */
export function fitCartToCatalogue(products: readonly LiveProduct[]): void {
  if (products.length === 0) return
  const live = (id: number) => products.find((product) => product.id === id)
  const saved = cartLines.get()
  const joined = joinFirstScentLines(saved, (id) => live(id)?.variants[0]?.name)
  const { lines, repriced } = withLivePrices(joined, live)
  if (lines !== saved) cartLines.set([...lines])
  if (repriced.length === 0) return
  showToast({
    title: repriced.length === 1 ? 'Price Updated' : 'Prices Updated',
    description: repriced
      .map(
        ({ name, wasCents, nowCents }) =>
          `${name} is now ${formatCents(nowCents)} each (was ${formatCents(wasCents)}).`,
      )
      .join(' '),
  })
}
