import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import {
  CatalogContentError,
  loadCatalogFromContent,
  PRODUCT_CONTENT_DIR,
} from '../../../api/modules/catalog/content'
import { createCatalogService, syncCatalog } from '../../../api/modules/catalog/service'
import { checkContent } from '../../../content/check'
import { formatProblems } from '../../../content/read'
import { products } from '../../../db/schema'
import { contentFileForElsewhere } from '../support/content-files'
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

  describe('a product file is read as the build reads it', () => {
    const good = contentFileForElsewhere(join(PRODUCT_CONTENT_DIR, 'whisker-oil.mdx'))
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
    const lineNumber = (field: string) =>
      good.split('\n').findIndex((text) => text.startsWith(`${field}:`)) + 1

    test.each([
      ['price', "'21.999'", 'price: write it in dollars and cents, like 19.00 (got "21.999")'],
      ['price', "'-3.00'", 'price: write it in dollars and cents, like 19.00 (got "-3.00")'],
      ['price', "'0'", 'price: must be more than 0.00'],
      ['weight', "'heavy'", 'weight: write ounces with one decimal, like 2.5 (got "heavy")'],
      ['weight', '2.25', 'weight: write ounces with one decimal, like 2.5 (got 2.25)'],
      ['weight', "'0.0'", 'weight: must be more than 0.0 ounces'],
      [
        'category',
        'hats',
        'category: "hats" is not a category: use one of whisker-oil, whisker-tamer, whisker-wash, accessories, workforce-repair',
      ],
      ['id', "'one'", 'id: must be a whole number above 0, like 6 (got "one")'],
      [
        'slug',
        'Whisker Oil',
        "slug: is part of the page's address, so it may only hold lower-case letters, digits and dashes: write it as whisker-oil",
      ],
      ['rating', '7', 'rating: must be a number from 0 to 5, like 4.5'],
      ['name', "'  '", 'name: is empty: write it after the colon'],
      ['draft', 'maybe', 'draft: must be true or false (got "maybe")'],
    ])('%s: %s is refused, naming the file, the line, the field and the fix', (field, value, message) => {
      const load = loadWith(
        good.includes(`\n${field}:`)
          ? line(field, value)
          : good.replace('\nname:', `\n${field}: ${value}\nname:`),
      )
      expect(load).toThrow(CatalogContentError)
      const at = good.includes(`\n${field}:`) ? lineNumber(field) : lineNumber('name')
      expect(load).toThrow(`whisker-oil.mdx, line ${at}: ${message}`)
    })

    test.each([
      ["'21'", 2100],
      ['21', 2100],
      ['21.00', 2100],
      ['21.5', 2150],
      ["'$21'", 2100],
    ])('a price written %s has one reading: %p cents', (value, cents) => {
      expect(loadWith(line('price', value))()[0]?.priceCents).toBe(cents)
    })

    test('a weight of 3 is 3.0 oz, a category in capitals is the category', () => {
      const [product] = loadWith(line('weight', '3').replace(/^category: .*$/m, 'category: Whisker-Oil'))()
      expect(product).toMatchObject({ weightTenthsOz: 30, category: 'whisker-oil' })
    })

    test('a misspelt field, a missing field, a missing frontmatter block and duplicates', () => {
      expect(loadWith(good.replace(/^price:/m, 'prize:'))).toThrow(
        `whisker-oil.mdx, line ${lineNumber('price')}: prize: is not a field this file can have (did you mean price?)`,
      )
      expect(loadWith(good.replace(/^description: [\s\S]*?(?=^\w+:)/m, ''))).toThrow(
        /whisker-oil\.mdx: description: is missing: add it between the --- lines at the top of the file/,
      )
      expect(loadWith('# Hammered Citrus\n')).toThrow(/whisker-oil\.mdx, line 1: no frontmatter/)
      expect(loadWith(good, { 'wood-oil.mdx': line('slug', 'wood-oil') })).toThrow(
        /wood-oil\.mdx: id: .*whisker-oil\.mdx already has id 1: give this product a number no other product has, like 2/,
      )
      expect(loadWith(good, { 'wood-oil.mdx': line('id', '9') })).toThrow(
        /wood-oil\.mdx: slug: .*whisker-oil\.mdx already has slug whisker-oil: give this product a slug of its own/,
      )
    })

    test('a colon inside text is explained, with its line', () => {
      expect(loadWith(line('name', 'Hammered Citrus: the original'))).toThrow(
        `whisker-oil.mdx, line ${lineNumber('name')}: this text holds a colon followed by a space, which YAML reads as a new field: put the whole text in double quotes`,
      )
    })

    test('a weight left out is the default of 2.0 oz', () => {
      expect(loadWith(good.replace(/^weight: .*\n/m, ''))()[0]?.weightTenthsOz).toBe(20)
    })

    test('a draft is checked but not sold', () => {
      const draft = line('id', '9')
        .replace(/^slug: .*$/m, 'slug: new-oil')
        .replace('\nname:', '\ndraft: true\nname:')
      expect(loadWith(good, { 'new-oil.mdx': draft })().map((product) => product.id)).toEqual([1])
      expect(loadWith(good, { 'new-oil.mdx': draft.replace(/^price: .*$/m, 'price: free') })).toThrow(
        /new-oil\.mdx, line \d+: price: write it in dollars and cents/,
      )
    })

    test('the API refuses a broken file with the message npm run check:content gives', () => {
      const root = mkdtempSync(join(tmpdir(), 'content-root-'))
      dirs.push(root)
      const products = join(root, 'content', 'products')
      mkdirSync(products, { recursive: true })
      writeFileSync(join(products, 'whisker-oil.mdx'), line('price', 'twenty'))
      const report = checkContent(root)
      expect(report.problems).toHaveLength(1)
      // The check names files from the checkout it checks; the server from the shop's own folder, which this
      // temporary one is outside of: the same line, field and fix after the file's path.
      const message = formatProblems(report.problems)
      expect(message).toStartWith('content/products/whisker-oil.mdx, line 6: price:')
      expect(() => loadCatalogFromContent(products)).toThrow(new CatalogContentError(`${root}/${message}`))
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

  test('a product taken out of the content (a draft, a file removed) is no longer sold; back, it is again', async () => {
    const catalog = loadCatalogFromContent(PRODUCT_CONTENT_DIR)
    const service = shop.services.catalog
    await shop.deps.db
      .update(products)
      .set({ weightTenthsOz: 61, weightOverridden: true })
      .where(eq(products.id, 5))
    try {
      await syncCatalog(
        shop.deps.db,
        catalog.filter((product) => product.id !== 5),
        new Date(),
      )
      await service.reload()
      expect((await service.list()).map((product) => product.id)).toEqual([1, 2, 3, 4])
      expect(await service.byId(5)).toBeNull()
      expect(await service.bySlug('accessories')).toBeNull()
      const catalogAnswer = await (await shop.call('GET', '/api/catalog')).json()
      expect(catalogAnswer.products.map((product: { id: number }) => product.id)).toEqual([1, 2, 3, 4])
      const rates = await shop.call('POST', '/api/shipping/rates', {
        address: {
          name: 'Dana Cole',
          street1: '12 Mill Rd',
          city: 'Dayton',
          state: 'OH',
          zip: '45402',
          country: 'US',
        },
        items: [{ id: 5, quantity: 1 }],
      })
      expect(rates.status).toBe(422)

      await syncCatalog(shop.deps.db, catalog, new Date())
      await service.reload()
      // Back on sale with its id and the weight staff had set.
      expect(await service.byId(5)).toMatchObject({ slug: 'accessories', weightTenthsOz: 61 })
    } finally {
      await shop.deps.db
        .update(products)
        .set({ weightTenthsOz: 55, weightOverridden: false })
        .where(eq(products.id, 5))
      await service.reload()
    }
  })

  test('a new product may take the slug of one no longer in the content', async () => {
    const catalog = loadCatalogFromContent(PRODUCT_CONTENT_DIR)
    const service = shop.services.catalog
    try {
      const renumbered = catalog.map((product) => (product.id === 5 ? { ...product, id: 6 } : product))
      await syncCatalog(shop.deps.db, renumbered, new Date())
      await service.reload()
      expect((await service.bySlug('accessories'))?.id).toBe(6)
      expect(await service.byId(5)).toBeNull()
    } finally {
      await syncCatalog(shop.deps.db, catalog, new Date())
      await shop.deps.db.delete(products).where(eq(products.id, 6))
      await service.reload()
    }
    expect((await service.bySlug('accessories'))?.id).toBe(5)
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
      variants: [],
    })
    expect((await service.byId(1))?.variants).toEqual(['Hammered Citrus', 'Cedar Shop', 'Unscented'])
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
    expect(res.headers.get('cache-control')).toBe('public, max-age=5')
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
