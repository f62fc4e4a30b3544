/**
 * Product weights as staff set them on the dashboard. Apart from the catalogue rules, which every shop page
 * loads: only the dashboard needs these.
 */
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
