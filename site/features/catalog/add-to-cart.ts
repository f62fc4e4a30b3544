/**
 * Card 'Add to Cart' buttons and the add-to-cart notification, without a framework, to keep content pages
 * inside their JS budget (docs/architecture.md#performance-budgets). The notification state lives in the cart store (docs/product.md#product-page); it is shown
 * through the page's toast viewport, which is already on every page and keeps to one toast at a time.
 */

import { stopWaiting } from '../../lib/waiting'
import { addToCart, type CartProduct, cartNotification, NOTIFICATION_MS } from '../cart/store'
import { showToast } from '../toasts/store'

export function productOf(element: HTMLElement): CartProduct | null {
  try {
    return JSON.parse(element.dataset.product ?? '') as CartProduct
  } catch {
    return null
  }
}

document.addEventListener('click', (event) => {
  const button =
    event.target instanceof Element ? event.target.closest<HTMLElement>('[data-add-to-cart]') : null
  const product = button && productOf(button)
  // No scent (sold as the product's first, whatever the content names first now), to the line of the first
  // scent the page was built with if the cart has one (ProductCard.astro).
  if (product) addToCart(product, 1, undefined, button.dataset.firstScent || undefined)
})

// The cards' buttons add to the cart from here on. The shop page (./shop.ts imports this module, so it runs
// after it) disables a sold-out one again once the catalogue answers.
stopWaiting('[data-add-to-cart]')

cartNotification.listen(({ isVisible, product, quantity }) => {
  if (!isVisible || !product) return
  const count = quantity > 1 ? ` (${quantity})` : ''
  showToast({
    title: `${product.name}${count}`,
    description: 'Item successfully added to your cart',
    duration: NOTIFICATION_MS,
  })
})
