import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { lineId } from '../../../site/features/cart/CartLineRow'
import {
  addLine,
  clampQuantity,
  lineFor,
  MAX_QUANTITY,
  removeLine,
  updateQuantity,
} from '../../../site/features/cart/cart-logic'
import { joinFirstScentLines, withLivePrices } from '../../../site/features/cart/saved-cart'
import type { CartLine, CartProduct } from '../../../site/features/cart/store'
import { cartTotals } from '../../../site/features/cart/totals'

const oil: CartProduct = {
  id: 1,
  name: 'Hammered Citrus',
  slug: 'whisker-oil',
  category: 'whisker-oil',
  price: '21.00',
  weight: '3.0',
  image: '/oil.svg',
}
const balm: CartProduct = { ...oil, id: 4, name: 'Workforce Repair', price: '13.00', weight: '2.6' }

describe('addLine', () => {
  test('appends a new product with quantity 1 by default', () => {
    expect(addLine([], oil)).toEqual([{ product: oil, quantity: 1 }])
  })

  test('raises the quantity of the same product and variant instead of adding a line', () => {
    const lines = addLine(addLine([], oil, 2), oil, 3)
    expect(lines).toEqual([{ product: oil, quantity: 5 }])
  })

  test('keeps different variants of one product apart', () => {
    const lines = addLine(addLine([], oil, 1, 'Cedar Shop'), oil, 1, 'Unscented')
    expect(lines.map((line) => line.selectedVariant)).toEqual(['Cedar Shop', 'Unscented'])
  })

  test("a line without a scent is the first scent's line when the adding page names it, either way round", () => {
    // A card adds no scent; the product page adds the first one: one line, keeping the scent it began with.
    const fromCard = addLine([], oil, 1, undefined, 'Hammered Citrus')
    expect(addLine(fromCard, oil, 2, 'Hammered Citrus', 'Hammered Citrus')).toEqual([
      { product: oil, quantity: 3 },
    ])
    const fromPage = addLine([], oil, 1, 'Hammered Citrus', 'Hammered Citrus')
    expect(addLine(fromPage, oil, 1, undefined, 'Hammered Citrus')).toEqual([
      { product: oil, quantity: 2, selectedVariant: 'Hammered Citrus' },
    ])
    // Another scent stays apart, and so does the first when the page does not say which it is.
    expect(addLine(fromCard, oil, 1, 'Cedar Shop', 'Hammered Citrus')).toHaveLength(2)
    expect(addLine(fromCard, oil, 1, 'Hammered Citrus')).toHaveLength(2)
    expect(
      addLine(
        [{ product: oil, quantity: 1, selectedVariant: 'Cedar Shop' }],
        oil,
        1,
        undefined,
        'Hammered Citrus',
      ),
    ).toHaveLength(2)
    expect(lineFor(fromPage, oil.id, undefined, 'Hammered Citrus')?.quantity).toBe(1)
  })

  test('caps a line at the maximum quantity', () => {
    expect(addLine([{ product: oil, quantity: 98 }], oil, 5)[0]?.quantity).toBe(MAX_QUANTITY)
  })

  test('never mutates the lines it was given', () => {
    const lines: CartLine[] = [{ product: oil, quantity: 1 }]
    addLine(lines, oil, 2)
    expect(lines).toEqual([{ product: oil, quantity: 1 }])
  })
})

describe('updateQuantity and removeLine', () => {
  const lines: CartLine[] = [
    { product: oil, quantity: 2 },
    { product: oil, quantity: 1, selectedVariant: 'Unscented' },
    { product: balm, quantity: 1 },
  ]

  test('sets the quantity of the matching line only', () => {
    expect(updateQuantity(lines, 1, 4, 'Unscented').map((line) => line.quantity)).toEqual([2, 4, 1])
  })

  test('0 or less removes the line', () => {
    expect(updateQuantity(lines, 4, 0)).toHaveLength(2)
    expect(updateQuantity(lines, 1, -3).map((line) => line.selectedVariant)).toEqual(['Unscented', undefined])
  })

  test('quantities become whole numbers from 1 to 99', () => {
    expect(updateQuantity(lines, 4, 2.7)[2]?.quantity).toBe(2)
    expect(updateQuantity(lines, 4, 500)[2]?.quantity).toBe(99)
    expect(updateQuantity(lines, 4, Number.NaN)).toEqual(lines)
  })

  test('removeLine matches product id and variant', () => {
    expect(removeLine(lines, 1, 'Unscented')).toEqual([lines[0], lines[2]] as CartLine[])
    expect(removeLine(lines, 99)).toEqual(lines)
  })
})

