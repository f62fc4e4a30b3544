import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import {
  CatalogContentError,
  loadCatalogFromContent,
  PRODUCT_CONTENT_DIR,
} from '../../../api/modules/catalog/content'
import { createCatalogService, syncCatalog } from '../../../api/modules/catalog/service'
import { products } from '../../../db/schema'
import { createTestApp, type TestApp } from '../support/test-app'

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp()
})
afterAll(() => shop.close())

describe('catalogue content', () => {
  test('loads the five products in cents and tenths of an ounce', () => {
    const catalog = loadCatalogFromContent(PRODUCT_CONTENT_DIR)
    expect(
      catalog.map((p) => [p.id, p.slug, p.name, p.category, p.priceCents, p.weightTenthsOz, p.rating]),
    ).toEqual([
      [1, 'whisker-oil', 'Hammered Citrus', 'whisker-oil', 2100, 30, 4.8],
      [2, 'whisker-tamer', 'Barrel & Timber', 'whisker-tamer', 1800, 28, 4.7],
      [3, 'whisker-wash', 'Alpine Wash', 'whisker-wash', 1800, 50, 4.6],
      [4, 'repair', 'Workforce Repair Original Grit', 'workforce-repair', 1300, 26, 4.9],
      [5, 'accessories', 'The Brush & Comb Duo', 'accessories', 1900, 55, 4.5],
    ])
    for (const product of catalog) expect(product.description.length).toBeGreaterThan(20)
  })

  describe('a bad product file names the file and the field', () => {
    const good = readFileSync(join(PRODUCT_CONTENT_DIR, 'whisker-oil.mdx'), 'utf8')
    const dirs: string[] = []
    afterAll(() => {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    })
    const loadWith = (text: string, extra: Record<string, string> = {}) => {
      const dir = mkdtempSync(join(tmpdir(), 'catalog-'))
      dirs.push(dir)
      writeFileSync(join(dir, 'whisker-oil.mdx'), text)
      for (const [name, body] of Object.entries(extra)) writeFileSync(join(dir, name), body)
      return () => loadCatalogFromContent(dir)
    }
    const line = (field: string, value: string) =>
      good.replace(new RegExp(`^${field}: .*$`, 'm'), `${field}: ${value}`)

    test.each([
      ['price', "'21'", /whisker-oil\.mdx: price must look like 21\.00 \(got "21"\)/],
      ['price', "'-3.00'", /whisker-oil\.mdx: price must look like 21\.00/],
      ['price', '21.00', /whisker-oil\.mdx: price must be quoted text \(got 21\)/],
      ['weight', "'heavy'", /whisker-oil\.mdx: weight must be ounces like 2\.0 \(got "heavy"\)/],
      ['weight', "'0.0'", /whisker-oil\.mdx: weight must be ounces/],
      ['category', 'hats', /whisker-oil\.mdx: category "hats" is not a known category/],
      ['id', "'one'", /whisker-oil\.mdx: id must be a positive whole number/],
      ['slug', 'Whisker Oil', /whisker-oil\.mdx: slug may only hold lower-case letters/],
      ['rating', '7', /whisker-oil\.mdx: rating must be a number from 0 to 5/],
      ['name', "'  '", /whisker-oil\.mdx: name must not be blank/],
    ])('%s: %s', (field, value, message) => {
      const load = loadWith(line(field, value))
      expect(load).toThrow(CatalogContentError)
      expect(load).toThrow(message)
    })

    test('a missing field, a missing frontmatter block and a duplicate id', () => {
      expect(loadWith(good.replace(/^description: [\s\S]*?(?=^\w+:)/m, ''))).toThrow(
        /whisker-oil\.mdx: description is missing/,
      )
      expect(loadWith('# Hammered Citrus\n')).toThrow(/whisker-oil\.mdx: no frontmatter block/)
      expect(loadWith(good, { 'copy.mdx': good })).toThrow(/two products share the id "1"/)
      expect(loadWith(good, { 'copy.mdx': line('id', '9') })).toThrow(
        /two products share the slug "whisker-oil"/,
      )
    })

    test("a weight left out is the spec's default of 2.0 oz", () => {
      expect(loadWith(good.replace(/^weight: .*\n/m, ''))()[0]?.weightTenthsOz).toBe(20)
    })
  })
})

