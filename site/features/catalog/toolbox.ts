/** Home toolbox (docs/product.md#home): the Workforce Repair product leads whenever it is in the list, else the first. */
export const SIDE_PRODUCTS = 4

export function featuredSplit<T extends { category: string }>(
  products: readonly T[],
): { featured: T | null; others: T[] } {
  const featured = products.find((product) => product.category === 'workforce-repair') ?? products[0] ?? null
  return { featured, others: products.filter((product) => product !== featured).slice(0, SIDE_PRODUCTS) }
}
