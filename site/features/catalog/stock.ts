/**
 * Live stock for the storefront (docs/decisions/026-stock-reserved-at-checkout.md): pages are prerendered,
 * so what is left arrives with GET /api/catalog, read once per page and shared by the shop grid, the
 * product page and the cart. Small on purpose: the shop grid is at its JavaScript budget.
 */
import { type StockState, stockVariant } from '@core/rules/stock'
import { apiRequest } from '../../lib/api'

/** A product as GET /api/catalog lists it: live price, weight and stock, and each scent's stock. */
export interface LiveProduct {
  id: number
  price: string
  weight: string
  stock: StockState
  variants: { name: string; stock: StockState }[]
}

/** The catalogue answer: live prices and stock (each page asks once, from its one island that shows stock). */
export const liveCatalog = () =>
  apiRequest<{ products: LiveProduct[] }>('GET', '/api/catalog').then((body) => body.products)

/** The stock a cart line of `product` draws on: its scent's (the first when none is named), or its own. */
export function lineStock(product: LiveProduct | undefined, variant?: string | null): StockState | null {
  if (!product) return null
  const name = stockVariant(
    product.variants.map((other) => other.name),
    variant,
  )
  if (name === '') return product.stock
  return product.variants.find((other) => other.name === name)?.stock ?? null
}
