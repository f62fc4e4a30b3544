/**
 * A cart rebuilt on the server from product ids and quantities: names, prices and weights come from the
 * catalogue, never from the browser (docs/product.md#money). Both the shipping quote and the checkout session use it,
 * and the fingerprint ties a quote to the cart it was weighed for. It lives with the catalogue because
 * everything in it is catalogue data; shipping and checkout both build on it.
 */
import { lineLabel } from '@core/rules/catalog'
import type { PricedLine } from '@core/rules/discounts'
import { stockVariant } from '@core/rules/stock'
import { sha256Hex } from '../../lib/digests'
import { invalid } from '../../lib/domain-errors'
import type { CatalogService } from './service'

type CatalogLookup = Pick<CatalogService, 'byId'>

export interface CartItemInput {
  productId: number
  quantity: number
  /** A scent or option the customer picked; shown on the order, never priced. */
  variant?: string | null
}

export interface CartLine {
  productId: number
  name: string
  description: string
  variant: string | null
  /** The stock the line draws on (core/rules/stock.ts `stockVariant`); null for a scent the product lacks. */
  stockVariant: string | null
  unitCents: number
  quantity: number
  weightTenthsOz: number
}

export interface Cart {
  lines: CartLine[]
  subtotalCents: number
  itemCount: number
  /** Product weight only (no packaging), in tenths of an ounce. */
  weightTenthsOz: number
  fingerprint: string
}

export const UNKNOWN_PRODUCT_MESSAGE =
  'One of the products in your cart is no longer available. Please remove it and try again.'

const VARIANT_PATTERN = /^[\p{L}\p{N} &'.,()-]{1,60}$/u

function cleanVariant(variant: string | null | undefined): string | null {
  const value = (variant ?? '').replace(/\s+/g, ' ').trim()
  if (value === '') return null
  if (!VARIANT_PATTERN.test(value)) throw invalid('Please choose a product option from the list.')
  return value
}

/**
 * Product ids, their weights and total quantities, merged across variants and sorted: what the parcel and
 * the price depend on. A quote stays valid if the customer only reorders lines or switches a scent; it
 * stops matching when a product's weight changes (staff correct it at the packing bench), since the
 * carrier priced the old parcel.
 */
export function cartFingerprint(
  items: readonly { productId: number; quantity: number; weightTenthsOz: number }[],
): string {
  const totals = new Map<number, { quantity: number; weightTenthsOz: number }>()
  for (const item of items) {
    const total = totals.get(item.productId)
    totals.set(item.productId, {
      quantity: (total?.quantity ?? 0) + item.quantity,
      weightTenthsOz: item.weightTenthsOz,
    })
  }
  const canonical = [...totals.entries()]
    .sort(([a], [b]) => a - b)
    .map(([id, total]) => `${id}x${total.quantity}@${total.weightTenthsOz}`)
    .join(',')
  return sha256Hex(canonical)
}

export async function buildCart(catalog: CatalogLookup, items: readonly CartItemInput[]): Promise<Cart> {
  const products = new Map<number, Awaited<ReturnType<CatalogLookup['byId']>>>()
  for (const id of new Set(items.map((item) => item.productId))) products.set(id, await catalog.byId(id))
  const lines: CartLine[] = items.map((item) => {
    const product = products.get(item.productId)
    if (!product) throw invalid(UNKNOWN_PRODUCT_MESSAGE)
    if (!Number.isInteger(item.quantity) || item.quantity < 1 || item.quantity > 99) {
      throw invalid('Quantities must be whole numbers from 1 to 99.')
    }
    // A line without a scent is the product's first (the one its page preselects), named here so the
    // session, the order and its stock keep that scent whatever the content lists first later.
    const variant = cleanVariant(item.variant) ?? product.variants[0] ?? null
    return {
      productId: product.id,
      name: product.name,
      description: product.description,
      variant,
      stockVariant: stockVariant(product.variants, variant),
      unitCents: product.priceCents,
      quantity: item.quantity,
      weightTenthsOz: product.weightTenthsOz,
    }
  })
  return {
    lines,
    subtotalCents: lines.reduce((sum, line) => sum + line.unitCents * line.quantity, 0),
    itemCount: lines.reduce((sum, line) => sum + line.quantity, 0),
    weightTenthsOz: lines.reduce((sum, line) => sum + line.weightTenthsOz * line.quantity, 0),
    fingerprint: cartFingerprint(lines),
  }
}

/** The cart's lines as the discount rules see them; keys keep variants of one product apart. */
export function pricedLines(cart: Cart): PricedLine[] {
  return cart.lines.map((line, index) => ({
    key: String(index),
    unitCents: line.unitCents,
    quantity: line.quantity,
  }))
}

export function lineName(line: Pick<CartLine, 'name' | 'variant'>): string {
  return lineLabel(line)
}
