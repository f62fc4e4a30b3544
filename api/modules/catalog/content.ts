import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { z } from 'astro/zod'
import { describeContentIssue, productSchema } from '../../../content/schema'
import type { CategoryId } from '../../rules/catalog'
import { dollarsToCents } from '../../rules/money'

/** What the server needs of a product file: the money, weight and names it charges and ships by. */
export interface ContentProduct {
  id: number
  slug: string
  name: string
  category: CategoryId
  description: string
  priceCents: number
  weightTenthsOz: number
  rating: number
}

/** content/products: the files the site's product pages are built from. */
export const PRODUCT_CONTENT_DIR = resolve(import.meta.dir, '../../../content/products')

export class CatalogContentError extends Error {}

// The site's schema with images as the plain paths the frontmatter holds (the API never opens them).
const productFrontmatter = productSchema(() => z.string())

function frontmatter(file: string, text: string): unknown {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)
  if (!match?.[1]) throw new CatalogContentError(`${file}: no frontmatter block (--- … ---) at the top`)
  return Bun.YAML.parse(match[1])
}

function parseProduct(file: string, data: unknown): ContentProduct {
  const parsed = productFrontmatter.safeParse(data)
  if (!parsed.success) throw new CatalogContentError(`${file}: ${describeContentIssue(parsed.error)}`)
  const product = parsed.data
  return {
    id: product.id,
    slug: product.slug,
    name: product.name.trim(),
    category: product.category,
    description: product.description.trim(),
    // The schema only lets through prices like '21.00', which always convert.
    priceCents: dollarsToCents(product.price) ?? 0,
    weightTenthsOz: Math.round(Number(product.weight) * 10),
    rating: product.rating,
  }
}

/** Reads content/products/*.mdx: the same files the site is built from, so page and charge agree. */
export function loadCatalogFromContent(dir: string = PRODUCT_CONTENT_DIR): ContentProduct[] {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.mdx'))
    .sort()
  const products = files.map((name) => {
    const file = join(dir, name)
    return parseProduct(file, frontmatter(file, readFileSync(file, 'utf8')))
  })
  for (const [field, values] of [
    ['id', products.map((product) => String(product.id))],
    ['slug', products.map((product) => product.slug)],
  ] as const) {
    const duplicate = values.find((value, index) => values.indexOf(value) !== index)
    if (duplicate) throw new CatalogContentError(`${dir}: two products share the ${field} "${duplicate}"`)
  }
  return products.sort((a, b) => a.id - b.id)
}
