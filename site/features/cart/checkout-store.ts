import type { DiscountTerms } from '@core/rules/discounts'
import { persistentAtom } from '@nanostores/persistent'
import { removedWhenNull } from '../../lib/removed-when-null'
import { safeJson } from '../../lib/storage'
import { removeLine, updateQuantity } from './cart-logic'
import { forgetOpenSession } from './open-session'
import { cartLines } from './store'

/**
 * What the cart, shipping and success pages do with the cart: change a line's quantity, remove a line, the
 * applied discount code, and emptying the cart after payment. Kept apart from ./store.ts, which every page
 * loads for the header's badge, so the other pages do not carry it.
 */

export function setLineQuantity(productId: number, quantity: number, variant?: string): void {
  cartLines.set(updateQuantity(cartLines.get(), productId, quantity, variant))
}

export function removeFromCart(productId: number, variant?: string): void {
  cartLines.set(removeLine(cartLines.get(), productId, variant))
}

function isDiscountTerms(value: unknown): value is DiscountTerms {
  if (typeof value !== 'object' || value === null) return false
  const terms = value as Partial<DiscountTerms>
  return (
    typeof terms.code === 'string' &&
    terms.code !== '' &&
    (terms.type === 'percentage' || terms.type === 'fixed') &&
    Number.isInteger(terms.amount) &&
    (terms.amount ?? 0) > 0 &&
    // Saved before codes carried their minimum: none, until the once-a-visit check brings it.
    (terms.minSubtotalCents === undefined ||
      (Number.isInteger(terms.minSubtotalCents) && terms.minSubtotalCents >= 0))
  )
}

/**
 * Local-storage key `discountApplied`: the accepted code with its terms (fixed amounts in cents), removed
 * from storage when there is no discount.
 */
export const discountApplied = persistentAtom<DiscountTerms | null>(
  'discountApplied',
  null,
  removedWhenNull(safeJson('discountApplied', (value) => (isDiscountTerms(value) ? value : null), null)),
)

export function removeDiscount(): void {
  discountApplied.set(null)
}

/** Empties the cart and drops the discount and its paid session (after payment, docs/product.md#success). */
export function clearCart(): void {
  cartLines.set([])
  discountApplied.set(null)
  forgetOpenSession()
}
