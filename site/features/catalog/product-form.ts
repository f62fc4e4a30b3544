/** The product page's quantity stepper and add-to-cart form (markup in AddToCart.astro). */
import { clampQuantity } from '../cart/cart-logic'
import { addToCart } from '../cart/store'
import { productOf } from './add-to-cart'

// The forms are sent here from now on: their buttons were disabled until this script could add to the cart.
for (const form of document.querySelectorAll<HTMLFormElement>('[data-add-form]')) {
  const button = form.querySelector<HTMLButtonElement>('[data-add-button]')
  if (button) {
    button.disabled = false
    button.removeAttribute('aria-describedby')
  }
  form.querySelector<HTMLElement>('[data-add-pending]')?.setAttribute('hidden', '')
}

document.addEventListener('click', (event) => {
  const step = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-step]') : null
  const input = step?.closest('[data-stepper]')?.querySelector('input')
  if (step && input) input.value = String(clampQuantity(Number(input.value || 1) + Number(step.dataset.step)))
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
