/**
 * The storefront's add-to-cart behaviour without a framework, to keep content pages inside their JS budget
 * (DESIGN §7): card buttons, the product form, quantity steppers and the add-to-cart notification. The
 * markup comes from ProductCard, AddToCart, QuantityStepper and CartNotification.
 */
import { clampQuantity } from '../cart/cart-logic'
import { addToCart, type CartProduct, cartNotification, hideCartNotification } from '../cart/store'

function productOf(element: HTMLElement): CartProduct | null {
  try {
    return JSON.parse(element.dataset.product ?? '') as CartProduct
  } catch {
    return null
  }
}

document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target : null
  const step = target?.closest<HTMLButtonElement>('[data-step]')
  const input = step?.closest('[data-stepper]')?.querySelector('input')
  if (step && input) {
    input.value = String(clampQuantity(Number(input.value || 1) + Number(step.dataset.step)))
    return
  }
  const button = target?.closest<HTMLElement>('[data-add-to-cart]')
  const product = button && productOf(button)
  if (product) addToCart(product, 1)
})

document.addEventListener('submit', (event) => {
  const form =
    event.target instanceof HTMLFormElement && event.target.matches('[data-add-form]') ? event.target : null
  const product = form && productOf(form)
  if (!form || !product) return
  event.preventDefault()
  const data = new FormData(form)
  const quantity = clampQuantity(Number(data.get('quantity') || 1))
  const variant = data.get('variant')
  const input = form.querySelector<HTMLInputElement>('input[name=quantity]')
  if (input) input.value = String(quantity)
  addToCart(product, quantity, typeof variant === 'string' ? variant : undefined)
})

// The notification panel: filled and shown from the store, so any add-to-cart on the page reports here.
const panel = document.querySelector<HTMLElement>('[data-cart-notification]')
if (panel) {
  const name = panel.querySelector<HTMLElement>('[data-name]')
  const quantity = panel.querySelector<HTMLElement>('[data-quantity]')
  panel.querySelector('[data-close]')?.addEventListener('click', hideCartNotification)
  cartNotification.subscribe((state) => {
    if (name) name.textContent = state.product?.name ?? ''
    if (quantity) quantity.textContent = state.quantity > 1 ? `Quantity: ${state.quantity}` : ''
    panel.hidden = !state.isVisible
  })
}
