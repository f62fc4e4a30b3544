// Cancels and refunds with restock put units back through the stock module's statements, in their own
// transaction: counted products and variants only.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { runTogether } from '../../../api/lib/statements'
import { createTestApp, type TestApp } from '../support/test-app'
import { onHand } from './helpers'

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp()
})
afterAll(() => shop.close())

describe('restockStatements', () => {
  test('adds units back to counted stock, on the line’s variant, and leaves uncounted products alone', async () => {
    const { stock } = shop.services
    await stock.setLevels(4, { stock: 3 })
    await stock.setLevels(1, { variants: { 'Hammered Citrus': 0, 'Cedar Shop': 1 } })

    const statements = await stock.restockStatements([
      { productId: 4, variant: null, quantity: 2 },
      // No variant: the product's first, as the product page preselects it and as it was sold.
      { productId: 1, variant: null, quantity: 1 },
      { productId: 1, variant: 'Cedar Shop', quantity: 2 },
      { productId: 1, variant: 'Cedar Shop', quantity: 1 },
      // Not counted: nothing to put back.
      { productId: 2, variant: 'Barrel & Timber', quantity: 4 },
      { productId: 3, variant: null, quantity: 1 },
      // A scent the product no longer has, and a product no longer sold: nothing counts them.
      { productId: 1, variant: 'Retired Scent', quantity: 5 },
      { productId: 99, variant: null, quantity: 5 },
    ])
    await runTogether(shop.deps.db, statements)

    expect(await onHand(shop, 4, '')).toBe(5)
    expect(await onHand(shop, 1, 'Hammered Citrus')).toBe(1)
    expect(await onHand(shop, 1, 'Cedar Shop')).toBe(4)
    expect(await onHand(shop, 1, 'Unscented')).toBeUndefined()
    expect(await onHand(shop, 2, 'Barrel & Timber')).toBeUndefined()
    expect(await onHand(shop, 3, '')).toBeUndefined()
  })
})
