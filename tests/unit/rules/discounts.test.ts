import { describe, expect, test } from 'bun:test'
import {
  allocateDiscount,
  chargeableLines,
  codeThatCounts,
  type DiscountTerms,
  describeDiscount,
  discountCents,
  discountShortfallCents,
  isValidDiscountTerms,
  meetsMinimumCharge,
  orderTotals,
  type PricedLine,
} from '@core/rules/discounts'
import fc from 'fast-check'

const percent = (amount: number): DiscountTerms => ({ code: 'CREW10', type: 'percentage', amount })
const fixed = (amount: number): DiscountTerms => ({ code: 'FIVEOFF', type: 'fixed', amount })

const lineArb = fc.record({
  key: fc.string({ maxLength: 4 }),
  unitCents: fc.integer({ min: 0, max: 100_000 }),
  quantity: fc.integer({ min: 0, max: 50 }),
})
const linesArb = fc.array(lineArb, { maxLength: 8 })
const subtotalOf = (lines: readonly PricedLine[]) =>
  lines.reduce((sum, l) => sum + l.unitCents * l.quantity, 0)
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0)

describe('discountCents', () => {
  test('percentage takes the percent of the subtotal', () => {
    expect(discountCents(5700, percent(10))).toBe(570)
    expect(discountCents(2100, percent(100))).toBe(2100)
  })

  test('percentage rounds half up to the cent', () => {
    expect(discountCents(1850, percent(1))).toBe(19) // 18.5 cents
    expect(discountCents(1849, percent(1))).toBe(18) // 18.49 cents
    expect(discountCents(105, percent(10))).toBe(11) // 10.5 cents
    expect(discountCents(1999, percent(15))).toBe(300) // 299.85 cents
  })

  test('fixed amount subtracts cents, capped at the subtotal', () => {
    expect(discountCents(2100, fixed(500))).toBe(500)
    expect(discountCents(300, fixed(500))).toBe(300)
  })

  test('no discount, an empty cart or a nonsensical amount gives 0', () => {
    expect(discountCents(2100, null)).toBe(0)
    expect(discountCents(2100, undefined)).toBe(0)
    expect(discountCents(0, percent(10))).toBe(0)
    expect(discountCents(2100, fixed(-500))).toBe(0)
    expect(discountCents(2100, percent(Number.NaN))).toBe(0)
    expect(discountCents(-100, fixed(500))).toBe(0)
  })

  test('percentages above 100 never discount more than the subtotal', () => {
    expect(discountCents(2100, percent(150))).toBe(2100)
  })

  test('property: percentage discount is within [0, subtotal]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: -10, max: 200 }),
        (subtotal, pct) => {
          const discount = discountCents(subtotal, percent(pct))
          expect(Number.isInteger(discount)).toBe(true)
          expect(discount).toBeGreaterThanOrEqual(0)
          expect(discount).toBeLessThanOrEqual(subtotal)
        },
      ),
    )
  })

  test('property: fixed discount is within [0, subtotal]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: -1000, max: 20_000_000 }),
        (subtotal, amount) => {
          const discount = discountCents(subtotal, fixed(amount))
          expect(discount).toBe(Math.max(0, Math.min(amount, subtotal)))
        },
      ),
    )
  })
})

