import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { MAX_QUOTE_ID_LENGTH } from '@core/contracts/shipping'
import { eq } from 'drizzle-orm'
import { buildCart, UNKNOWN_PRODUCT_MESSAGE } from '../../../api/modules/catalog/cart'
import { addressHash, normalizeAddress } from '../../../api/modules/shipping/address'
import { readQuote } from '../../../api/modules/shipping/quote-token'
import { QUOTE_KEY_SETTING } from '../../../api/modules/shipping/service'
import { settings } from '../../../db/schema/settings'
import { createTestApp, type TestApp } from '../support/test-app'
import { getRates, HOME, rateFor } from './helpers'

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp()
})
afterAll(() => shop.close())
// A fresh rate-limit window for each test; the limit itself has its own test.
beforeEach(() => shop.clock.advance(60_000))

function post(body: unknown) {
  return shop.call('POST', '/api/shipping/rates', body)
}

async function refused(body: unknown): Promise<[number, string]> {
  const res = await post(body)
  const text = await res.text()
  return [res.status, (JSON.parse(text) as { error: string }).error]
}

const ONE_OIL = [{ id: 1, quantity: 1, name: 'Hammered Citrus', weight: '3.0' }]

/** The fingerprint checkout computes for these items, with the catalogue's weights. */
async function fingerprintOf(items: { productId: number; quantity: number }[]): Promise<string> {
  return (await buildCart(shop.services.catalog, items)).fingerprint
}

describe('good requests', () => {
  test('three USPS services priced by the server from the catalogue weight', async () => {
    // Hammered Citrus weighs 3.0 oz; with the small mailer 3.8 oz, to California (national zone).
    const rates = await getRates(shop, [{ id: 1, quantity: 1 }])
    expect(
      rates.map(({ serviceName, price, estimatedDays, free, carrier }) => ({
        serviceName,
        price,
        estimatedDays,
        free,
        carrier,
      })),
    ).toEqual([
      { serviceName: 'USPS Ground Advantage', price: 5.7, estimatedDays: 5, free: false, carrier: 'USPS' },
      { serviceName: 'USPS Priority Mail', price: 10.95, estimatedDays: 3, free: false, carrier: 'USPS' },
      {
        serviceName: 'USPS Priority Mail Express',
        price: 32,
        estimatedDays: 2,
        free: false,
        carrier: 'USPS',
      },
    ])
    expect(rates[0]?.deliveryEstimate).toEqual({ minDays: 3, maxDays: 5 })
    for (const rate of rates) {
      expect(rate.id).toMatch(/^rate_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/)
      expect(rate.id.length).toBeLessThanOrEqual(MAX_QUOTE_ID_LENGTH)
    }
  })

  test('weights, names and subtotal sent by the page change nothing', async () => {
    const honest = await getRates(shop, [{ id: 3, quantity: 2 }])
    const res = await post({
      address: HOME,
      items: [{ id: 3, quantity: 2, name: 'Feather', weight: '0.01' }],
      subtotal: '1000.00',
    })
    const lying = ((await res.json()) as { rates: { price: number }[] }).rates
    expect(lying.map((rate) => rate.price)).toEqual(honest.map((rate) => rate.price))
  })

  test('each rate is a quote signed for 30 minutes, bound to cart and address', async () => {
    const rates = await getRates(shop, [{ id: 2, quantity: 1 }])
    const [key] = await shop.deps.db.select().from(settings).where(eq(settings.name, QUOTE_KEY_SETTING))
    if (!key) throw new Error('no quote key stored')
    const secret = Buffer.from(key.value, 'base64url')
    expect(secret.length).toBe(32)
    const binding = {
      cartFingerprint: await fingerprintOf([{ productId: 2, quantity: 1 }]),
      addressHash: addressHash(normalizeAddress(HOME)),
    }
    const quotes = rates.map((rate) => readQuote(secret, rate.id, binding))
    for (const quote of quotes) {
      if (!quote) throw new Error('a rate id that does not read back as a quote')
      expect(quote.expiresAt - shop.clock.now().getTime()).toBe(30 * 60 * 1000)
    }
    expect(quotes.find((quote) => quote?.serviceToken === 'usps_ground_advantage')?.freeEligible).toBe(true)
    expect(quotes.find((quote) => quote?.serviceToken === 'usps_priority')?.freeEligible).toBe(false)
    // The same ids under another cart or destination are not quotes at all.
    const otherCart = { ...binding, cartFingerprint: await fingerprintOf([{ productId: 2, quantity: 2 }]) }
    const otherPlace = { ...binding, addressHash: addressHash(normalizeAddress({ ...HOME, zip: '94110' })) }
    for (const rate of rates) {
      expect(readQuote(secret, rate.id, otherCart)).toBeNull()
      expect(readQuote(secret, rate.id, otherPlace)).toBeNull()
    }
  })

  test('standard shipping is free from $35.00 of goods; faster services are not', async () => {
    // 2 × $21.00 = $42.00
    const rates = await getRates(shop, [{ id: 1, quantity: 2 }])
    expect(rateFor(rates, 'USPS Ground Advantage')).toMatchObject({ price: 0, free: true })
    expect(rateFor(rates, 'USPS Priority Mail').free).toBe(false)
    expect(rateFor(rates, 'USPS Priority Mail').price).toBeGreaterThan(0)
    // 2 × $13.00 = $26.00 stays below the line.
    const below = await getRates(shop, [{ id: 4, quantity: 2 }])
    expect(rateFor(below, 'USPS Ground Advantage').free).toBe(false)
  })

  test('abroad: one international service, 6 to 21 business days', async () => {
    const rates = await getRates(shop, [{ id: 1, quantity: 1 }], {
      name: 'Lea Roy',
      street1: '5 Rue Nord',
      city: 'Lyon',
      state: '',
      zip: '69001',
      country: 'FR',
    })
    expect(rates).toHaveLength(1)
    expect(rates[0]).toMatchObject({
      serviceName: 'USPS First-Class Package International',
      estimatedDays: 21,
    })
    expect(rates[0]?.deliveryEstimate).toEqual({ minDays: 6, maxDays: 21 })
  })
})