describe('joinFirstScentLines', () => {
  const firstScents: Record<number, string> = { 1: 'Hammered Citrus' }
  const firstScentOf = (productId: number) => firstScents[productId]

  test('a saved line without a scent and one of the first scent become the line that came first', () => {
    const saved: CartLine[] = [
      { product: oil, quantity: 2 },
      { product: balm, quantity: 1 },
      { product: oil, quantity: 3, selectedVariant: 'Hammered Citrus' },
    ]
    expect(joinFirstScentLines(saved, firstScentOf)).toEqual([
      { product: oil, quantity: 5 },
      { product: balm, quantity: 1 },
    ])
    expect(joinFirstScentLines([saved[2], saved[0]] as CartLine[], firstScentOf)).toEqual([
      { product: oil, quantity: 5, selectedVariant: 'Hammered Citrus' },
    ])
  })

  test('other scents, products without scents and a joined line past 99 keep to the rules', () => {
    const lines: CartLine[] = [
      { product: oil, quantity: 60 },
      { product: oil, quantity: 1, selectedVariant: 'Unscented' },
      { product: oil, quantity: 60, selectedVariant: 'Hammered Citrus' },
      { product: balm, quantity: 1 },
    ]
    expect(joinFirstScentLines(lines, firstScentOf)).toEqual([
      { product: oil, quantity: MAX_QUANTITY },
      { product: oil, quantity: 1, selectedVariant: 'Unscented' },
      { product: balm, quantity: 1 },
    ])
  })

  test('the same array comes back when nothing joins, so the store is not written', () => {
    const lines: CartLine[] = [
      { product: oil, quantity: 1, selectedVariant: 'Unscented' },
      { product: balm, quantity: 1 },
    ]
    expect(joinFirstScentLines(lines, firstScentOf)).toBe(lines)
    // A product the catalogue no longer lists (no first scent known) keeps its lines apart.
    const unknown: CartLine[] = [
      { product: oil, quantity: 1 },
      { product: oil, quantity: 1, selectedVariant: 'Hammered Citrus' },
    ]
    expect(joinFirstScentLines(unknown, () => undefined)).toBe(unknown)
  })
})

describe('withLivePrices', () => {
  const live: Record<number, { price: string; weight: string }> = {
    1: { price: '24.50', weight: '3.0' },
    4: { price: '13.00', weight: '2.8' },
  }
  const liveOf = (productId: number) => live[productId]

  test("each line takes the shop's price and weight now; a new price is said once per product", () => {
    const saved: CartLine[] = [
      { product: oil, quantity: 2, selectedVariant: 'Cedar Shop' },
      { product: balm, quantity: 1 },
      { product: oil, quantity: 1, selectedVariant: 'Unscented' },
    ]
    const { lines, repriced } = withLivePrices(saved, liveOf)
    expect(lines).toEqual([
      { product: { ...oil, price: '24.50' }, quantity: 2, selectedVariant: 'Cedar Shop' },
      { product: { ...balm, weight: '2.8' }, quantity: 1 },
      { product: { ...oil, price: '24.50' }, quantity: 1, selectedVariant: 'Unscented' },
    ])
    expect(repriced).toEqual([{ name: 'Hammered Citrus', wasCents: 2100, nowCents: 2450 }])
    // What the cart adds up to is what checkout will charge: 3 × $24.50 + $13.00.
    expect(cartTotals(lines).subtotalCents).toBe(8650)
  })

  test('the same array comes back when nothing changed, so the store is not written', () => {
    const saved: CartLine[] = [{ product: { ...oil, price: '24.5', weight: '3' }, quantity: 1 }]
    // The same figures written another way are the same price and weight.
    expect(withLivePrices(saved, liveOf)).toEqual({ lines: saved, repriced: [] })
    expect(withLivePrices(saved, liveOf).lines).toBe(saved)
  })

  test('a product the catalogue does not list, or figures it gives that cannot be read, leave the line as it is', () => {
    const saved: CartLine[] = [
      { product: oil, quantity: 1 },
      { product: balm, quantity: 1 },
    ]
    const unreadable = (productId: number) =>
      productId === 1 ? { price: 'free', weight: '' } : { price: '-1', weight: 'heavy' }
    expect(withLivePrices(saved, () => undefined).lines).toBe(saved)
    expect(withLivePrices(saved, unreadable)).toEqual({ lines: saved, repriced: [] })
  })

  test('a saved price the cart could not read takes the live one without saying what it was', () => {
    const saved: CartLine[] = [{ product: { ...oil, price: 'oops' }, quantity: 1 }]
    expect(withLivePrices(saved, liveOf)).toEqual({
      lines: [{ product: { ...oil, price: '24.50' }, quantity: 1 }],
      repriced: [],
    })
  })
})

describe('cartTotals', () => {
  test('sums cents, items and weight to one decimal', () => {
    const totals = cartTotals([
      { product: oil, quantity: 2 },
      { product: balm, quantity: 3 },
    ])
    expect(totals).toEqual({ subtotalCents: 2 * 2100 + 3 * 1300, itemCount: 5, weightOz: 13.8 })
  })

  test('an empty cart is all zeros', () => {
    expect(cartTotals([])).toEqual({ subtotalCents: 0, itemCount: 0, weightOz: 0 })
  })

  test('an unreadable price counts as 0 and a missing weight as 2.0 oz', () => {
    expect(cartTotals([{ product: { ...oil, price: 'abc', weight: '' }, quantity: 2 }])).toEqual({
      subtotalCents: 0,
      itemCount: 2,
      weightOz: 4,
    })
  })
})

test('clampQuantity always gives an integer from 1 to 99', () => {
  fc.assert(
    fc.property(fc.double(), (value) => {
      const quantity = clampQuantity(value)
      return Number.isInteger(quantity) && quantity >= 1 && quantity <= MAX_QUANTITY
    }),
  )
})

test('adding never changes the item count by anything but the clamped amount', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 20 }), (adds) => {
      let lines: CartLine[] = []
      for (const quantity of adds) lines = addLine(lines, oil, quantity)
      const expected = Math.min(
        MAX_QUANTITY,
        adds.reduce((sum, n) => sum + n, 0),
      )
      return cartTotals(lines).itemCount === expected && lines.length === (adds.length ? 1 : 0)
    }),
  )
})

describe('lineId', () => {
  test('two scents never share a row key or an input id, whatever their punctuation', () => {
    const ids = ['Rose & Oud', 'Rose + Oud', 'Rose_Oud', 'Rose-Oud', 'Rose Oud', undefined].map((variant) =>
      lineId({ product: oil, quantity: 1, ...(variant === undefined ? {} : { selectedVariant: variant }) }),
    )
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]+$/)
  })
})
