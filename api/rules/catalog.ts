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

// Older links and records say 'repair' (spec §3); they mean the Workforce Repair range.
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

/** A product's weight as staff set it: ounces, more than 0 and at most 1,000, to one decimal. */
export const PRODUCT_WEIGHT_LIMITS = { maxOz: 1000 } as const

export const PRODUCT_WEIGHT_MESSAGE = `Weight must be a number of ounces above 0 and at most ${PRODUCT_WEIGHT_LIMITS.maxOz.toLocaleString('en-US')}, with at most one decimal (like 2.5).`

/**
 * Reads a staff weight edit: a number (or its digits as text, as a form field holds them) of ounces above
 * 0 and at most 1,000 with at most one decimal. Returns tenths of an ounce, the unit weights are stored
 * in, or null for anything else (0, negative, text, NaN, Infinity, 1e9, 2.55).
 */
export function parseProductWeight(input: unknown): number | null {
  let ounces: number
  if (typeof input === 'number') ounces = input
  else if (typeof input === 'string' && /^\s*\d{1,4}(\.\d)?\s*$/.test(input)) ounces = Number(input)
  else return null
  if (!Number.isFinite(ounces) || ounces <= 0 || ounces > PRODUCT_WEIGHT_LIMITS.maxOz) return null
  const tenths = Math.round(ounces * 10)
  // 2.3 * 10 is 22.999…: compare with a tolerance far below a hundredth of an ounce.
  if (Math.abs(ounces * 10 - tenths) > 1e-6 || tenths < 1) return null
  return tenths
}
