import { describe, expect, test } from 'bun:test'
import {
  centsToDollars,
  dollarsToCents,
  formatCents,
  formatCurrency,
  MIN_CHARGE_CENTS,
} from '@core/rules/money'
import fc from 'fast-check'

describe('dollarsToCents', () => {
  test.each([
    ['21.00', 2100],
    [21, 2100],
    ['21', 2100],
    ['18.5', 1850],
    [' 13.00 ', 1300],
    ['0.01', 1],
    [0, 0],
    [19.99, 1999],
    [0.29, 29], // 0.29 * 100 is 28.999999999999996 as a float
    [1.15, 115],
    ['4503599627370.49', 450359962737049],
  ] as const)('%p is %p cents', (input, cents) => {
    expect(dollarsToCents(input)).toBe(cents)
  })

  test.each([
    ['abc'],
    [''],
    ['  '],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [-1],
    ['-1.00'],
    ['21.001'],
    [21.001],
    [0.1 + 0.2],
    ['1e3'],
    [1e-7],
    [1e21],
    ['0x10'],
    ['21.'],
    ['.5'],
    ['1,000.00'],
    ['+5'],
  ] as const)('%p is refused', (input) => {
    expect(dollarsToCents(input)).toBeNull()
  })

  test('refuses values that are not strings or numbers at runtime', () => {
    expect(dollarsToCents(null as unknown as string)).toBeNull()
  })
})

describe('centsToDollars', () => {
  test.each([
    [2100, '21.00'],
    [1, '0.01'],
    [0, '0.00'],
    [1850, '18.50'],
    [-150, '-1.50'],
  ])('%p cents is %p', (cents, text) => {
    expect(centsToDollars(cents)).toBe(text)
  })

  test('refuses fractional cents, which would mean a bug upstream', () => {
    expect(() => centsToDollars(10.5)).toThrow(RangeError)
    expect(() => centsToDollars(Number.NaN)).toThrow(RangeError)
  })

  test('property: dollarsToCents(centsToDollars(c)) === c', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (cents) => {
        expect(dollarsToCents(centsToDollars(cents))).toBe(cents)
      }),
    )
  })
})

describe('formatCurrency (docs/product.md#money)', () => {
  test.each([
    [1234.5, '$1,234.50'],
    ['1234.5', '$1,234.50'],
    [21, '$21.00'],
    ['21.00', '$21.00'],
    [' 18 ', '$18.00'],
    [0, '$0.00'],
    [0.5, '$0.50'],
    [1000000, '$1,000,000.00'],
    [-5, '-$5.00'],
    [-0, '$0.00'],
  ] as const)('%p shows %p', (value, text) => {
    expect(formatCurrency(value)).toBe(text)
  })

  test.each([
    [null],
    [undefined],
    ['abc'],
    [''],
    ['  '],
    ['0x10'],
    ['Infinity'],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [{}],
    [[]],
    [true],
  ])('non-numeric %p shows zero dollars', (value) => {
    expect(formatCurrency(value)).toBe('$0.00')
  })
})

describe('formatCents', () => {
  test.each([
    [123450, '$1,234.50'],
    [2100, '$21.00'],
    [50, '$0.50'],
    [0, '$0.00'],
    [100000000, '$1,000,000.00'],
    [-150, '-$1.50'],
  ])('%p cents shows %p', (cents, text) => {
    expect(formatCents(cents)).toBe(text)
  })

  test('property: agrees with formatCurrency of the same amount in dollars', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => {
        expect(formatCents(cents)).toBe(formatCurrency(centsToDollars(cents)))
      }),
    )
  })
})

test('the minimum charge is $0.50 (docs/product.md#money)', () => {
  expect(MIN_CHARGE_CENTS).toBe(50)
})
