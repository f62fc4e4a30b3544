// shipping.priceFor: the price of a chosen rate for a checkout, checked against the cart and address the
// quote was signed for, so checkout never builds the quote's binding itself.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { FREE_SHIPPING_THRESHOLD_CENTS } from '@core/rules/shipping'
import { buildCart } from '../../../api/modules/catalog/cart'
import { normalizeAddress } from '../../../api/modules/shipping/address'
import { QUOTE_EXPIRED_MESSAGE } from '../../../api/modules/shipping/pricing'
import { createTestApp, type TestApp } from '../support/test-app'
import { getRates, HOME, type Items, rateFor } from './helpers'

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp()
})
afterAll(() => shop.close())

const items: Items = [{ id: 1, quantity: 2 }]
const cartOf = (list: Items) =>
  buildCart(
    shop.services.catalog,
    list.map((item) => ({ productId: item.id, quantity: item.quantity })),
  )

describe('the price of a chosen rate', () => {
  test("is the signed quote's, free for the standard service once the goods reach the threshold", async () => {
    const rates = await getRates(shop, items)
    const ground = rateFor(rates, 'USPS Ground Advantage')
    const express = rates.find((rate) => rate.serviceName !== ground.serviceName)
    if (!express) throw new Error('only one rate')
    const cart = await cartOf(items)
    const address = normalizeAddress(HOME)

    const standard = await shop.services.shipping.priceFor(ground.id, cart, address)
    expect(standard.quote).toMatchObject({ id: ground.id, serviceToken: 'usps_ground_advantage' })
    expect(standard.centsFor(FREE_SHIPPING_THRESHOLD_CENTS - 1)).toBe(standard.quote.priceCents)
    expect(standard.quote.priceCents).toBeGreaterThan(0)
    expect(standard.centsFor(FREE_SHIPPING_THRESHOLD_CENTS)).toBe(0)

    const other = await shop.services.shipping.priceFor(express.id, cart, address)
    expect(other.centsFor(FREE_SHIPPING_THRESHOLD_CENTS * 10)).toBe(other.quote.priceCents)
  })

  test('is refused for another cart, another address, or once the quote has expired', async () => {
    const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
    const cart = await cartOf(items)
    const address = normalizeAddress(HOME)
    const refusal = { kind: 'conflict', message: QUOTE_EXPIRED_MESSAGE }

    await expect(
      shop.services.shipping.priceFor(rate.id, await cartOf([{ id: 1, quantity: 3 }]), address),
    ).rejects.toMatchObject(refusal)
    await expect(
      shop.services.shipping.priceFor(
        rate.id,
        cart,
        normalizeAddress({ ...HOME, zip: '10001', state: 'NY' }),
      ),
    ).rejects.toMatchObject(refusal)
    // The name on the parcel is not part of the destination: the quote holds.
    expect(
      (await shop.services.shipping.priceFor(rate.id, cart, normalizeAddress({ ...HOME, name: 'D. Cole' })))
        .quote.id,
    ).toBe(rate.id)

    shop.clock.advance(31 * 60 * 1000)
    await expect(shop.services.shipping.priceFor(rate.id, cart, address)).rejects.toMatchObject(refusal)
  })
})
