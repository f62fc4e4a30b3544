import { persistentAtom } from '@nanostores/persistent'
import { computed } from 'nanostores'
import { safeJson } from '../../lib/storage'

/** What the cart keeps of a product: enough to show the line. Prices are re-checked by the server. */
export interface CartProduct {
  id: number
  name: string
  slug: string
  category: string
  /** Dollars as shown on the product page, e.g. '21.00'. */
  price: string
  /** Ounces, e.g. '2.0'. */
  weight: string
  image: string
}

export interface CartLine {
  product: CartProduct
  quantity: number
  selectedVariant?: string
}

function isCartLine(value: unknown): value is CartLine {
  if (typeof value !== 'object' || value === null) return false
  const line = value as Partial<CartLine>
  const product = line.product as Partial<CartProduct> | undefined
  return (
    typeof product === 'object' &&
    product !== null &&
    Number.isInteger(product.id) &&
    typeof product.name === 'string' &&
    typeof product.price === 'string' &&
    Number.isInteger(line.quantity) &&
    (line.quantity ?? 0) > 0 &&
    (line.selectedVariant === undefined || typeof line.selectedVariant === 'string')
  )
}

/** Spec key `cart`; kept in step across tabs by the storage event. */
export const cartLines = persistentAtom<CartLine[]>(
  'cart',
  [],
  safeJson('cart', (value) => (Array.isArray(value) ? value.filter(isCartLine) : null), []),
)

export const cartCount = computed(cartLines, (lines) => lines.reduce((sum, line) => sum + line.quantity, 0))