describe('a code below its minimum', () => {
  const save5: DiscountTerms = { code: 'SAVE5', type: 'fixed', amount: 500, minSubtotalCents: 2000 }

  test('counts for nothing until the subtotal reaches the minimum, then in full', () => {
    expect(discountCents(1999, save5)).toBe(0)
    expect(discountShortfallCents(1999, save5)).toBe(1)
    expect(codeThatCounts(1999, save5)).toBeNull()
    expect(discountCents(2000, save5)).toBe(500)
    expect(discountShortfallCents(2000, save5)).toBe(0)
    expect(codeThatCounts(2000, save5)).toBe('SAVE5')
  })

  test('terms without a minimum (saved before codes carried one) always count', () => {
    const grit: DiscountTerms = { code: 'GRIT15', type: 'percentage', amount: 15 }
    expect(discountShortfallCents(100, grit)).toBe(0)
    expect(discountCents(100, grit)).toBe(15)
    expect(codeThatCounts(100, grit)).toBe('GRIT15')
    expect(codeThatCounts(100, null)).toBeNull()
  })

  test('the order totals leave it out below its minimum', () => {
    const lines = [{ unitCents: 1500, quantity: 1 }]
    expect(orderTotals({ lines, discount: save5, shippingCents: 0 }).totalCents).toBe(1500)
    expect(
      orderTotals({ lines: [{ unitCents: 1500, quantity: 2 }], discount: save5, shippingCents: 0 })
        .totalCents,
    ).toBe(2500)
  })
})

describe('isValidDiscountTerms', () => {
  test('accepts whole percents 1–100 and positive whole cents', () => {
    expect(isValidDiscountTerms(percent(1))).toBe(true)
    expect(isValidDiscountTerms(percent(100))).toBe(true)
    expect(isValidDiscountTerms(fixed(1))).toBe(true)
  })

  test.each([
    [percent(0)],
    [percent(101)],
    [percent(10.5)],
    [fixed(0)],
    [fixed(-5)],
    [fixed(2.5)],
    [{ code: '  ', type: 'percentage', amount: 10 } satisfies DiscountTerms],
    [{ code: 'X', type: 'bogus' as never, amount: 10 } satisfies DiscountTerms],
  ])('refuses %p', (terms) => {
    expect(isValidDiscountTerms(terms)).toBe(false)
  })
})

describe('allocateDiscount', () => {
  test('spreads a discount in proportion to line value', () => {
    const lines = [
      { key: 'oil', unitCents: 2100, quantity: 2 }, // 4200
      { key: 'wash', unitCents: 1800, quantity: 1 }, // 1800
    ]
    expect(allocateDiscount(lines, 600)).toEqual([420, 180])
  })

  test('leftover cents go to the largest remainders', () => {
    const lines = [
      { key: 'a', unitCents: 100, quantity: 1 },
      { key: 'b', unitCents: 200, quantity: 1 },
    ]
    // exact shares 33.33 and 66.67: the second has the larger remainder
    expect(allocateDiscount(lines, 100)).toEqual([33, 67])
  })

  test('equal remainders go to the earlier line', () => {
    const three = [
      { key: 'a', unitCents: 100, quantity: 1 },
      { key: 'b', unitCents: 100, quantity: 1 },
      { key: 'c', unitCents: 100, quantity: 1 },
    ]
    expect(allocateDiscount(three, 100)).toEqual([34, 33, 33])
    expect(allocateDiscount(three, 101)).toEqual([34, 34, 33])
  })

  test('caps the discount at the subtotal', () => {
    const lines = [
      { key: 'a', unitCents: 300, quantity: 1 },
      { key: 'b', unitCents: 200, quantity: 2 },
    ]
    expect(allocateDiscount(lines, 5000)).toEqual([300, 400])
  })

  test('no lines, no discount and zero-value lines get nothing', () => {
    expect(allocateDiscount([], 500)).toEqual([])
    expect(allocateDiscount([{ key: 'a', unitCents: 100, quantity: 1 }], 0)).toEqual([0])
    expect(
      allocateDiscount(
        [
          { key: 'free', unitCents: 0, quantity: 3 },
          { key: 'a', unitCents: 100, quantity: 1 },
        ],
        50,
      ),
    ).toEqual([0, 50])
  })

  test('refuses lines that our own code should never build', () => {
    expect(() => allocateDiscount([{ key: 'a', unitCents: 1.5, quantity: 1 }], 10)).toThrow(RangeError)
    expect(() => allocateDiscount([{ key: 'a', unitCents: 100, quantity: -1 }], 10)).toThrow(RangeError)
  })

  test('property: parts sum exactly to the capped discount and never exceed a line value', () => {
    fc.assert(
      fc.property(linesArb, fc.integer({ min: 0, max: 6_000_000 }), (lines, discount) => {
        const parts = allocateDiscount(lines, discount)
        expect(parts).toHaveLength(lines.length)
        expect(sum(parts)).toBe(Math.min(discount, subtotalOf(lines)))
        parts.forEach((part, index) => {
          const line = lines[index] as PricedLine
          expect(Number.isInteger(part)).toBe(true)
          expect(part).toBeGreaterThanOrEqual(0)
          expect(part).toBeLessThanOrEqual(line.unitCents * line.quantity)
        })
      }),
    )
  })

  test('property: deterministic, and a larger line never gets less than a smaller one', () => {
    fc.assert(
      fc.property(linesArb, fc.integer({ min: 0, max: 6_000_000 }), (lines, discount) => {
        const parts = allocateDiscount(lines, discount)
        expect(allocateDiscount(lines, discount)).toEqual(parts)
        lines.forEach((a, i) => {
          lines.forEach((b, j) => {
            if (a.unitCents * a.quantity > b.unitCents * b.quantity) {
              expect(parts[i] as number).toBeGreaterThanOrEqual(parts[j] as number)
            }
          })
        })
      }),
    )
  })
})

