/**
 * 'You May Also Like' (docs/product.md#product-page): up to `limit` other products of the same category. Each range has only
 * one product today, so a strict same-category list would leave the section empty; it is filled up with
 * other products, in catalogue order, so every page still suggests something.
 */
export function relatedProducts<T extends { id: number; category: string }>(
  all: readonly T[],
  current: T,
  limit = 3,
): T[] {
  const others = all.filter((product) => product.id !== current.id)
  const sameCategory = others.filter((product) => product.category === current.category)
  const rest = others.filter((product) => product.category !== current.category)
  return [...sameCategory, ...rest].slice(0, limit)
}
