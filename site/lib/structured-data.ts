/**
 * JSON-LD for search engines (schema.org): Organization and WebSite on the home page, Product with its Offer
 * and a BreadcrumbList on product pages. Built from the content at build time with absolute URLs on the
 * site's origin (PUBLIC_URL). No aggregateRating or review: the stars on the pages are the shop's own
 * numbers, and review markup must come from real, collected reviews or search engines penalise the site.
 */
import { SHOP_NAME, SHOP_TAGLINE, SOCIAL_PROFILES } from './brand'

export type JsonLd = { '@context'?: string; '@type': string } & Record<string, unknown>

const CONTEXT = 'https://schema.org'

/** The id other nodes refer to the shop by. */
export const organizationId = (site: string | URL) => new URL('/#organization', site).href

export function organization(site: string | URL, logoUrl: string): JsonLd {
  return {
    '@context': CONTEXT,
    '@type': 'Organization',
    '@id': organizationId(site),
    name: SHOP_NAME,
    url: new URL('/', site).href,
    logo: logoUrl,
    description: SHOP_TAGLINE,
    sameAs: SOCIAL_PROFILES.map((profile) => profile.href),
  }
}

export function website(site: string | URL): JsonLd {
  return {
    '@context': CONTEXT,
    '@type': 'WebSite',
    '@id': new URL('/#website', site).href,
    name: SHOP_NAME,
    url: new URL('/', site).href,
    publisher: { '@id': organizationId(site) },
  }
}

export interface ProductFacts {
  id: number
  name: string
  description: string
  /** Dollars and cents as text, '21.00'. */
  price: string
  category: string
}

/**
 * Whether a product can be bought now, as schema.org says it (https://schema.org/InStock): left out of every
 * Offer, on purpose. Stock is live (docs/decisions/026-stock-reserved-at-checkout.md) and this JSON-LD is in
 * the page's static HTML, built without the database: a build-time InStock would stay on a product that
 * sold out an hour later, and search engines penalise markup that disagrees with the page. The page shows
 * 'Sold out' from the live catalogue instead; crawlers read the price and the product without a claim.
 */
export function availability(_product: ProductFacts): Record<string, never> {
  return {}
}

/** Product and its Offer; `images` are absolute URLs, the first the product's main picture. */
export function product(
  site: string | URL,
  facts: ProductFacts,
  url: string,
  images: readonly string[],
): JsonLd {
  return {
    '@context': CONTEXT,
    '@type': 'Product',
    '@id': `${url}#product`,
    name: facts.name,
    description: facts.description,
    image: [...images],
    // The catalogue number orders and the API know the product by (its file's id).
    sku: String(facts.id),
    category: facts.category,
    brand: { '@type': 'Brand', name: SHOP_NAME },
    offers: {
      '@type': 'Offer',
      url,
      price: facts.price,
      priceCurrency: 'USD',
      itemCondition: 'https://schema.org/NewCondition',
      seller: { '@id': organizationId(site) },
      ...availability(facts),
    },
  }
}

/** Home › … › the page itself; the last crumb is the page, named but not linked. */
export function breadcrumbs(crumbs: readonly { name: string; url: string }[]): JsonLd {
  return {
    '@context': CONTEXT,
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      ...(index < crumbs.length - 1 ? { item: crumb.url } : {}),
    })),
  }
}

/**
 * The text of a <script type="application/ld+json">: JSON with '<' escaped, so no value (a product name
 * with '</script>' in it) can end the script early.
 */
export function jsonLdText(data: JsonLd | readonly JsonLd[]): string {
  return JSON.stringify(data).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
}