describe('chargeableLines', () => {
  test('lines that divide evenly keep their quantity', () => {
    const lines = [
      { key: 'oil', unitCents: 2100, quantity: 2 },
      { key: 'wash', unitCents: 1800, quantity: 1 },
    ]
    expect(chargeableLines(lines, 600)).toEqual([
      { key: 'oil', unitCents: 1890, quantity: 2 },
      { key: 'wash', unitCents: 1620, quantity: 1 },
    ])
  })

  test('a line that does not divide is split: quantity − 1 at the floor, 1 carrying the remainder', () => {
    // 3 × 1000 − 100 = 2900 = 2 × 966 + 968
    expect(chargeableLines([{ key: 'balm', unitCents: 1000, quantity: 3 }], 100)).toEqual([
      { key: 'balm', unitCents: 966, quantity: 2 },
      { key: 'balm', unitCents: 968, quantity: 1 },
    ])
  })

  test('without a discount the lines pass through', () => {
    const lines = [{ key: 'duo', unitCents: 1900, quantity: 4 }]
    expect(chargeableLines(lines, 0)).toEqual(lines)
  })

  test('fully discounted and zero-quantity lines are left out', () => {
    const lines = [
      { key: 'a', unitCents: 100, quantity: 1 },
      { key: 'b', unitCents: 500, quantity: 0 },
    ]
    expect(chargeableLines(lines, 100)).toEqual([])
  })

  test('units that would cost 0 cents are left out, the last unit carries the rest', () => {
    // 3 × 100 − 298 = 2: floor is 0, so one unit at 2 cents
    expect(chargeableLines([{ key: 'a', unitCents: 100, quantity: 3 }], 298)).toEqual([
      { key: 'a', unitCents: 2, quantity: 1 },
    ])
  })

  test('property: unit amounts are positive integers summing exactly to subtotal − discount', () => {
    fc.assert(
      fc.property(linesArb, fc.integer({ min: 0, max: 6_000_000 }), (lines, discount) => {
        const items = chargeableLines(lines, discount)
        const charged = sum(items.map((item) => item.unitCents * item.quantity))
        const subtotal = subtotalOf(lines)
        expect(charged).toBe(subtotal - Math.min(discount, subtotal))
        for (const item of items) {
          expect(Number.isInteger(item.unitCents)).toBe(true)
          expect(item.unitCents).toBeGreaterThan(0)
          expect(Number.isInteger(item.quantity)).toBe(true)
          expect(item.quantity).toBeGreaterThan(0)
        }
      }),
    )
  })

  test('property: each line is charged at most its quantity and at most twice', () => {
    fc.assert(
      fc.property(linesArb, fc.integer({ min: 0, max: 6_000_000 }), (lines, discount) => {
        const items = chargeableLines(lines, discount)
        const uniqueLines = lines.map((line, index) => ({ ...line, key: `line-${index}` }))
        const uniqueItems = chargeableLines(uniqueLines, discount)
        expect(uniqueItems).toHaveLength(items.length)
        uniqueLines.forEach((line) => {
          const mine = uniqueItems.filter((item) => item.key === line.key)
          expect(mine.length).toBeLessThanOrEqual(2)
          expect(sum(mine.map((item) => item.quantity))).toBeLessThanOrEqual(line.quantity)
        })
      }),
    )
  })
})

