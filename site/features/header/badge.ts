/** The number on the cart icon: nothing for an empty cart, capped at '99+' (docs/product.md#every-page). */
export function badgeText(count: number): string {
  if (!Number.isFinite(count) || count <= 0) return ''
  return count > 99 ? '99+' : String(Math.floor(count))
}

/** The cart link's accessible name, e.g. 'Cart, 3 items'. */
export function cartLabel(count: number): string {
  const items = Number.isFinite(count) && count > 0 ? Math.floor(count) : 0
  return `Cart, ${items} ${items === 1 ? 'item' : 'items'}`
}
