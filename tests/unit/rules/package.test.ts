import { describe, expect, test } from 'bun:test'
import {
  type CartPackageLabel,
  cartPackageLabel,
  PACKAGE_ITEM_LIMITS,
  type PackageRecommendation,
  type PackageType,
  packageForItemCount,
  parsePackageItemCount,
} from '@core/rules/package'
import fc from 'fast-check'

const small: PackageRecommendation = { type: 'small', dimensions: { width: 4.25, length: 7, height: 1 } }
const medium: PackageRecommendation = { type: 'medium', dimensions: { width: 5, length: 9, height: 1 } }
const large: PackageRecommendation = { type: 'large', dimensions: { width: 7.5, length: 10.5, height: 1.5 } }

describe('packageForItemCount (docs/product.md#packages)', () => {
  test.each([
    [1, small],
    [2, small],
    [3, medium],
    [4, medium],
    [5, large],
    [20, large],
    [0, small],
  ])('%p items → %p', (count, recommendation) => {
    expect(packageForItemCount(count)).toEqual(recommendation)
  })

  test('a caller changing its result does not change the table', () => {
    const first = packageForItemCount(1)
    first.dimensions.width = 99
    expect(packageForItemCount(1).dimensions.width).toBe(4.25)
  })

  test('property: package size never shrinks as the item count grows', () => {
    const rank: Record<PackageType, number> = { small: 0, medium: 1, large: 2 }
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), (a, b) => {
        const [fewer, more] = a <= b ? [a, b] : [b, a]
        const smaller = packageForItemCount(fewer)
        const bigger = packageForItemCount(more)
        expect(rank[smaller.type]).toBeLessThanOrEqual(rank[bigger.type])
        expect(
          smaller.dimensions.width * smaller.dimensions.length * smaller.dimensions.height,
        ).toBeLessThanOrEqual(bigger.dimensions.width * bigger.dimensions.length * bigger.dimensions.height)
      }),
    )
  })
})

describe('parsePackageItemCount (1–20 only)', () => {
  test('limits are 1 and 20', () => {
    expect(PACKAGE_ITEM_LIMITS).toEqual({ min: 1, max: 20 })
  })

  test.each([
    [1, 1],
    [20, 20],
    [7, 7],
    ['3', 3],
    [' 12 ', 12],
    ['020', 20],
  ] as const)('%p → %p', (input, count) => {
    expect(parsePackageItemCount(input)).toBe(count)
  })

  test.each([
    [0],
    [21],
    [-1],
    [2.5],
    ['2.5'],
    ['0'],
    ['21'],
    ['abc'],
    [''],
    ['1e1'],
    [Number.NaN],
    [null],
    [undefined],
    [[3]],
    [{}],
  ])('%p → null', (input) => {
    expect(parsePackageItemCount(input)).toBeNull()
  })
})

describe('cartPackageLabel', () => {
  test.each([
    [0, null],
    [1, 'Small'],
    [2, 'Small'],
    [3, 'Medium'],
    [4, 'Medium'],
    [5, 'Large'],
    [99, 'Large'],
  ] as [number, CartPackageLabel | null][])('%p items → %p', (count, label) => {
    expect(cartPackageLabel(count)).toBe(label)
  })

  test('property: agrees with the mailer chosen for the same count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), (count) => {
        expect(cartPackageLabel(count)?.toLowerCase()).toBe(packageForItemCount(count).type)
      }),
    )
  })
})
