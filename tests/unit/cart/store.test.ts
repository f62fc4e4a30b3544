import { afterEach, beforeAll, describe, expect, jest, test } from 'bun:test'
import {
  cleanTestStorage,
  getTestStorage,
  useTestStorageEngine as installTestStorage,
} from '@nanostores/persistent'
import type { CartProduct } from '../../../site/features/cart/store'

// The persistent stores read their engine when the module loads, so the test engine comes first.
installTestStorage()
let store: typeof import('../../../site/features/cart/store') &
  typeof import('../../../site/features/cart/checkout-store')
beforeAll(async () => {
  store = {
    ...(await import('../../../site/features/cart/store')),
    ...(await import('../../../site/features/cart/checkout-store')),
  }
})

const oil: CartProduct = {
  id: 1,
  name: 'Hammered Citrus',
  slug: 'whisker-oil',
  category: 'whisker-oil',
  price: '21.00',
  weight: '3.0',
  image: '/oil.svg',
}

afterEach(() => {
  store.clearCart()
  store.hideCartNotification()
  cleanTestStorage()
})

describe('cart actions', () => {
  test('adding saves the cart under the key cart and counts items', () => {
    store.addToCart(oil, 2)
    store.addToCart(oil)
    expect(store.cartCount.get()).toBe(3)
    expect(JSON.parse(getTestStorage().cart ?? '[]')).toEqual([{ product: oil, quantity: 3 }])
  })

  test('setting a quantity to 0 removes the line; removeFromCart removes it too', () => {
    store.addToCart(oil, 2)
    store.setLineQuantity(1, 0)
    expect(store.cartLines.get()).toEqual([])
    store.addToCart(oil, 1, 'Unscented')
    store.removeFromCart(1)
    expect(store.cartLines.get()).toHaveLength(1)
    store.removeFromCart(1, 'Unscented')
    expect(store.cartLines.get()).toEqual([])
  })
})

describe('add-to-cart notification', () => {
  // The store's timer runs on the test runner's fake timers: the site cannot take the server's clock.
  afterEach(() => jest.useRealTimers())

  test('shows the product and quantity, then hides itself after 3000 ms', () => {
    jest.useFakeTimers()
    store.addToCart(oil, 2)
    expect(store.cartNotification.get()).toEqual({ isVisible: true, product: oil, quantity: 2 })
    jest.advanceTimersByTime(store.NOTIFICATION_MS - 1)
    expect(store.cartNotification.get().isVisible).toBe(true)
    jest.advanceTimersByTime(1)
    expect(store.cartNotification.get().isVisible).toBe(false)
  })

  test('adding again shows the new line and counts the 3000 ms from then', () => {
    jest.useFakeTimers()
    store.addToCart(oil)
    jest.advanceTimersByTime(2000)
    store.addToCart(oil, 3)
    expect(store.cartNotification.get()).toEqual({ isVisible: true, product: oil, quantity: 3 })
    jest.advanceTimersByTime(store.NOTIFICATION_MS - 1)
    expect(store.cartNotification.get().isVisible).toBe(true)
    jest.advanceTimersByTime(1)
    expect(store.cartNotification.get().isVisible).toBe(false)
  })

  test('closing hides it at once', () => {
    store.addToCart(oil)
    store.hideCartNotification()
    expect(store.cartNotification.get().isVisible).toBe(false)
  })
})

describe('discountApplied', () => {
  test('is saved under discountApplied and the key is removed when none is applied', () => {
    store.discountApplied.set({ code: 'GRIT15', type: 'percentage', amount: 15 })
    expect(JSON.parse(getTestStorage().discountApplied ?? 'null')).toEqual({
      code: 'GRIT15',
      type: 'percentage',
      amount: 15,
    })
    store.removeDiscount()
    expect(store.discountApplied.get()).toBeNull()
    expect('discountApplied' in getTestStorage()).toBe(false)
  })

  test('clearCart empties the cart and drops the discount', () => {
    store.addToCart(oil)
    store.discountApplied.set({ code: 'SAVE5', type: 'fixed', amount: 500 })
    store.clearCart()
    expect(store.cartLines.get()).toEqual([])
    expect(store.discountApplied.get()).toBeNull()
    expect(getTestStorage()).toEqual({ cart: '[]' })
  })
})
