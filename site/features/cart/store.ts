import { persistentAtom } from '@nanostores/persistent'
import { atom, computed } from 'nanostores'
import { safeJson } from '../../lib/storage'
import { addLine, type CartLine, type CartProduct, lineFor } from './cart-logic'

export type { CartLine, CartProduct }

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

/** Local-storage key `cart`; kept in step across tabs by the storage event. */
export const cartLines = persistentAtom<CartLine[]>(
  'cart',
  [],
  safeJson('cart', (value) => (Array.isArray(value) ? value.filter(isCartLine) : null), []),
)

export const cartCount = computed(cartLines, (lines) => lines.reduce((sum, line) => sum + line.quantity, 0))

// ---- Actions -------------------------------------------------------------------------------------------
// Small on purpose: this module loads on every page (the header's badge reads cartCount). What only the
// cart, shipping and success pages do (quantities, removals, the discount code) is in ./checkout-store.ts.

/** The add-to-cart notification (docs/product.md#product-page): what was just added. It hides itself after NOTIFICATION_MS or when closed. */
export interface CartNotification {
  isVisible: boolean
  product: CartProduct | null
  quantity: number
}

export const NOTIFICATION_MS = 3000

export const cartNotification = atom<CartNotification>({ isVisible: false, product: null, quantity: 0 })

let notificationTimer: ReturnType<typeof setTimeout> | undefined

export function hideCartNotification(): void {
  clearTimeout(notificationTimer)
  cartNotification.set({ ...cartNotification.get(), isVisible: false })
}

export function addToCart(product: CartProduct, quantity = 1, variant?: string, firstScent?: string): void {
  const before = cartLines.get()
  const after = addLine(before, product, quantity, variant, firstScent)
  cartLines.set(after)
  const line = lineFor(after, product.id, variant, firstScent)
  const previous = lineFor(before, product.id, variant, firstScent)
  // Report what was really added: a line at its limit takes fewer than asked.
  const added = (line?.quantity ?? 0) - (previous?.quantity ?? 0)
  clearTimeout(notificationTimer)
  cartNotification.set({ isVisible: true, product, quantity: added })
  notificationTimer = setTimeout(hideCartNotification, NOTIFICATION_MS)
}
