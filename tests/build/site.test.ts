// The built site (dist/, after `npm run build`) as search engines and social networks read it: every
// indexable page in the sitemap and nothing else, robots.txt naming that sitemap on the same origin, a
// 1200 × 630 PNG card per indexable page, and JSON-LD with the properties each type requires.
import { describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { NEWSLETTER_OUTCOMES } from '@core/rules/newsletter'
import { REPO_ROOT, readProducts } from '../../content/read'
import { AFTER_PAINT_LIST_ID, AFTER_PAINT_LOADER } from '../../site/integrations/after-first-paint'

const DIST = join(REPO_ROOT, 'dist')
if (!existsSync(join(DIST, 'index.html'))) throw new Error('Build the site first: npm run build')

function htmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) return name === '_astro' ? [] : htmlFiles(full)
    return name.endsWith('.html') ? [full] : []
  })
}

interface Page {
  /** '/', '/about', '/products/repair', '/404' */
  path: string
  html: string
  meta: (key: string) => string | undefined
  canonical: string | undefined
  noindex: boolean
  jsonLd: Record<string, unknown>[]
}

const attribute = (tag: string, name: string) =>
  new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1]?.replaceAll('&amp;', '&')

function readPage(file: string): Page {
  const html = readFileSync(file, 'utf8')
  const head = html.slice(0, html.indexOf('</head>'))
  const metas = [...head.matchAll(/<meta\b[^>]*>/g)].map((match) => match[0])
  const path = `/${relative(DIST, file)}`.replace(/\/index\.html$/, '').replace(/\.html$/, '') || '/'
  return {
    path,
    html,
    meta: (key) => {
      const tag = metas.find((each) => attribute(each, 'property') === key || attribute(each, 'name') === key)
      return tag ? attribute(tag, 'content') : undefined
    },
    canonical: attribute(/<link rel="canonical"[^>]*>/.exec(head)?.[0] ?? '', 'href'),
    noindex: /<meta name="robots" content="noindex"/.test(head),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
      (match) => JSON.parse(match[1] ?? 'null') as Record<string, unknown>,
    ),
  }
}

const pages = htmlFiles(DIST).map(readPage)
const indexable = pages.filter((page) => !page.noindex)
const robots = readFileSync(join(DIST, 'robots.txt'), 'utf8')
const sitemapIndex = /Sitemap: (\S+)/.exec(robots)?.[1] ?? ''
const origin = new URL(sitemapIndex).origin
const products = readProducts(join(REPO_ROOT, 'content/products')).entries.filter((entry) => !entry.draft)

/** A built file for a URL on the site's origin. */
function builtFile(url: string): string {
  expect(new URL(url).origin).toBe(origin)
  return join(DIST, decodeURIComponent(new URL(url).pathname))
}

