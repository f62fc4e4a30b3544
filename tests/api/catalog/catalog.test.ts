import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { CatalogContentError, loadCatalogFromContent } from '../../../api/modules/catalog/content'
import { createCatalogService, syncCatalog } from '../../../api/modules/catalog/service'
import { products } from '../../../db/schema'
import { PRODUCT_CONTENT_DIR } from '../../../db/seed'
import { createTestApp, type TestApp } from '../support/test-app'

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp()
})
afterAll(() => shop.close())

describe('catalogue content', () => {
  test('loads the five products in cents and tenths of an ounce', () => {
    const catalog = loadCatalogFromContent(PRODUCT_CONTENT_DIR)
    expect(catalog.map((p) => [p.id, p.slug, p.name, p.category, p.priceCents])).toEqual([
      [1, 'whisker-oil', 'Hammered Citrus', 'whisker-oil', 2100],
      [2, 'whisker-tamer', 'Barrel & Timber', 'whisker-tamer', 1800],
      [3, 'whisker-wash', 'Alpine Wash', 'whisker-wash', 1800],
      [4, 'repair', 'Workforce Repair Original Grit', 'workforce-repair', 1300],
      [5, 'accessories', 'The Brush & Comb Duo', 'accessories', 1900],
    ])
    for (const product of catalog) {
      expect(Number.isInteger(product.weightTenthsOz)).toBe(true)
      expect(product.weightTenthsOz).toBeGreaterThan(0)
    }
  })

  test('a bad product file names the file and the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-'))
    const good = readFileSync(join(PRODUCT_CONTENT_DIR, 'whisker-oil.mdx'), 'utf8')
    writeFileSync(join(dir, 'whisker-oil.mdx'), good.replace(/^price: .*$/m, "price: '21'"))
    expect(() => loadCatalogFromContent(dir)).toThrow(CatalogContentError)
    expect(() => loadCatalogFromContent(dir)).toThrow(/whisker-oil\.mdx: price must look like 21\.00 \(got "21"\)/)
    writeFileSync(join(dir, 'whisker-oil.mdx'), good.replace(/^category: .*$/m, 'category: hats'))
    expect(() => loadCatalogFromContent(dir)).toThrow(/category "hats" is not a known category/)
    writeFileSync(join(dir, 'whisker-oil.mdx'), good)
    writeFileSync(join(dir, 'copy.mdx'), good)
    expect(() => loadCatalogFromContent(dir)).toThrow(/two products share the id "1"/)
  })
})

describe('catalogue sync', () => {
  test('is idempotent and keeps a weight staff changed', async () => {
    const catalog = loadCatalogFromContent(PRODUCT_CONTENT_DIR)
    await shop.deps.db.update(products).set({ weightTenthsOz: 99, weightOverridden: true }).where(eq(products.id, 2))
    await syncCatalog(shop.deps.db, catalog, new Date())
    await syncCatalog(shop.deps.db, catalog.map((p) => (p.id === 1 ? { ...p, priceCents: 2300 } : p)), new Date())
    const service = createCatalogService(shop.deps.db)
    expect((await service.list()).length).toBe(5)
    expect((await service.byId(2))?.weightTenthsOz).toBe(99)
    expect((await service.byId(1))?.priceCents).toBe(2300)
    expect((await service.bySlug('repair'))?.id).toBe(4)
    expect(await service.byId(42)).toBeNull()
    await syncCatalog(shop.deps.db, catalog, new Date())
  })
})

describe('catalogue routes', () => {
  test('GET /api/catalog lists products with prices as the site shows them', async () => {
    const res = await shop.call('GET', '/api/catalog')
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.products).toHaveLength(5)
    expect(body.products[0]).toMatchObject({ id: 1, slug: 'whisker-oil', price: '21.00', category: 'whisker-oil' })
    expect(body.products[0].weight).toMatch(/^\d+\.\d$/)
  })

  test('/product/{id} redirects to the product page', async () => {
    const res = await shop.call('GET', '/product/1')
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe('/products/whisker-oil')
  })

  test.each(['99', 'abc', '1.5', '-1', '99999999999999999999'])('/product/%s is the not-found page with 404', async (id) => {
    const res = await shop.call('GET', `/product/${id}`)
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('Product not found')
  })
})
