/**
 * Stock as shoppers and staff see it (docs/decisions/026-stock-reserved-at-checkout.md). Small on purpose:
 * the shop grid, the product page and the cart load it. What a note says is in ./stock-note.ts, all the
 * shop grid loads.
 */
import type { StockState } from './stock-note'

export { LOW_STOCK_AT, type StockState, stockNote } from './stock-note'

/** The most units staff can record for one product or variant. */
export const MAX_STOCK = 99_999

/** MAX_STOCK written out: a plain literal, so the pages that load these rules carry no formatting code. */
export const STOCK_MESSAGE =
  'Stock must be a whole number of units from 0 to 99,999, or empty to stop counting it.'

/**
 * The stock a cart line draws on: '' for a product without variants (whatever the line says); the
 * variant itself when the product has it; the product's first variant when the line names none (the
 * one the product page preselects, and what a shop card adds); null for a variant the product does not
 * have.
 */
export function stockVariant(variants: readonly string[], variant: string | null | undefined): string | null {
  if (variants.length === 0) return ''
  if (variant === null || variant === undefined || variant === '') return variants[0] ?? ''
  return variants.includes(variant) ? variant : null
}

/**
 * The counted stock of a product that its content no longer lists: a scent renamed or removed, or the
 * product's own figure once it has scents (or a scent's once it has none). Sold or held units of orders
 * made before still come back there (docs/editing.md), so staff see it and can move its units.
 */
export function formerVariants(variants: readonly string[], counted: readonly string[]): string[] {
  const listed = variants.length === 0 ? [''] : variants
  return counted.filter((variant) => !listed.includes(variant))
}

/** How many of `wanted` can be bought: all of them when stock is not tracked. */
export function purchasable(stock: StockState | null | undefined, wanted: number): number {
  if (!stock?.tracked || stock.available === null) return wanted
  return Math.max(0, Math.min(wanted, stock.available))
}

/** The 409 a checkout gets when a line asks for more than is left: names the line and what is left. */
export function shortageMessage(label: string, available: number): string {
  return available <= 0
    ? `${label} is sold out. Please remove it from your cart.`
    : `Only ${available} left of ${label}. Please lower the quantity in your cart.`
}

/** What staff may type under 'Received': units that came in, added to the shelf's figure. */
export const RECEIVED_MESSAGE = 'Units received must be a whole number from 1 to 99,999.'

/** Reads a staff stock edit: a whole number 0–99,999 (or its digits as text), null to stop counting. */
export function parseStock(input: unknown): number | null | undefined {
  if (input === null || input === '') return null
  if (typeof input === 'string' && /^\s*\d{1,5}\s*$/.test(input)) return Number(input)
  if (typeof input === 'number' && Number.isInteger(input) && input >= 0 && input <= MAX_STOCK) return input
  return undefined
}
