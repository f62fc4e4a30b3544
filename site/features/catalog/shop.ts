/**
 * The shop's filters (docs/product.md#shop): `?category=` (legacy 'repair' included) and `?search=` narrow the
 * prerendered grid, and GET /api/catalog confirms prices, which products are still sold and what is left.
 *
 * Loading and failure: every card is already in the HTML with its build-time price, so the page is usable
 * before (and without) the catalogue answer. 'Loading products...' and the failure message therefore show
 * only when the page has no cards at all; otherwise a failed request just leaves the built prices, which
 * checkout re-prices from the catalogue anyway (docs/product.md#money).
 */
import { normalizeCategory } from '@core/rules/catalog'
import { filterByCategory, searchProducts } from '@core/rules/search'
import { stockNote } from '@core/rules/stock-note'
import { apiRequest } from '../../lib/api'
import { stopWaiting } from '../../lib/waiting'
import { productOf } from './add-to-cart'
import type { LiveProduct } from './stock'

interface Item {
  element: HTMLElement
  id: number
  name: string
  description: string
  category: string
}

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)

export function setupShop(): void {
  const items: Item[] = [...document.querySelectorAll<HTMLElement>('[data-product-item]')].map((element) => {
    const card = element.querySelector<HTMLElement>('[data-product-card]')
    return {
      element,
      id: Number(card?.dataset.id),
      name: card?.dataset.name ?? '',
      description: card?.dataset.description ?? '',
      category: card?.dataset.category ?? '',
    }
  })
  const status = $('[data-shop-status]')
  const empty = $('[data-shop-empty]')
  const failure = $('[data-shop-error]')
  let sold: Set<number> | null = null

  function render(): void {
    const params = new URLSearchParams(window.location.search)
    const category = normalizeCategory(params.get('category')) ?? 'all'
    const search = params.get('search')?.trim() ?? ''
    const available = sold ? items.filter((item) => sold?.has(item.id)) : items
    const shown = new Set(searchProducts(filterByCategory(available, category), search))
    for (const item of items) item.element.hidden = !shown.has(item)
    for (const link of document.querySelectorAll<HTMLElement>('[data-category-link]')) {
      if (link.dataset.categoryLink === category) link.setAttribute('aria-current', 'page')
      else link.removeAttribute('aria-current')
    }
    if (empty) empty.hidden = shown.size > 0 || (items.length === 0 && !sold)
    const note = $('[data-search-note]')
    if (note) {
      note.hidden = search === ''
      const query = note.querySelector('[data-query]')
      if (query) query.textContent = search
    }
  }

  function navigate(url: URL): void {
    window.history.pushState(null, '', url)
    render()
  }

  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null
    const link = target?.closest<HTMLAnchorElement>('[data-category-link]')
    if (link) {
      event.preventDefault()
      const url = new URL(window.location.href)
      url.searchParams.set('category', link.dataset.categoryLink ?? 'all')
      navigate(url)
      return
    }
    if (target?.closest('[data-clear-search]')) {
      const url = new URL(window.location.href)
      url.searchParams.delete('search')
      navigate(url)
    }
    if (target?.closest('[data-retry]')) window.location.reload()
  })
  window.addEventListener('popstate', render)

  const toggle = $<HTMLButtonElement>('[data-filter-toggle]')
  const filters = $('#shop-filters')
  toggle?.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true'
    toggle.setAttribute('aria-expanded', String(open))
    filters?.toggleAttribute('data-open', open)
  })
  // This module loads after the first paint (docs/decisions/030-nothing-fetched-before-first-paint.md).
  stopWaiting('[data-filter-toggle]')

  render()
  if (status && items.length === 0) status.textContent = 'Loading products...'
  apiRequest<{ products: LiveProduct[] }>('GET', '/api/catalog')
    .then(({ products }) => {
      sold = new Set(products.map((product) => product.id))
      // Each card: the live price; 'Sold out' or 'Only N left' beside it (the product as a whole); and its
      // button, which adds the first scent, disabled when that scent is gone.
      for (const product of products) {
        const card = document.querySelector<HTMLElement>(`[data-product-card][data-id="${product.id}"]`)
        const price = card?.querySelector('[data-price]')
        const note = card?.querySelector('[data-stock-note]')
        const button = card?.querySelector<HTMLButtonElement>('[data-add-to-cart]')
        const built = button && productOf(button)
        if (!price || !note || !button || !built) continue
        // The API sends canonical dollar text ('21.00', from centsToDollars); the shop's prices are far below
        // $1,000, so it reads exactly as formatCurrency would print it, without loading the money module here.
        button.dataset.product = JSON.stringify({ ...built, price: product.price, weight: product.weight })
        price.textContent = `$${product.price}`
        // null empties it, as '' would.
        note.textContent = stockNote(product.stock)
        // The button adds the first scent (core/rules/stock.ts stockVariant), or the product without scents.
        const label =
          stockNote(product.variants[0]?.stock ?? product.stock) === 'Sold out' ? 'Sold out' : 'Add to Cart'
        button.disabled = label === 'Sold out'
        button.textContent = label
        button.setAttribute('aria-label', `${label}: ${card?.dataset.name}`)
      }
      if (status) status.textContent = ''
      render()
    })
    .catch(() => {
      if (items.length > 0) return
      if (status) status.textContent = ''
      if (failure) failure.hidden = false
      if (empty) empty.hidden = true
    })
}