describe('catalogue sync', () => {
  const rows = () => shop.deps.db.select().from(products).orderBy(products.id)

  test('is idempotent: running it again changes nothing', async () => {
    const before = await rows()
    expect(before).toHaveLength(5)
    await syncCatalog(shop.deps.db, loadCatalogFromContent(PRODUCT_CONTENT_DIR), new Date(0))
    await syncCatalog(shop.deps.db, loadCatalogFromContent(PRODUCT_CONTENT_DIR), new Date(0))
    const after = await rows()
    expect(after.map(({ updatedAt, ...row }) => row)).toEqual(before.map(({ updatedAt, ...row }) => row))
  })

  test('content changes reach the rows, but a weight staff changed is kept', async () => {
    const catalog = loadCatalogFromContent(PRODUCT_CONTENT_DIR)
    await shop.deps.db
      .update(products)
      .set({ weightTenthsOz: 99, weightOverridden: true })
      .where(eq(products.id, 2))
    const edited = catalog.map((p) => (p.id <= 2 ? { ...p, priceCents: 2300, weightTenthsOz: 41 } : p))
    await syncCatalog(shop.deps.db, edited, new Date())
    const service = createCatalogService(shop.deps.db)
    expect(await service.byId(1)).toMatchObject({ priceCents: 2300, weightTenthsOz: 41 })
    expect(await service.byId(2)).toMatchObject({ priceCents: 2300, weightTenthsOz: 99 })
    await syncCatalog(shop.deps.db, catalog, new Date())
    await service.reload()
    expect(await service.byId(1)).toMatchObject({ priceCents: 2100, weightTenthsOz: 30 })
    expect((await service.byId(2))?.weightTenthsOz).toBe(99)
    await shop.deps.db
      .update(products)
      .set({ weightTenthsOz: 28, weightOverridden: false })
      .where(eq(products.id, 2))
  })
})

describe('catalogue service', () => {
  test('list, byId and bySlug answer CatalogProduct in cents and tenths of an ounce', async () => {
    const service = createCatalogService(shop.deps.db)
    const list = await service.list()
    expect(list.map((p) => p.id)).toEqual([1, 2, 3, 4, 5])
    expect(await service.byId(4)).toEqual({
      id: 4,
      slug: 'repair',
      name: 'Workforce Repair Original Grit',
      category: 'workforce-repair',
      description: expect.stringContaining('hand balm'),
      priceCents: 1300,
      rating: 4.9,
      weightTenthsOz: 26,
    })
    expect((await service.bySlug('accessories'))?.id).toBe(5)
    expect(await service.byId(42)).toBeNull()
    expect(await service.byId(1.5)).toBeNull()
    expect(await service.byId(Number.NaN)).toBeNull()
    expect(await service.bySlug('Whisker-Oil')).toBeNull()
  })
})

describe('catalogue routes', () => {
  test('GET /api/catalog lists products with prices and weights as the site shows them', async () => {
    const res = await shop.call('GET', '/api/catalog')
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('public, max-age=60')
    const body = await res.json()
    expect(
      body.products.map((p: { id: number; price: string; weight: string; rating: number }) => [
        p.id,
        p.price,
        p.weight,
        p.rating,
      ]),
    ).toEqual([
      [1, '21.00', '3.0', 4.8],
      [2, '18.00', '2.8', 4.7],
      [3, '18.00', '5.0', 4.6],
      [4, '13.00', '2.6', 4.9],
      [5, '19.00', '5.5', 4.5],
    ])
    expect(body.products[0]).toMatchObject({
      slug: 'whisker-oil',
      name: 'Hammered Citrus',
      category: 'whisker-oil',
    })
  })

  test('the answer is kept ready: an ETag with 304 on a repeat, compressed when asked, rebuilt on reload', async () => {
    const first = await shop.call('GET', '/api/catalog', undefined, { 'accept-encoding': 'br, gzip' })
    expect(first.headers.get('content-encoding')).toBe('br')
    const etag = first.headers.get('etag')
    expect(etag).toMatch(/^"[\w-]{20}"$/)
    const again = await shop.call('GET', '/api/catalog', undefined, { 'if-none-match': etag ?? '' })
    expect(again.status).toBe(304)
    // A weight change (staff) reaches the answer once the catalogue is reloaded, with a new ETag.
    await shop.deps.db.update(products).set({ weightTenthsOz: 31 }).where(eq(products.id, 1))
    await shop.services.catalog.reload()
    const changed = await shop.call('GET', '/api/catalog', undefined, { 'if-none-match': etag ?? '' })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
    expect((await changed.json()).products[0].weight).toBe('3.1')
    await shop.deps.db.update(products).set({ weightTenthsOz: 30 }).where(eq(products.id, 1))
    await shop.services.catalog.reload()
  })

  test.each([
    ['1', '/products/whisker-oil'],
    ['4', '/products/repair'],
    ['5', '/products/accessories'],
  ])('/product/%s redirects permanently to %s', async (id, location) => {
    const res = await shop.call('GET', `/product/${id}`)
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe(location)
  })

  test.each(['99', 'abc', '1.5', '-1', '0', '99999999999999999999'])(
    '/product/%s is the not-found page with 404',
    async (id) => {
      const res = await shop.call('GET', `/product/${id}`)
      expect(res.status).toBe(404)
      expect(res.headers.get('content-type')).toContain('text/html')
      expect(await res.text()).toContain('Product not found')
    },
  )
})
