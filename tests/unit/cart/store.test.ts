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
  typeof import('../../../site/features/cart/checkout-store') &
  typeof import('../../../site/features/cart/open-session')
beforeAll(async () => {
  store = {
    ...(await import('../../../site/features/cart/store')),
    ...(await import('../../../site/features/cart/checkout-store')),
    ...(await import('../../../site/features/cart/open-session')),
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

  test('a saved one is taken only with figures the cart can show; an edited or corrupted one is dropped', () => {
    const save5 = { code: 'SAVE5', type: 'fixed', amount: 500 }
    expect(store.isSavedDiscount(save5)).toBe(true)
    expect(store.isSavedDiscount({ ...save5, minSubtotalCents: 2000 })).toBe(true)
    expect(store.isSavedDiscount({ ...save5, minSubtotalCents: 0 })).toBe(true)
    expect(store.isSavedDiscount({ code: 'GRIT15', type: 'percentage', amount: 15 })).toBe(true)
    for (const minSubtotalCents of [-1, 20.5, '2000', 1e16, Number.NaN, null]) {
      expect(store.isSavedDiscount({ ...save5, minSubtotalCents })).toBe(false)
    }
    for (const amount of [0, 1e16, 5.5, '500'])
      expect(store.isSavedDiscount({ ...save5, amount })).toBe(false)
    expect(store.isSavedDiscount({ code: 'X', type: 'percentage', amount: 101 })).toBe(false)
    expect(store.isSavedDiscount({ ...save5, code: '' })).toBe(false)
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

describe("the cart's open payment session", () => {
  const SESSION = 'cs_test_demo_cart_session'
  const counted = (available: number) => ({ tracked: true, available })
  const oilLine = { product: oil, quantity: 2, selectedVariant: 'Cedar Shop' }
  const realFetch = globalThis.fetch
  afterEach(() => {
    globalThis.fetch = realFetch
    jest.useRealTimers()
  })

  /** The status endpoint answering `status` (or `code` with no body to speak of). */
  function statusAnswer(code: number, status?: string) {
    globalThis.fetch = (async () =>
      Response.json(status ? { status } : { error: 'Checkout session not found.' }, {
        status: code,
      })) as unknown as typeof fetch
  }

  test("is sent with the cart's calls, and its units count as left for the same line only", () => {
    expect(store.openSessionField()).toEqual({})
    store.rememberOpenSession(SESSION, [oilLine])
    expect(store.openSessionField()).toEqual({ open_session: SESSION })
    expect(JSON.parse(getTestStorage().checkoutSession ?? '{}')).toMatchObject({
      id: SESSION,
      held: [{ productId: 1, variant: 'Cedar Shop', quantity: 2 }],
    })
    expect(store.withOwnHold(counted(0), oilLine)).toEqual(counted(2))
    expect(store.withOwnHold(counted(0), { ...oilLine, selectedVariant: 'Unscented' })).toEqual(counted(0))
    expect(store.withOwnHold({ tracked: false, available: null }, oilLine)).toEqual({
      tracked: false,
      available: null,
    })
  })

  test('is no longer the cart’s after a payment session could last, or once paid', () => {
    jest.useFakeTimers()
    jest.setSystemTime(new Date('2026-11-27T10:00:00Z'))
    store.rememberOpenSession(SESSION, [oilLine])
    jest.setSystemTime(new Date('2026-11-28T10:00:01Z'))
    expect(store.openSessionField()).toEqual({})
    expect(store.withOwnHold(counted(0), oilLine)).toEqual(counted(0))
    jest.useRealTimers()
    store.rememberOpenSession(SESSION, [oilLine])
    store.addToCart(oil)
    store.clearCart()
    expect('checkoutSession' in getTestStorage()).toBe(false)
  })

  test('is forgotten when the server says it is no longer open, kept when the server cannot say', async () => {
    store.rememberOpenSession(SESSION, [oilLine])
    statusAnswer(200, 'open')
    await store.confirmOpenSession()
    expect(store.openSessionField()).toEqual({ open_session: SESSION })
    statusAnswer(503)
    await store.confirmOpenSession()
    expect(store.openSessionField()).toEqual({ open_session: SESSION })
    statusAnswer(200, 'expired')
    await store.confirmOpenSession()
    expect(store.openSessionField()).toEqual({})
    store.rememberOpenSession(SESSION, [oilLine])
    statusAnswer(404)
    await store.confirmOpenSession()
    expect(store.openSessionField()).toEqual({})
  })
})
