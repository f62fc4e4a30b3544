/**
 * What a shop card, the product page and the cart say of live stock (docs/decisions/026-stock-reserved-at-checkout.md).
 * A file of its own: the shop grid loads only this, at the edge of its JavaScript budget.
 */

/** What the catalogue says of a product's or variant's stock: not tracked, or how many can still be bought. */
export interface StockState {
  tracked: boolean
  /** Units on the shelf less those held by open checkouts; null when not tracked. */
  available: number | null
}

/** 'Only N left' shows from this many down. */
export const LOW_STOCK_AT = 5

/** 'Sold out', 'Only 3 left', or null when there is plenty (or nobody counts). */
export function stockNote(stock: StockState | null | undefined): string | null {
  if (!stock?.tracked || stock.available === null) return null
  if (stock.available <= 0) return 'Sold out'
  return stock.available <= LOW_STOCK_AT ? `Only ${stock.available} left` : null
}
