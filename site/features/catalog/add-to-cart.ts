/**
 * Card 'Add to Cart' buttons and the add-to-cart notification, without a framework, to keep content pages
 * inside their JS budget (docs/architecture.md#performance-budgets). The notification state lives in the cart store (docs/product.md#product-page); it is shown
 * through the page's toast viewport, which is already on every page and keeps to one toast at a time.
 */
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
  if (product) addToCart(product, 1)
})

// The cards' buttons are disabled in the static HTML so that a tap before this module ran is not silently
// lost (docs/decisions/009-forms-before-hydration.md); from here on they add to the cart. The shop page
// (./shop.ts imports this module, so it runs after it) disables a sold-out one again once the catalogue answers.
for (const button of document.querySelectorAll<HTMLButtonElement>('[data-add-to-cart][data-waiting]')) {
  button.disabled = false
  delete button.dataset.waiting
}

cartNotification.listen(({ isVisible, product, quantity }) => {
  if (!isVisible || !product) return
  const count = quantity > 1 ? ` (${quantity})` : ''
  showToast({
    title: `${product.name}${count}`,
    description: 'Item successfully added to your cart',
    duration: NOTIFICATION_MS,
  })
})
