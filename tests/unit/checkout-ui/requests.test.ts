import { describe, expect, test } from 'bun:test'
import type { CartLine } from '../../../site/features/cart/store'
import { type CheckoutDraft, emptyAddress, emptyDraft } from '../../../site/features/checkout/form'
import {
  cartWeightOunces,
  deliveryText,
  goodsTotals,
  isBelowMinimumCharge,
  quoteBinding,
  type Rate,
  ratesRequest,
  sessionRequest,
} from '../../../site/features/checkout/requests'

function line(
  id: number,
  price: string,
  quantity: number,
  weight = '2.0',
  selectedVariant?: string,
): CartLine {
  return {
    product: {
      id,
      name: `Product ${id}`,
      slug: `p${id}`,
      category: 'whisker-oil',
      price,
      weight,
      image: '/x.svg',
    },
    quantity,
    ...(selectedVariant ? { selectedVariant } : {}),
  }
}

const ADDRESS = {
  name: 'Sam Carpenter',
  street1: '12 Workshop Lane',
  street2: 'Unit 4',
  city: 'Austin',
  state: 'TX',
  zip: '73301',
  country: 'US',
}

const DRAFT: CheckoutDraft = { ...emptyDraft(), email: ' sam@example.com ', shipping: ADDRESS }

const RATE: Rate = {
  id: 'rate_abc',
  price: 7.5,
  carrier: 'USPS',
  serviceName: 'Priority Mail',
  estimatedDays: 3,
  deliveryEstimate: { minDays: 1, maxDays: 3 },
  free: false,
}

describe('ratesRequest (docs/product.md#shop-calls)', () => {
  test('sends the address, the items with product ids and the subtotal with 2 decimals', () => {
    const body = ratesRequest(DRAFT, [line(1, '21.00', 2), line(4, '13.00', 1, '1.5')], 'CREW10')
    expect(body).toEqual({
      address: ADDRESS,
      items: [
        { id: 1, name: 'Product 1', quantity: 2, weight: '2.0' },
        { id: 4, name: 'Product 4', quantity: 1, weight: '1.5' },
      ],
      subtotal: '55.00',
      discount_code: 'CREW10',
    })
  })

  test('leaves the discount code out when none is applied', () => {
    expect('discount_code' in ratesRequest(DRAFT, [line(1, '21.00', 1)], null)).toBe(false)
  })
})

describe('sessionRequest (docs/product.md#checkout-calls)', () => {
  test('carries product ids, the e-mail, both addresses, the rate and metadata', () => {
    const body = sessionRequest(DRAFT, [line(1, '21.00', 2, '2.0', 'Cedar'), line(3, '18.00', 1)], RATE, null)
    expect(body.customer_email).toBe('sam@example.com')
    expect(body.shipping_address).toEqual(ADDRESS)
    expect(body.billing_address).toEqual(ADDRESS)
    expect(body.line_items).toEqual([
      {
        product_id: 1,
        quantity: 2,
        variant: 'Cedar',
        price_data: {
          currency: 'usd',
          product_data: { name: 'Product 1', description: 'whisker-oil' },
          unit_amount: 2100,
        },
      },
      {
        product_id: 3,
        quantity: 1,
        price_data: {
          currency: 'usd',
          product_data: { name: 'Product 3', description: 'whisker-oil' },
          unit_amount: 1800,
        },
      },
    ])
    expect(body.shipping_rate).toEqual({
      id: 'rate_abc',
      price: 7.5,
      carrier: 'USPS',
      serviceName: 'Priority Mail',
      duration: '3 business days',
    })
    expect(body.metadata).toEqual({ shipping_rate_id: 'rate_abc', total_weight: '6.0', item_count: '3' })
    expect('discount_code' in body).toBe(false)
  })

  test('a separate billing address is sent as typed', () => {
    const billing = {
      ...emptyAddress(),
      name: 'Pat',
      street1: '1 Main St',
      city: 'Boise',
      state: 'ID',
      zip: '83702',
    }
    const body = sessionRequest(
      { ...DRAFT, separateBilling: true, billing },
      [line(1, '21.00', 1)],
      RATE,
      'CREW10',
    )
    expect(body.billing_address).toEqual({
      name: 'Pat',
      street1: '1 Main St',
      city: 'Boise',
      state: 'ID',
      zip: '83702',
      country: 'US',
    })
    expect(body.discount_code).toBe('CREW10')
  })
})

describe('totals', () => {
  test('subtotal and discount in cents', () => {
    const totals = goodsTotals([line(1, '21.00', 2), line(2, '18.00', 1)], {
      code: 'TEN',
      type: 'percentage',
      amount: 10,
    })
    expect(totals).toMatchObject({ subtotalCents: 6000, discountCents: 600, totalCents: 5400, itemCount: 3 })
  })

  test('docs/product.md#money: below $0.50 after discounts cannot be paid', () => {
    const lines = [line(1, '21.00', 1)]
    expect(isBelowMinimumCharge(lines, null)).toBe(false)
    expect(isBelowMinimumCharge(lines, { code: 'BIG', type: 'fixed', amount: 2051 })).toBe(true)
    expect(isBelowMinimumCharge(lines, { code: 'BIG', type: 'fixed', amount: 2050 })).toBe(false)
  })

  test('weight to one decimal, default 2.0 oz when unreadable', () => {
    expect(cartWeightOunces([line(1, '21.00', 3, '0.1'), line(2, '18.00', 1, 'abc')])).toBe(2.3)
  })

  test('delivery text', () => {
    expect(deliveryText(1)).toBe('1 business day')
    expect(deliveryText(5)).toBe('5 business days')
  })
})

describe('quoteBinding', () => {
  const lines = [line(1, '21.00', 2), line(3, '18.00', 1)]
  const base = quoteBinding(DRAFT, lines, null)

  test('a new name or e-mail keeps the rates (carriers do not price by recipient)', () => {
    expect(
      quoteBinding({ ...DRAFT, email: 'x@example.com', shipping: { ...ADDRESS, name: 'Pat' } }, lines, null),
    ).toBe(base)
  })

  test('reordered lines keep the rates', () => {
    expect(quoteBinding(DRAFT, [...lines].reverse(), null)).toBe(base)
  })

  test('a different destination, quantity or discount drops them', () => {
    expect(quoteBinding({ ...DRAFT, shipping: { ...ADDRESS, zip: '73344' } }, lines, null)).not.toBe(base)
    expect(quoteBinding(DRAFT, [line(1, '21.00', 3), line(3, '18.00', 1)], null)).not.toBe(base)
    expect(quoteBinding(DRAFT, lines, 'CREW10')).not.toBe(base)
  })
})
