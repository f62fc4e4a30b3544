import { describe, expect, test } from 'bun:test'
import { filterByCategory, type SearchableProduct, searchProducts } from '@core/rules/search'
import fc from 'fast-check'

interface Product extends SearchableProduct {
  id: number
}

// Descriptions deliberately avoid the synonym words so those matches come from the synonym table.
const catalogue: Product[] = [
  {
    id: 1,
    name: 'Hammered Citrus',
    category: 'whisker-oil',
    description: 'Conditioning blend with orange peel.',
  },
  {
    id: 2,
    name: 'Barrel & Timber',
    category: 'whisker-tamer',
    description: 'Holds stray whiskers all shift.',
  },
  { id: 3, name: 'Alpine Wash', category: 'whisker-wash', description: 'Cleans out sawdust and grease.' },
  {
    id: 4,
    name: 'Workforce Repair Original Grit',
    category: 'workforce-repair',
    description: 'For cracked knuckles.',
  },
  {
    id: 5,
    name: 'The Brush & Comb Duo',
    category: 'accessories',
    description: 'Boar bristles and a wooden tooth row.',
  },
]
const legacyRepair: Product = {
  id: 6,
  name: 'Night Shift',
  category: 'repair',
  description: 'Overnight knuckle care.',
}
const withLegacy = [...catalogue, legacyRepair]

const ids = (products: readonly Product[]) => products.map((p) => p.id)

describe('searchProducts', () => {
  test.each([[''], ['   '], [null], [undefined], ['&']])('blank query %p returns every product', (query) => {
    expect(searchProducts(catalogue, query)).toEqual(catalogue)
  })

  test('matches name, description, category id and category label case-insensitively', () => {
    expect(ids(searchProducts(catalogue, 'CITRUS'))).toEqual([1])
    expect(ids(searchProducts(catalogue, 'sawdust'))).toEqual([3])
    expect(ids(searchProducts(catalogue, 'whisker-tamer'))).toEqual([2])
    expect(ids(searchProducts(catalogue, 'beard balm'))).toEqual([2])
    expect(ids(searchProducts(catalogue, 'Accessories'))).toEqual([5])
  })

  test.each([
    ['oil', [1]],
    ['oils', [1]],
    ['balm', [2, 4]],
    ['tamer', [2, 4]],
    ['wax', [2, 4]],
    ['wash', [3]],
    ['shampoo', [3]],
    ['soap', [3]],
    ['brush', [5]],
    ['brushes', [5]],
    ['comb', [5]],
    ['tool', [5]],
    ['tools', [5]],
    ['repair', [4]],
    ['hand', [4]],
    ['hands', [4]],
    ['beard', [1, 2, 3, 5]],
  ])('synonym %p finds %p', (query, expected) => {
    expect(ids(searchProducts(catalogue, query))).toEqual(expected)
  })

  test('every word of a multi-word query must match', () => {
    expect(ids(searchProducts(catalogue, 'beard oil'))).toEqual([1])
    expect(ids(searchProducts(catalogue, 'hand balm'))).toEqual([4])
    expect(ids(searchProducts(catalogue, 'brush & comb'))).toEqual([5])
    expect(ids(searchProducts(catalogue, 'oil, wash'))).toEqual([])
    expect(ids(searchProducts(catalogue, '  Alpine   WASH '))).toEqual([3])
  })

  test('nothing matches an unrelated word', () => {
    expect(searchProducts(catalogue, 'chainsaw')).toEqual([])
  })

  test('legacy category repair is searched as workforce-repair', () => {
    expect(ids(searchProducts(withLegacy, 'hand'))).toEqual([4, 6])
    expect(ids(searchProducts(withLegacy, 'workforce repair'))).toEqual([4, 6])
  })

  const productArb = fc.record({
    id: fc.nat(),
    name: fc.string({ maxLength: 12 }),
    description: fc.string({ maxLength: 30 }),
    category: fc.constantFrom(
      'whisker-oil',
      'whisker-tamer',
      'whisker-wash',
      'accessories',
      'workforce-repair',
      'repair',
      'x',
    ),
  })
  const wordArb = fc.oneof(
    fc.constantFrom('oil', 'balm', 'wash', 'shampoo', 'brush', 'comb', 'repair', 'beard', 'hand', 'WHISKER'),
    fc.string({ maxLength: 6 }),
  )

  test('property: results are a subsequence of the input', () => {
    fc.assert(
      fc.property(
        fc.array(productArb, { maxLength: 10 }),
        fc.array(wordArb, { maxLength: 3 }),
        (products, words) => {
          const found = searchProducts(products, words.join(' '))
          let cursor = 0
          for (const product of found) {
            const at = products.indexOf(product, cursor)
            expect(at).toBeGreaterThanOrEqual(0)
            cursor = at + 1
          }
        },
      ),
    )
  })

  test('property: a blank query returns all, and adding a word never adds results', () => {
    fc.assert(
      fc.property(
        fc.array(productArb, { maxLength: 10 }),
        fc.stringMatching(/^\s*$/),
        wordArb,
        wordArb,
        (products, blank, first, second) => {
          expect(searchProducts(products, blank)).toEqual(products)
          const one = searchProducts(products, first)
          const two = searchProducts(products, `${first} ${second}`)
          for (const product of two) expect(one).toContain(product)
        },
      ),
    )
  })
})

describe('filterByCategory', () => {
  test.each([['all'], [null], [undefined], ['']])('%p shows every product', (category) => {
    expect(filterByCategory(withLegacy, category)).toEqual(withLegacy)
  })

  test('keeps only the chosen category', () => {
    expect(ids(filterByCategory(catalogue, 'whisker-oil'))).toEqual([1])
    expect(ids(filterByCategory(catalogue, 'accessories'))).toEqual([5])
  })

  test('legacy repair and workforce-repair select the same products', () => {
    expect(ids(filterByCategory(withLegacy, 'repair'))).toEqual([4, 6])
    expect(ids(filterByCategory(withLegacy, 'workforce-repair'))).toEqual([4, 6])
  })

  test('an unknown category falls back to every product', () => {
    expect(filterByCategory(catalogue, 'shoes')).toEqual(catalogue)
  })
})
