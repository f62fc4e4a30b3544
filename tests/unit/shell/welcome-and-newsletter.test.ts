import { describe, expect, test } from 'bun:test'
import { looksLikeEmail } from '../../../site/features/newsletter/api'
import { isFirstVisit, markVisited, offersWelcome, WELCOME_FLAGS } from '../../../site/features/welcome/flags'

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial))
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    data,
  }
}

describe('welcome visit flags', () => {
  test('a visitor with no flags is new; marking sets every flag', () => {
    const storage = memoryStorage()
    expect(isFirstVisit(storage)).toBe(true)
    markVisited(storage)
    expect(isFirstVisit(storage)).toBe(false)
    for (const key of WELCOME_FLAGS) expect(storage.data.get(key)).toBe('true')
  })

  test('any one flag, with any value, means a returning visitor', () => {
    for (const key of WELCOME_FLAGS) expect(isFirstVisit(memoryStorage({ [key]: '' }))).toBe(false)
  })

  test('the popup waits off the cart, checkout and signed-in pages', () => {
    for (const path of [
      '/cart',
      '/cart/',
      '/shipping',
      '/checkout',
      '/checkout/x',
      '/success',
      '/profile',
      '/account',
      '/account/orders',
      '/dashboard',
      '/signup',
      '/login',
      '/forgot-password',
      '/reset-password',
      '/verify-email',
      '/google-sign-in',
    ]) {
      expect(offersWelcome(path)).toBe(false)
    }
    for (const path of [
      '/',
      '/shop',
      '/about',
      '/products/whisker-oil',
      '/cartography',
      '/accounts-faq',
      '/logins',
    ]) {
      expect(offersWelcome(path)).toBe(true)
    }
  })
})

describe('newsletter capture', () => {
  test("goes ahead only when the value contains '@' (docs/product.md#home)", () => {
    expect(looksLikeEmail('crew@example.com')).toBe(true)
    expect(looksLikeEmail('a@')).toBe(true)
    expect(looksLikeEmail('crew.example.com')).toBe(false)
    expect(looksLikeEmail('')).toBe(false)
  })
})
