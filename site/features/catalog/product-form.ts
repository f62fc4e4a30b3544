/** The product page's quantity stepper and add-to-cart form (markup in AddToCart.astro). */

import { purchasable, stockNote } from '@core/rules/stock'
import { stopWaiting } from '../../lib/waiting'
import { clampQuantity } from '../cart/cart-logic'
import { addToCart } from '../cart/store'
import { productOf } from './add-to-cart'
import { type LiveProduct, lineStock, liveCatalog } from './stock'

let live: readonly LiveProduct[] = []

/** The chosen scent's stock on the form: its note, and Add to Cart disabled when none is left. */
function showStock(form: HTMLFormElement): void {
  const product = live.find((other) => other.id === productOf(form)?.id)
  if (!product) return
  const variant = new FormData(form).get('variant')
  const stock = lineStock(product, typeof variant === 'string' ? variant : null)
  const note = form.querySelector('[data-stock-note]')
  if (note) note.textContent = stockNote(stock) ?? ''
  const button = form.querySelector<HTMLButtonElement>('[data-add-button]')
  if (!button) return
  const soldOut = purchasable(stock, 1) === 0
  button.disabled = soldOut
  button.textContent = soldOut ? 'Sold out' : 'Add to Cart'
}

// The forms are sent here from now on: their buttons were disabled until this script could add to the cart.
for (const form of document.querySelectorAll<HTMLFormElement>('[data-add-form]')) {
  const button = form.querySelector<HTMLButtonElement>('[data-add-button]')
  if (button) {
    button.disabled = false
    button.removeAttribute('aria-describedby')
  }
  form.querySelector<HTMLElement>('[data-add-pending]')?.setAttribute('hidden', '')
}
// The quantity's − and + buttons, disabled until here for the same reason.
stopWaiting('[data-stepper] [data-step]')

// What is left of the form's chosen scent. Without an answer the page sells as built; checkout refuses
// what is gone.
liveCatalog()
  .then((products) => {
    live = products
    for (const form of document.querySelectorAll<HTMLFormElement>('[data-add-form]')) showStock(form)
  })
  .catch(() => {})

document.addEventListener('change', (event) => {
  const form =
    event.target instanceof Element ? event.target.closest<HTMLFormElement>('[data-add-form]') : null
  if (form) showStock(form)
})

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
  // The first scent listed: a card's line without a scent is that scent's line (../cart/cart-logic.ts).
  const firstScent = form.querySelector<HTMLInputElement>('input[name=variant]')?.value
  addToCart(product, quantity, typeof variant === 'string' ? variant : undefined, firstScent)
})
