import { expect, test } from './support/fixtures'

/** Every content page: its heading and the facts docs/product.md names, clean under axe, at phone and desktop width. */
const pages: { path: string; heading: RegExp; texts: (string | RegExp)[]; links?: [string, string][] }[] = [
  {
    path: '/about',
    heading: /About Grit & Whisker/i,
    texts: ['Since 2018', 'Our Story', 'Our Mission'],
    links: [['Shop Our Products', '/shop']],
  },
  {
    path: '/ingredients',
    heading: /ingredients/i,
    texts: ['Whisker Oil', 'Whisker Tamer', 'Whisker Wash', 'Workforce Repair', /sourc/i],
    links: [
      ['Whisker Oil', '/products/whisker-oil'],
      ['Workforce Repair', '/products/repair'],
    ],
  },
  {
    path: '/heal-her',
    heading: /HEAL HER/,
    texts: [
      'HEAL HER Stick',
      'Coming First',
      'HEAL HER Lip Balm',
      'HEAL HER Skin',
      '100% Natural Ingredients',
      'No Greasy Residue',
      'Fast-Absorbing',
      'Long-Lasting Protection',
    ],
    links: [['Back to Home', '/']],
  },
  { path: '/x-treme', heading: /X-TREME Coming Soon/, texts: [], links: [['Back to Home', '/']] },
  { path: '/gift-bundles', heading: /Gift Bundles Coming Soon/, texts: [], links: [['Back to Home', '/']] },
  { path: '/supply-drop', heading: /COMING SOON/, texts: ['Join Waitlist'], links: [['Back to Home', '/']] },
  {
    path: '/shipping-policy',
    heading: /Shipping Policy/i,
    texts: ['$35', 'USPS', /2.{1,3}5 business days/, /duties/i, 'June 15, 2025'],
  },
  { path: '/returns-policy', heading: /Returns/i, texts: ['30 days', /store\s+credit/i, 'June 15, 2025'] },
  { path: '/privacy-policy', heading: /Privacy Policy/i, texts: ['November 25, 2026'] },
]

for (const spec of pages) {
  test(`${spec.path} shows its content and passes axe`, async ({ page, axe }) => {
    const response = await page.goto(spec.path)
    expect(response?.status()).toBe(200)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(spec.heading)
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
    const main = page.locator('main')
    for (const text of spec.texts) await expect(main.getByText(text).first()).toBeVisible()
    for (const [name, href] of spec.links ?? []) {
      await expect(main.getByRole('link', { name }).first()).toHaveAttribute('href', href)
    }
    await axe()
  })
}

test('an unknown path shows Page Not Found with status 404', async ({ page, axe }) => {
  const response = await page.goto('/no-such-page')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found')
  await expect(page.getByText('The requested page could not be found.')).toBeVisible()
  await axe()
})

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false })

  for (const spec of pages) {
    test(`${spec.path} is readable`, async ({ page }) => {
      await page.goto(spec.path)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(spec.heading)
      for (const text of spec.texts) await expect(page.locator('main').getByText(text).first()).toBeVisible()
    })
  }
})
