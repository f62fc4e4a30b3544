/** Product search and category filtering, used by the shop page and the products API. */
import { type CategoryId, categoryLabel, normalizeCategory } from './catalog'

export interface SearchableProduct {
  name: string
  description: string
  category: string
}

const BEARD_CATEGORIES: CategoryId[] = ['whisker-oil', 'whisker-tamer', 'whisker-wash', 'accessories']

/**
 * Words people type that do not appear in our product text: the ranges have brand names (Whisker Tamer),
 * so 'balm' or 'shampoo' would otherwise find nothing (docs/product.md#forms lists these synonyms).
 */
const SYNONYMS: Readonly<Record<string, readonly CategoryId[]>> = {
  oil: ['whisker-oil'],
  balm: ['whisker-tamer', 'workforce-repair'], // Workforce Repair is a hand balm
  tamer: ['whisker-tamer', 'workforce-repair'],
  wax: ['whisker-tamer', 'workforce-repair'],
  wash: ['whisker-wash'],
  shampoo: ['whisker-wash'],
  soap: ['whisker-wash'],
  brush: ['accessories'],
  comb: ['accessories'],
  tool: ['accessories'],
  repair: ['workforce-repair'],
  hand: ['workforce-repair'],
  beard: BEARD_CATEGORIES,
}

function synonymCategories(word: string): readonly CategoryId[] {
  // Plurals ('oils', 'brushes', 'hands') should find the same products as the singular.
  const candidates = [word, word.replace(/es$/, ''), word.replace(/s$/, '')]
  for (const candidate of candidates) {
    const categories = SYNONYMS[candidate]
    if (categories) return categories
  }
  return []
}

/** Lower-cased words with surrounding punctuation removed: 'Oil,' → 'oil'; a lone '&' disappears. */
function queryWords(query: string): string[] {
  return query
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((word) => word !== '')
}

function matchesWord(product: SearchableProduct, word: string): boolean {
  const category = normalizeCategory(product.category)
  const categoryId = category && category !== 'all' ? category : null
  const text = [
    product.name,
    product.description,
    product.category,
    categoryId ?? '',
    categoryId ? categoryLabel(categoryId) : '',
  ]
    .join('\n')
    .toLowerCase()
  if (text.includes(word)) return true
  return categoryId !== null && synonymCategories(word).includes(categoryId)
}

/**
 * Products matching every word of the query in name, description, category id or label, or through a
 * synonym. A blank query returns every product (docs/product.md#forms: an empty search is ignored). Order is kept.
 */
export function searchProducts<T extends SearchableProduct>(
  products: readonly T[],
  query: string | null | undefined,
): T[] {
  const words = queryWords(query ?? '')
  if (words.length === 0) return [...products]
  return products.filter((product) => words.every((word) => matchesWord(product, word)))
}

/**
 * Products in a category ('repair' counts as 'workforce-repair'). 'all', nothing, or an unknown category
 * shows everything, so an old or mistyped link lands on the full shop instead of an empty page.
 */
export function filterByCategory<T extends SearchableProduct>(
  products: readonly T[],
  category: string | null | undefined,
): T[] {
  const wanted = normalizeCategory(category)
  if (wanted === null || wanted === 'all') return [...products]
  return products.filter((product) => normalizeCategory(product.category) === wanted)
}
