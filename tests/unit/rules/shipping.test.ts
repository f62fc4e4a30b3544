import { describe, expect, test } from 'bun:test'
import {
  amountToFreeShippingCents,
  DEFAULT_WEIGHT_OZ,
  FREE_SHIPPING_THRESHOLD_CENTS,
  formatWeight,
  parseWeightOunces,
  qualifiesForFreeShipping,
  totalWeightOunces,
} from '@core/rules/shipping'
import fc from 'fast-check'

describe('free shipping (docs/product.md#free-shipping: $35.00 or more after discount)', () => {
  test('threshold is $35.00', () => {
    expect(FREE_SHIPPING_THRESHOLD_CENTS).toBe(3500)
  })

  test.each([
    [3500, true, 0],
    [3501, true, 0],
    [3499, false, 1],
    [2100, false, 1400],
    [0, false, 3500],
  ])('%p cents → qualifies %p, %p cents to go', (cents, qualifies, toGo) => {
    expect(qualifiesForFreeShipping(cents)).toBe(qualifies)
    expect(amountToFreeShippingCents(cents)).toBe(toGo)
  })

  test('property: the amount to go is 0 exactly when the order qualifies', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (cents) => {
        expect(amountToFreeShippingCents(cents) === 0).toBe(qualifiesForFreeShipping(cents))
        expect(qualifiesForFreeShipping(cents + amountToFreeShippingCents(cents))).toBe(true)
      }),
    )
  })
})

describe('weights', () => {
  test('default weight is 2.0 oz', () => {
    expect(DEFAULT_WEIGHT_OZ).toBe(2)
  })

  test.each([
    ['2.0', 2],
    ['1.5', 1.5],
    [3.2, 3.2],
    [null, 2],
    [undefined, 2],
    ['', 2],
    ['heavy', 2],
    ['0', 2],
    [-1, 2],
  ] as const)('stored weight %p reads as %p oz', (stored, oz) => {
    expect(parseWeightOunces(stored)).toBe(oz)
  })

  test('total weight sums weight × quantity, rounded to 1 decimal', () => {
    expect(
      totalWeightOunces([
        { weightOz: 2, quantity: 2 },
        { weightOz: 1, quantity: 2 },
      ]),
    ).toBe(6)
    expect(totalWeightOunces([{ weightOz: 0.1, quantity: 3 }])).toBe(0.3)
    expect(totalWeightOunces([{ weightOz: 1.25, quantity: 1 }])).toBe(1.3) // half up
    expect(totalWeightOunces([{ weightOz: 1.24, quantity: 1 }])).toBe(1.2)
    expect(totalWeightOunces([])).toBe(0)
  })

  test.each([
    [6, '6.0 oz'],
    [2.5, '2.5 oz'],
    [0, '0.0 oz'],
    [12.34, '12.3 oz'],
  ])('formatWeight(%p) is %p', (oz, text) => {
    expect(formatWeight(oz)).toBe(text)
  })

  test('property: total weight has at most 1 decimal and is close to the exact sum', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            weightOz: fc.integer({ min: 1, max: 500 }).map((tenths) => tenths / 10),
            quantity: fc.nat(30),
          }),
          { maxLength: 6 },
        ),
        (lines) => {
          const total = totalWeightOunces(lines)
          expect(Number.isInteger(Math.round(total * 10))).toBe(true)
          expect(formatWeight(total)).toBe(`${total.toFixed(1)} oz`)
          const exactTenths = lines.reduce((sum, l) => sum + Math.round(l.weightOz * 10) * l.quantity, 0)
          expect(Math.round(total * 10)).toBe(exactTenths)
        },
      ),
    )
  })
})
