import { describe, expect, test } from 'bun:test'
import {
  canonicalUrl,
  cardPath,
  isIndexable,
  PRIVATE_PAGES,
  pagePath,
  robotsTxt,
} from '../../../core/rules/indexing'

/**
 * robots.txt as Google reads it (RFC 9309 with its extensions): the longest matching rule wins, '*' is
 * any run of characters and '$' the end of the URL; no rule means allowed.
 */
function allowedByRobots(robots: string, url: string): boolean {
  const target = new URL(url, 'https://shop.example')
  const path = target.pathname + target.search
  let best: { length: number; allow: boolean } | null = null
  for (const line of robots.split('\n')) {
    const match = /^(Allow|Disallow):\s*(.*)$/i.exec(line.trim())
    if (!match?.[2]) continue
    const pattern = match[2]
    const regex = new RegExp(
      `^${pattern
        .replace(/[.+?^{}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\\?\$$/, '$')}`,
    )
    if (regex.test(path) && (!best || pattern.length > best.length)) {
      best = { length: pattern.length, allow: match[1]?.toLowerCase() === 'allow' }
    }
  }
  return best?.allow ?? true
}

describe('which pages search engines may index', () => {
  test.each([
    '/',
    '/shop',
    '/products/whisker-oil',
    '/about',
    '/shipping-policy',
    '/success-stories',
    '/accounting-tips',
    '/x-treme',
  ])('%s is indexed', (path) => {
    expect(isIndexable(path)).toBe(true)
  })

  test.each([...PRIVATE_PAGES, '/account/orders', '/newsletter/subscribed', '/404', '/products/404'])(
    '%s is not',
    (path) => {
      expect(isIndexable(path)).toBe(false)
    },
  )

  test('paths are read as the build and the sitemap write them', () => {
    expect(pagePath('/about/')).toBe('/about')
    expect(pagePath('/about/index.html')).toBe('/about')
    expect(pagePath('/index.html')).toBe('/')
    expect(pagePath('https://shop.example/products/repair/')).toBe('/products/repair')
    expect(isIndexable('https://shop.example/cart/')).toBe(false)
    expect(canonicalUrl('https://shop.example', 'https://shop.example/about/')).toBe(
      'https://shop.example/about',
    )
    expect(canonicalUrl('https://shop.example', '/')).toBe('https://shop.example/')
  })

  test('each indexable page has its social card at /og/…png', () => {
    expect(cardPath('/')).toBe('/og/index.png')
    expect(cardPath('/products/whisker-oil')).toBe('/og/products/whisker-oil.png')
  })
})

describe('robots.txt', () => {
  const robots = robotsTxt('https://gritandwhisker.example')

  test('names the sitemap on the same origin', () => {
    expect(robots).toContain('\nSitemap: https://gritandwhisker.example/sitemap-index.xml\n')
    expect(robots.startsWith('User-agent: *\n')).toBe(true)
  })

  test.each([
    '/api/catalog',
    '/auth/google',
    '/cart',
    '/checkout?guest=true',
    '/login?checkout=true',
    '/shipping',
    '/account',
    '/account/orders?number=000042',
    '/profile',
    '/dashboard',
    '/reset-password?token=abc',
    '/newsletter/subscribed',
  ])('keeps robots out of %s', (path) => {
    expect(allowedByRobots(robots, path)).toBe(false)
  })

  test.each([
    '/',
    '/shop',
    '/shop?category=whisker-oil',
    '/shipping-policy',
    '/success-stories',
    '/products/whisker-oil',
    '/sitemap-index.xml',
    '/og/index.png',
  ])('lets robots read %s', (path) => {
    expect(allowedByRobots(robots, path)).toBe(true)
  })

  test('every rule is one Lighthouse and Google accept: a path from /, $ only at the end', () => {
    for (const line of robots.split('\n').filter((text) => /^(Allow|Disallow):/.test(text))) {
      const pattern = line.split(': ')[1] ?? ''
      expect(pattern.startsWith('/')).toBe(true)
      expect(pattern.slice(0, -1)).not.toContain('$')
    }
  })
})
