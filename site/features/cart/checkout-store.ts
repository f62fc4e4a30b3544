import type { DiscountTerms } from '@core/rules/discounts'
import { MAX_SUBTOTAL_CENTS } from '@core/rules/money'
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

/** Whole cents from `least` up to the largest subtotal the shop takes: anything else in storage is not ours. */
function savedCents(value: unknown, least: number): value is number {
  return Number.isSafeInteger(value) && (value as number) >= least && (value as number) <= MAX_SUBTOTAL_CENTS
}

/**
 * A saved discount as the cart wrote it, or not one at all: its figures are shown and formatted, so an
 * edited or corrupted one is dropped here rather than break the cart's page.
 */
export function isSavedDiscount(value: unknown): value is DiscountTerms {
  if (typeof value !== 'object' || value === null) return false
  const terms = value as Partial<DiscountTerms>
  const amountFits =
    terms.type === 'percentage'
      ? savedCents(terms.amount, 1) && (terms.amount as number) <= 100
      : terms.type === 'fixed' && savedCents(terms.amount, 1)
  return (
    typeof terms.code === 'string' &&
    terms.code !== '' &&
    amountFits &&
    // Saved before codes carried their minimum: none, until the visit's check brings it.
    (terms.minSubtotalCents === undefined || savedCents(terms.minSubtotalCents, 0))
  )
}

/**
 * Local-storage key `discountApplied`: the accepted code with its terms (fixed amounts in cents), removed
 * from storage when there is no discount.
 */
export const discountApplied = persistentAtom<DiscountTerms | null>(
  'discountApplied',
  null,
  removedWhenNull(safeJson('discountApplied', (value) => (isSavedDiscount(value) ? value : null), null)),
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
