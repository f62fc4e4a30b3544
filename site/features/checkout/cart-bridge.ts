/**
 * The cart state checkout reads and clears, in one place: the cart feature owns it, checkout only uses
 * its exports.
 */

import { atom } from 'nanostores'
import type { DiscountTerms } from '../../../api/rules/discounts'
import { cartLines } from '../cart/store'

export { cartLines }

// PLACEHOLDER until the cart feature exports its discount store and actions.
export const $appliedDiscount = atom<DiscountTerms | null>(null)

export function clearCheckoutCart(): void {
  cartLines.set([])
  $appliedDiscount.set(null)
}
