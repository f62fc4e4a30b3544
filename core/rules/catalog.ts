/** Product categories: ids are stored with products and used in URLs; labels are what people read. */

export const CATEGORIES = [
  { id: 'whisker-oil', label: 'Whisker Oil' },
  { id: 'whisker-tamer', label: 'Beard Balm' },
  { id: 'whisker-wash', label: 'Beard Wash' },
  { id: 'accessories', label: 'Accessories' },
  { id: 'workforce-repair', label: 'Workforce Repair' },
] as const

export type CategoryId = (typeof CATEGORIES)[number]['id']

/** The shop's unfiltered view. */
export const ALL_CATEGORY = { id: 'all', label: 'All Products' } as const

// Older links and records say 'repair' (docs/product.md#catalogue); they mean the Workforce Repair range.
const LEGACY_CATEGORIES: Readonly<Record<string, CategoryId>> = { repair: 'workforce-repair' }

export function isCategoryId(value: unknown): value is CategoryId {
  return CATEGORIES.some((category) => category.id === value)
}

/**
 * A category id from a URL, form or product record: known ids as they are, 'repair' as
 * 'workforce-repair', 'all' as 'all', anything else (including nothing) as null.
 */
export function normalizeCategory(value: string | null | undefined): CategoryId | 'all' | null {
  if (typeof value !== 'string') return null
  const id = value.trim().toLowerCase()
  if (id === ALL_CATEGORY.id) return ALL_CATEGORY.id
  if (isCategoryId(id)) return id
  return LEGACY_CATEGORIES[id] ?? null
}

export function categoryLabel(id: CategoryId | 'all'): string {
  if (id === ALL_CATEGORY.id) return ALL_CATEGORY.label
  return CATEGORIES.find((category) => category.id === id)?.label ?? ALL_CATEGORY.label
}

/**
 * How an order line is named to people: 'The Brush & Comb Duo (Cedar)'. A variant that only repeats the
 * product's name (an oil whose one scent carries its name) is left out: 'Hammered Citrus', not
 * 'Hammered Citrus (Hammered Citrus)'.
 */
export function lineLabel(line: { name: string; variant?: string | null }): string {
  return line.variant && line.variant !== line.name ? `${line.name} (${line.variant})` : line.name
}
