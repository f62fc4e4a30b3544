/**
 * Mailer size by item count (docs/product.md#limits). Label purchase (and the package calculator of docs/product.md#forms) use
 * packageForItemCount; the cart summary shows cartPackageLabel.
 */

export type PackageType = 'small' | 'medium' | 'large'

/** Inches. */
export interface PackageDimensions {
  width: number
  length: number
  height: number
}

export interface PackageRecommendation {
  type: PackageType
  dimensions: PackageDimensions
}

/** The calculator accepts 1–20 items (docs/product.md#limits, docs/product.md#packages). */
export const PACKAGE_ITEM_LIMITS = { min: 1, max: 20 } as const

const MAILERS: Readonly<Record<PackageType, Readonly<PackageDimensions>>> = {
  small: { width: 4.25, length: 7, height: 1 },
  medium: { width: 5, length: 9, height: 1 },
  large: { width: 7.5, length: 10.5, height: 1.5 },
}

function typeForItemCount(itemCount: number): PackageType {
  if (itemCount <= 2) return 'small'
  if (itemCount <= 4) return 'medium'
  return 'large'
}

/**
 * 1–2 items: small mailer 4.25 × 7 × 1; 3–4: medium 5 × 9 × 1; 5 or more: large 7.5 × 10.5 × 1.5.
 * Counts below 1 get the small mailer, since nothing is smaller. Returns a fresh object each call so a
 * caller cannot alter the shared table.
 */
export function packageForItemCount(itemCount: number): PackageRecommendation {
  const type = typeForItemCount(itemCount)
  return { type, dimensions: { ...MAILERS[type] } }
}

/**
 * Reads the calculator's item count from a form or query value: an integer from 1 to 20 (as a number or
 * digits), else null. The UI falls back to 1 on null; the API answers 422 (docs/decisions/015).
 */
export function parsePackageItemCount(input: unknown): number | null {
  let count: number
  if (typeof input === 'number') count = input
  else if (typeof input === 'string' && /^\d{1,3}$/.test(input.trim())) count = Number(input.trim())
  else return null
  if (!Number.isInteger(count)) return null
  return count >= PACKAGE_ITEM_LIMITS.min && count <= PACKAGE_ITEM_LIMITS.max ? count : null
}

export type CartPackageLabel = 'Small' | 'Medium' | 'Large'

/** The cart summary's label: 2 or fewer small, 4 or fewer medium, above that large; none for an empty cart. */
export function cartPackageLabel(itemCount: number): CartPackageLabel | null {
  if (!(itemCount > 0)) return null
  if (itemCount <= 2) return 'Small'
  if (itemCount <= 4) return 'Medium'
  return 'Large'
}