describe('bad requests get a clear message', () => {
  test.each([
    [{ state: 'XX' }, 'Please choose a state.'],
    [{ state: '' }, 'Please choose a state.'],
    [{ zip: '9410' }, 'Please enter a valid ZIP code.'],
    [{ zip: 'ABCDE' }, 'Please enter a valid ZIP code.'],
    [{ name: '   ' }, 'Please enter your full name.'],
    [{ street1: '' }, 'Please enter your street address.'],
    [{ city: '' }, 'Please enter your city.'],
  ])('address %p → 422 %p', async (change, message) => {
    expect(await refused({ address: { ...HOME, ...change }, items: ONE_OIL })).toEqual([422, message])
  })

  test('a missing name is named', async () => {
    const { name: _, ...noName } = HOME
    expect(await refused({ address: noName, items: ONE_OIL })).toEqual([422, 'Please enter your full name.'])
  })

  test('an unknown product is refused', async () => {
    expect(await refused({ address: HOME, items: [{ id: 999, quantity: 1 }] })).toEqual([
      422,
      UNKNOWN_PRODUCT_MESSAGE,
    ])
  })

  test.each([0, -1, 1.5, 100, 10000])('quantity %p is refused', async (quantity) => {
    expect(await refused({ address: HOME, items: [{ id: 1, quantity }] })).toEqual([
      422,
      'Quantities must be whole numbers from 1 to 99.',
    ])
  })

  test('an empty cart is refused', async () => {
    expect(await refused({ address: HOME, items: [] })).toEqual([
      422,
      'Your cart is empty or has too many lines.',
    ])
  })

  test('a product id that is not a whole number is refused', async () => {
    expect(await refused({ address: HOME, items: [{ id: '1; drop table', quantity: 1 }] })).toEqual([
      422,
      'Each item needs a product id.',
    ])
  })

  test('an oversize body is refused with 413 before it is read', async () => {
    const big = JSON.stringify({ address: { ...HOME, street2: 'x'.repeat(70 * 1024) }, items: ONE_OIL })
    const res = await shop.call('POST', '/api/shipping/rates', big, { 'content-length': String(big.length) })
    expect(res.status).toBe(413)
  })

  test('a body that is not JSON gets a 400 without an echo', async () => {
    const res = await shop.call('POST', '/api/shipping/rates', '{"address": "12 Secret Lane', {
      'content-type': 'application/json',
    })
    expect(res.status).toBe(400)
    expect(await res.text()).not.toContain('Secret Lane')
  })

  test('validation errors never echo the address', async () => {
    const res = await post({ address: { ...HOME, street1: '77 Private Way', zip: 'nope' }, items: ONE_OIL })
    expect(res.status).toBe(422)
    expect(await res.text()).not.toContain('Private Way')
  })
})

test('rate requests are limited per client with a 429', async () => {
  const statuses: number[] = []
  for (let i = 0; i < 61; i++)
    statuses.push((await post({ address: HOME, items: [{ id: 1, quantity: 1 }] })).status)
  expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true)
  expect(statuses[60]).toBe(429)
})

describe('items by name, weights from the catalogue', () => {
  test('items[{name, quantity, weight}] quotes the same as ids, whatever weight is sent', async () => {
    const byName = await post({
      address: HOME,
      items: [{ name: 'hammered citrus', quantity: 2, weight: '0.1' }],
      subtotal: '42.00',
    })
    expect(byName.status).toBe(200)
    const byId = await post({ address: HOME, items: [{ id: 1, quantity: 2 }] })
    const prices = async (res: Response) =>
      ((await res.json()) as { rates: { serviceName: string; price: number }[] }).rates.map((rate) => [
        rate.serviceName,
        rate.price,
      ])
    expect(await prices(byName)).toEqual(await prices(byId))
    const heavy = await post({
      address: HOME,
      items: [{ name: 'Hammered Citrus', quantity: 2, weight: '900' }],
    })
    expect(await prices(heavy)).toEqual(
      await prices(await post({ address: HOME, items: [{ id: 1, quantity: 2 }] })),
    )
  })

  test('an unknown name is a clear 422, and an item with neither id nor name too', async () => {
    expect(await refused({ address: HOME, items: [{ name: 'Snake Oil', quantity: 1 }] })).toEqual([
      422,
      'One of the products in your cart is not in our catalogue. Please remove it and try again.',
    ])
    expect(await refused({ address: HOME, items: [{ quantity: 1 }] })).toEqual([
      422,
      'Each item needs a product id or name.',
    ])
  })
})
