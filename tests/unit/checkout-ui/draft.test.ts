import { describe, expect, test } from 'bun:test'
import { parseSavedCheckout, SAVED_RATES_LIFETIME_MS } from '../../../site/features/checkout/draft'
import { emptyDraft } from '../../../site/features/checkout/form'

const NOW = 1_750_000_000_000
const RATE = {
  id: 'rate_1',
  price: 0,
  carrier: 'USPS',
  serviceName: 'Ground Advantage',
  estimatedDays: 5,
  deliveryEstimate: { minDays: 2, maxDays: 5 },
  free: true,
}

function saved(overrides: Record<string, unknown> = {}) {
  return JSON.stringify({
    draft: {
      email: 'sam@example.com',
      shipping: {
        name: 'Sam',
        street1: '1 A St',
        street2: '',
        city: 'Austin',
        state: 'TX',
        zip: '73301',
        country: 'US',
      },
      separateBilling: true,
      billing: { name: 'Pat' },
    },
    rates: { binding: 'b', savedAt: NOW - 1000, rates: [RATE], selectedId: 'rate_1' },
    ...overrides,
  })
}

describe('parseSavedCheckout', () => {
  test('restores the form and the rates', () => {
    const result = parseSavedCheckout(saved(), NOW)
    expect(result.draft.email).toBe('sam@example.com')
    expect(result.draft.shipping.city).toBe('Austin')
    expect(result.draft.separateBilling).toBe(true)
    expect(result.draft.billing).toMatchObject({ name: 'Pat', street1: '', country: 'US' })
    expect(result.rates).toEqual({ binding: 'b', savedAt: NOW - 1000, rates: [RATE], selectedId: 'rate_1' })
  })

  test('nothing, garbage or the wrong shape gives an empty form', () => {
    for (const raw of [null, '', '{', '42', 'null', '[]', '{"draft":"x"}']) {
      expect(parseSavedCheckout(raw, NOW)).toEqual({ draft: emptyDraft(), rates: null })
    }
  })

  test('rates older than the quote lifetime are dropped, the form is kept', () => {
    const old = saved({
      rates: { binding: 'b', savedAt: NOW - SAVED_RATES_LIFETIME_MS - 1, rates: [RATE], selectedId: null },
    })
    const result = parseSavedCheckout(old, NOW)
    expect(result.rates).toBeNull()
    expect(result.draft.email).toBe('sam@example.com')
  })

  test('malformed rates are dropped and an unknown selection is cleared', () => {
    const mixed = saved({
      rates: { binding: 'b', savedAt: NOW, rates: [RATE, { id: 3 }], selectedId: 'gone' },
    })
    expect(parseSavedCheckout(mixed, NOW).rates).toEqual({
      binding: 'b',
      savedAt: NOW,
      rates: [RATE],
      selectedId: null,
    })
  })

  test('over-long values are cut', () => {
    const long = JSON.stringify({ draft: { email: 'a'.repeat(1000) } })
    expect(parseSavedCheckout(long, NOW).draft.email).toHaveLength(254)
  })
})
