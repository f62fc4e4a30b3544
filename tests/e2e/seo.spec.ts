// What crawlers and link previews fetch from the running shop: robots.txt, the sitemap, the social cards
// and the logo, each with its type, and a product page's head in a real browser. The built files
// themselves are checked in tests/build/site.test.ts.
import { expect, test } from './support/fixtures'

test.describe('for search engines and link previews', () => {
  // One browser size is enough: nothing here depends on the viewport.
  test.skip(({ isMobile }) => isMobile, 'the same answers at every width')

  test('robots.txt, as text, names the sitemap; the sitemap is XML and lists the shop', async ({
    request,
  }) => {
    const robots = await request.get('/robots.txt')
    expect(robots.status()).toBe(200)
    expect(robots.headers()['content-type']).toBe('text/plain; charset=utf-8')
    const text = await robots.text()
    expect(text).toContain('Disallow: /api/')
    expect(text).toContain('Disallow: /checkout$')
    const sitemapUrl = /^Sitemap: (\S+)$/m.exec(text)?.[1] ?? ''
    const index = await request.get(new URL(sitemapUrl).pathname)
    expect(index.status()).toBe(200)
    expect(index.headers()['content-type']).toBe('application/xml; charset=utf-8')
    const first = /<loc>([^<]+)<\/loc>/.exec(await index.text())?.[1] ?? ''
    const sitemap = await (await request.get(new URL(first).pathname)).text()
    expect(sitemap).toContain('/products/whisker-oil</loc>')
    expect(sitemap).not.toContain('/cart</loc>')
  })

  test('a product page names its card, price and structured data; the card is a 1200 × 630 PNG', async ({
    page,
    request,
  }) => {
    await page.addInitScript(() => {
      const violations: string[] = []
      ;(window as unknown as { cspViolations: string[] }).cspViolations = violations
      document.addEventListener('securitypolicyviolation', (event) =>
        violations.push(event.violatedDirective),
      )
    })
    await page.goto('/products/repair')
    const head = page.locator('head')
    await expect(head.locator('meta[property="og:type"]')).toHaveAttribute('content', 'product')
    await expect(head.locator('meta[property="product:price:amount"]')).toHaveAttribute('content', '13.00')
    await expect(head.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image')
    await expect(head.locator('meta[name="robots"]')).toHaveCount(0)
    const image = (await head.locator('meta[property="og:image"]').getAttribute('content')) ?? ''
    const card = await request.get(new URL(image).pathname)
    expect(card.status()).toBe(200)
    expect(card.headers()['content-type']).toBe('image/png')
    const bytes = await card.body()
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1200, 630])

    const data = await page
      .locator('script[type="application/ld+json"]')
      .evaluateAll((scripts) => scripts.map((script) => JSON.parse(script.textContent ?? 'null')))
    expect(data.map((node) => node['@type'])).toEqual(['Product', 'BreadcrumbList'])
    expect(data[0].offers).toMatchObject({ price: '13.00', priceCurrency: 'USD' })
    // Data blocks are not scripts the page runs: the Content-Security-Policy has nothing to refuse.
    expect(
      await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
    ).toEqual([])
  })

  test('the logo search engines show is a PNG', async ({ request }) => {
    const logo = await request.get('/logo.png')
    expect(logo.status()).toBe(200)
    expect(logo.headers()['content-type']).toBe('image/png')
  })

  test('private pages ask not to be indexed and carry no card', async ({ page }) => {
    await page.goto('/cart')
    await expect(page.locator('head meta[name="robots"]')).toHaveAttribute('content', 'noindex')
    await expect(page.locator('head meta[property="og:image"]')).toHaveCount(0)
  })
})