/** Width, height and colour type from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a')
  expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR')
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

describe('robots.txt and the sitemap', () => {
  test('robots.txt names the sitemap on the origin every canonical link is on', () => {
    expect(new URL(sitemapIndex).pathname).toBe('/sitemap-index.xml')
    for (const page of pages) expect(new URL(page.canonical ?? '').origin).toBe(origin)
  })

  test('the sitemap lists exactly the indexable pages, at their canonical addresses', () => {
    const index = readFileSync(builtFile(sitemapIndex), 'utf8')
    const sitemaps = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1] ?? '')
    expect(sitemaps.length).toBeGreaterThan(0)
    const listed = sitemaps.flatMap((sitemap) =>
      [...readFileSync(builtFile(sitemap), 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]),
    )
    expect(listed.sort()).toEqual(indexable.map((page) => page.canonical).sort())
  })

  test('only the private, result and 404 pages are kept out', () => {
    const kept = pages
      .filter((page) => page.noindex)
      .map((page) => page.path)
      .sort()
    expect(kept).toEqual(
      [
        '/404',
        '/account',
        '/account-deleted',
        '/account/orders',
        '/cart',
        '/checkout',
        '/dashboard',
        '/forgot-password',
        '/google-sign-in',
        '/login',
        ...NEWSLETTER_OUTCOMES.map((outcome) => `/newsletter/${outcome}`),
        '/products/404',
        '/profile',
        '/reset-password',
        '/shipping',
        '/signup',
        '/success',
        '/verify-email',
        // Built for a shop without Google sign-in and served in place of the usual pages, never here.
        '/without-google/google-sign-in',
        '/without-google/login',
        '/without-google/signup',
      ].sort(),
    )
    expect(indexable.map((page) => page.path)).toEqual(
      expect.arrayContaining(['/', '/shop', '/about', '/ingredients', '/shipping-policy', '/x-treme']),
    )
    expect(indexable.filter((page) => page.path.startsWith('/products/'))).toHaveLength(products.length)
  })
})

describe('social cards', () => {
  test.each(indexable.map((page) => [page.path, page] as const))(
    '%s: a 1200 × 630 PNG of its own for og:image and twitter:image',
    (_path, page) => {
      const image = page.meta('og:image') ?? ''
      expect(image).toMatch(/\/og\/.+\.png$/)
      expect(page.meta('twitter:image')).toBe(image)
      expect(page.meta('twitter:card')).toBe('summary_large_image')
      expect(page.meta('og:image:type')).toBe('image/png')
      expect(page.meta('og:url')).toBe(page.canonical)
      expect(pngSize(readFileSync(builtFile(image)))).toEqual({ width: 1200, height: 630 })
    },
  )

  test('every card is its own page’s', () => {
    const images = indexable.map((page) => page.meta('og:image'))
    expect(new Set(images).size).toBe(images.length)
  })

  test('pages kept out of search carry no card', () => {
    for (const page of pages.filter((each) => each.noindex)) expect(page.meta('og:image')).toBeUndefined()
  })

  test.each(products.map((entry) => [entry.data.slug, entry.data.price] as const))(
    '/products/%s says it is a product, with its price',
    (slug, price) => {
      const page = pages.find((each) => each.path === `/products/${slug}`)
      expect(page?.meta('og:type')).toBe('product')
      expect(page?.meta('product:price:amount')).toBe(price)
      expect(page?.meta('product:price:currency')).toBe('USD')
    },
  )
})

/** The properties search engines require of each type, checked on every page that has one. */
const REQUIRED: Record<string, (node: Record<string, unknown>, page: Page) => void> = {
  Organization(node) {
    expect(node).toMatchObject({ name: 'Grit & Whisker', url: `${origin}/` })
    expect(pngSize(readFileSync(builtFile(String(node.logo))))).toEqual({ width: 512, height: 512 })
  },
  WebSite(node) {
    expect(node).toMatchObject({ name: 'Grit & Whisker', url: `${origin}/` })
  },
  Product(node, page) {
    const product = products.find((entry) => `/products/${entry.data.slug}` === page.path)?.data
    expect(product).toBeDefined()
    expect(node).toMatchObject({
      name: product?.name,
      description: product?.description,
      sku: String(product?.id),
      brand: { '@type': 'Brand', name: 'Grit & Whisker' },
    })
    const images = node.image as string[]
    expect(images.length).toBeGreaterThan(0)
    for (const image of images) expect(existsSync(builtFile(image))).toBe(true)
    const offer = node.offers as Record<string, unknown>
    expect(offer).toMatchObject({
      '@type': 'Offer',
      price: product?.price,
      priceCurrency: 'USD',
      url: page.canonical,
    })
    // Stock is not tracked yet: nothing is claimed (site/lib/structured-data.ts).
    expect(offer).not.toHaveProperty('availability')
  },
  BreadcrumbList(node, page) {
    const items = node.itemListElement as Record<string, unknown>[]
    expect(items.map((item) => item.position)).toEqual(items.map((_, index) => index + 1))
    for (const item of items.slice(0, -1)) expect(new URL(String(item.item)).origin).toBe(origin)
    expect(items.at(-1)).not.toHaveProperty('item')
    expect(items.every((item) => typeof item.name === 'string' && item.name !== '')).toBe(true)
    expect(items.at(-1)?.name).toBe(
      products.find((entry) => `/products/${entry.data.slug}` === page.path)?.data.name,
    )
  },
}

describe('structured data', () => {
  test.each(pages.filter((page) => page.jsonLd.length > 0).map((page) => [page.path, page] as const))(
    '%s: each JSON-LD node has what its type requires, and no rating',
    (_path, page) => {
      for (const node of page.jsonLd) {
        expect(node['@context']).toBe('https://schema.org')
        const check = REQUIRED[String(node['@type'])]
        expect(check).toBeDefined()
        check?.(node, page)
        expect(JSON.stringify(node)).not.toMatch(/aggregateRating|"review"/)
      }
    },
  )

  test('the home page says who the shop is; each product page what it sells and where it sits', () => {
    const types = (path: string) =>
      pages.find((page) => page.path === path)?.jsonLd.map((node) => node['@type'])
    expect(types('/')).toEqual(['Organization', 'WebSite'])
    for (const entry of products)
      expect(types(`/products/${entry.data.slug}`)).toEqual(['Product', 'BreadcrumbList'])
  })
})