describe('orderTotals', () => {
  const cart = [
    { key: '1', unitCents: 2100, quantity: 1 },
    { key: '3', unitCents: 1800, quantity: 2 },
  ]

  test('adds lines, subtracts the discount and adds shipping', () => {
    expect(orderTotals({ lines: cart, discount: percent(10), shippingCents: 0 })).toEqual({
      subtotalCents: 5700,
      discountCents: 570,
      shippingCents: 0,
      totalCents: 5130,
      itemCount: 3,
    })
    expect(orderTotals({ lines: cart, discount: fixed(500), shippingCents: 795 })).toEqual({
      subtotalCents: 5700,
      discountCents: 500,
      shippingCents: 795,
      totalCents: 5995,
      itemCount: 3,
    })
  })

  test('shipping is never discounted', () => {
    const totals = orderTotals({
      lines: [{ unitCents: 300, quantity: 1 }],
      discount: fixed(1000),
      shippingCents: 600,
    })
    expect(totals.discountCents).toBe(300)
    expect(totals.totalCents).toBe(600)
  })

  test('an empty cart totals zero', () => {
    expect(orderTotals({ lines: [], discount: null, shippingCents: 0 })).toEqual({
      subtotalCents: 0,
      discountCents: 0,
      shippingCents: 0,
      totalCents: 0,
      itemCount: 0,
    })
  })

  test('property: total = subtotal − discount + shipping, and chargeable lines match the goods part', () => {
    fc.assert(
      fc.property(
        linesArb,
        fc.oneof(
          fc.constant(null),
          fc.integer({ min: 1, max: 100 }).map(percent),
          fc.integer({ min: 1, max: 10_000_000 }).map(fixed),
        ),
        fc.integer({ min: 0, max: 10_000 }),
        (lines, discount, shipping) => {
          const totals = orderTotals({ lines, discount, shippingCents: shipping })
          expect(totals.totalCents).toBe(totals.subtotalCents - totals.discountCents + totals.shippingCents)
          const charged = chargeableLines(lines, totals.discountCents)
          expect(sum(charged.map((i) => i.unitCents * i.quantity))).toBe(
            totals.subtotalCents - totals.discountCents,
          )
        },
      ),
    )
  })
})

describe('meetsMinimumCharge (docs/product.md#money: at least $0.50 after discounts)', () => {
  test.each([
    [50, true],
    [51, true],
    [49, false],
    [0, false],
  ])('%p cents → %p', (cents, ok) => {
    expect(meetsMinimumCharge(cents)).toBe(ok)
  })
})

describe('describeDiscount', () => {
  test.each([
    [percent(10), '10% discount has been applied to your order.'],
    [fixed(500), '$5 discount has been applied to your order.'],
    [fixed(550), '$5.50 discount has been applied to your order.'],
    [fixed(5), '$0.05 discount has been applied to your order.'],
    [fixed(150000), '$1,500 discount has been applied to your order.'],
  ])('%p → %p', (terms, text) => {
    expect(describeDiscount(terms)).toBe(text)
  })
})
