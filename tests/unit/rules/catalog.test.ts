import { describe, expect, test } from 'bun:test'
import { ALL_CATEGORY, CATEGORIES, categoryLabel, isCategoryId, normalizeCategory } from '@core/rules/catalog'

describe('categories', () => {
  test('five categories in shop order with their labels', () => {
    expect(CATEGORIES).toEqual([
      { id: 'whisker-oil', label: 'Whisker Oil' },
      { id: 'whisker-tamer', label: 'Beard Balm' },
      { id: 'whisker-wash', label: 'Beard Wash' },
      { id: 'accessories', label: 'Accessories' },
      { id: 'workforce-repair', label: 'Workforce Repair' },
    ])
    expect(ALL_CATEGORY).toEqual({ id: 'all', label: 'All Products' })
  })

  test.each([
    ['whisker-oil', 'whisker-oil'],
    ['workforce-repair', 'workforce-repair'],
    ['repair', 'workforce-repair'],
    ['all', 'all'],
    [' Whisker-Wash ', 'whisker-wash'],
    ['REPAIR', 'workforce-repair'],
    ['shoes', null],
    ['', null],
    [null, null],
    [undefined, null],
  ] as const)('normalizeCategory(%p) is %p', (value, id) => {
    expect(normalizeCategory(value)).toBe(id)
  })

  test('labels', () => {
    expect(categoryLabel('whisker-tamer')).toBe('Beard Balm')
    expect(categoryLabel('whisker-wash')).toBe('Beard Wash')
    expect(categoryLabel('workforce-repair')).toBe('Workforce Repair')
    expect(categoryLabel('all')).toBe('All Products')
  })

  test('isCategoryId accepts only current ids', () => {
    expect(isCategoryId('accessories')).toBe(true)
    expect(isCategoryId('repair')).toBe(false)
    expect(isCategoryId('all')).toBe(false)
    expect(isCategoryId(3)).toBe(false)
  })
})