// What a phone can paint from the HTML alone (docs/architecture.md#performance-budgets): the site's styles
// are in each page, not a stylesheet to fetch first, and the picture at the top of a page is drawn in it.
describe('the first paint needs only the HTML', () => {
  const sha256 = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('base64')

  test('no page waits for a stylesheet, and each page’s CSP allows its own styles by hash', () => {
    for (const page of pages) {
      expect({ page: page.path, links: page.html.match(/<link[^>]*rel="stylesheet"[^>]*>/g) }).toEqual({
        page: page.path,
        links: null,
      })
      const csp = /<meta http-equiv="content-security-policy" content="([^"]*)"/.exec(page.html)?.[1] ?? ''
      expect(csp).not.toContain("'unsafe-inline'")
      for (const style of page.html.matchAll(/<style>([\s\S]*?)<\/style>/g)) {
        expect({ page: page.path, allowed: csp.includes(`'sha256-${sha256(style[1] ?? '')}'`) }).toEqual({
          page: page.path,
          allowed: true,
        })
      }
    }
  })

  // docs/decisions/030-nothing-fetched-before-first-paint.md
  test('no page has a module script the browser would fetch while parsing it; the loader imports them after', () => {
    let moved = 0
    for (const page of pages) {
      expect({ page: page.path, tags: page.html.match(/<script\b[^>]*\bsrc=[^>]*>/g) }).toEqual({
        page: page.path,
        tags: null,
      })
      const list = new RegExp(
        `<script type="application/json" id="${AFTER_PAINT_LIST_ID}">([^<]*)</script>`,
      ).exec(page.html)
      if (!list) continue
      moved += 1
      const sources = JSON.parse(list[1] ?? '[]') as string[]
      expect(sources.length).toBeGreaterThan(0)
      for (const src of sources) expect(existsSync(join(DIST, src))).toBe(true)
      expect(page.html).toContain(`<script>${AFTER_PAINT_LOADER}</script>`)
    }
    // Every page has the footer form's script at least.
    expect(moved).toBe(pages.length)
  })

  test('every inline script of every page is allowed by a hash in its CSP', () => {
    for (const page of pages) {
      const csp = /<meta http-equiv="content-security-policy" content="([^"]*)"/.exec(page.html)?.[1] ?? ''
      const scriptSrc = csp.slice(csp.indexOf('script-src'))
      for (const script of page.html.matchAll(/<script(?: type="module")?>([\s\S]*?)<\/script>/g)) {
        expect({
          page: page.path,
          allowed: scriptSrc.includes(`'sha256-${sha256(script[1] ?? '')}'`),
        }).toEqual({
          page: page.path,
          allowed: true,
        })
      }
    }
  })

  test('no island of an indexable page loads before the first paint', () => {
    for (const page of indexable) {
      const eager = [...page.html.matchAll(/<astro-island\b[^>]*\bclient="(load|idle)"[^>]*>/g)].map(
        (match) => /component-export="[^"]*"|opts="[^"]*"/.exec(match[0])?.[0],
      )
      expect({ page: page.path, eager }).toEqual({ page: page.path, eager: [] })
    }
  })

  test('the top picture of the home, content, teaser and product pages is inline SVG named by its alt text', () => {
    for (const path of [
      '/',
      '/about',
      '/ingredients',
      '/heal-her',
      ...products.map((p) => `/products/${p.data.slug}`),
    ]) {
      const page = pages.find((each) => each.path === path)
      expect(page).toBeDefined()
      const main = page?.html.slice(page.html.indexOf('<main')) ?? ''
      const firstPicture = /<(svg|img)\b[^>]*>/.exec(
        main.replace(/<svg\b[^>]*aria-hidden="true"[\s\S]*?<\/svg>/g, ''),
      )
      expect({ path, tag: firstPicture?.[1] }).toEqual({ path, tag: 'svg' })
      expect(firstPicture?.[0]).toMatch(/role="img" aria-label="[^"]+"/)
    }
  })

  test('ids inside inline pictures are unique on every page', () => {
    for (const page of pages) {
      const ids = [...page.html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1])
      expect({ page: page.path, repeated: ids.filter((id, index) => ids.indexOf(id) !== index) }).toEqual({
        page: page.path,
        repeated: [],
      })
    }
  })
})
