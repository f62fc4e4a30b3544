import { describe, expect, test } from 'bun:test'
import {
  availability,
  breadcrumbs,
  jsonLdText,
  organization,
  product,
  website,
} from '../../../site/lib/structured-data'

const SITE = 'https://gritandwhisker.example'
const OIL = {
  id: 1,
  name: 'Hammered Citrus',
  description: 'A light beard oil.',
  price: '21.00',
  category: 'Whisker Oil',
}

describe('JSON-LD', () => {
  test('Organization and WebSite: name, absolute URL, logo, profiles', () => {
    const org = organization(SITE, `${SITE}/logo.png`)
    expect(org).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Organization',
      '@id': `${SITE}/#organization`,
      name: 'Grit & Whisker',
      url: `${SITE}/`,
      logo: `${SITE}/logo.png`,
    })
    expect(org.sameAs).toContain('https://www.instagram.com/gritandwhisker')
    expect(website(SITE)).toMatchObject({
      '@type': 'WebSite',
      name: 'Grit & Whisker',
      url: `${SITE}/`,
      publisher: { '@id': `${SITE}/#organization` },
    })
  })

  test('Product with its Offer: price as text, currency, URL, image, brand, SKU; no rating', () => {
    const url = `${SITE}/products/whisker-oil`
    const data = product(SITE, OIL, url, [`${SITE}/_astro/whisker-oil.svg`])
    expect(data).toMatchObject({
      '@type': 'Product',
      name: 'Hammered Citrus',
      description: 'A light beard oil.',
      image: [`${SITE}/_astro/whisker-oil.svg`],
      sku: '1',
      brand: { '@type': 'Brand', name: 'Grit & Whisker' },
      offers: { '@type': 'Offer', url, price: '21.00', priceCurrency: 'USD' },
    })
    expect(JSON.stringify(data)).not.toMatch(/aggregateRating|review/i)
  })

  test('availability is left out: the static page cannot know live stock (docs/decisions/026)', () => {
    expect(availability(OIL)).toEqual({})
    const offer = product(SITE, OIL, `${SITE}/products/whisker-oil`, []).offers as Record<string, unknown>
    expect(offer).not.toHaveProperty('availability')
  })

  test('BreadcrumbList: positions from 1, every crumb linked but the page itself', () => {
    const list = breadcrumbs([
      { name: 'Grit & Whisker', url: `${SITE}/` },
      { name: 'Shop', url: `${SITE}/shop` },
      { name: 'Hammered Citrus', url: `${SITE}/products/whisker-oil` },
    ])
    expect(list.itemListElement).toEqual([
      { '@type': 'ListItem', position: 1, name: 'Grit & Whisker', item: `${SITE}/` },
      { '@type': 'ListItem', position: 2, name: 'Shop', item: `${SITE}/shop` },
      { '@type': 'ListItem', position: 3, name: 'Hammered Citrus' },
    ])
  })

  test('the script text cannot be closed by a value, and parses back to the same data', () => {
    const data = product(
      SITE,
      { ...OIL, name: 'Oil</script><script>alert(1)</script> & more' },
      `${SITE}/x`,
      [],
    )
    const text = jsonLdText(data)
    expect(text).not.toContain('<')
    expect(text).not.toContain('>')
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(data)))
  })
})
