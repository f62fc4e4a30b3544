import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { type CategoryId, isCategoryId } from '../../rules/catalog'
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

function frontmatter(file: string, text: string): Record<string, unknown> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)
  if (!match?.[1]) throw new CatalogContentError(`${file}: no frontmatter block (--- … ---) at the top`)
  const data = Bun.YAML.parse(match[1])
  if (typeof data !== 'object' || data === null)
    throw new CatalogContentError(`${file}: frontmatter is not a map`)
  return data as Record<string, unknown>
}

function parseProduct(file: string, data: Record<string, unknown>): ContentProduct {
  const fail = (field: string, why: string): never => {
    throw new CatalogContentError(`${file}: ${field} ${why}`)
  }
  const text = (field: string): string => {
    const value = data[field]
    if (value === undefined || value === null) return fail(field, 'is missing')
    // YAML reads 21.00 as the number 21, losing the cents the site shows: prices must be quoted.
    if (typeof value !== 'string') return fail(field, `must be quoted text (got ${JSON.stringify(value)})`)
    return value.trim() || fail(field, 'must not be blank')
  }
  const id = data.id
  if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0)
    fail('id', 'must be a positive whole number')
  const slug = text('slug')
  if (!/^[a-z0-9-]+$/.test(slug)) fail('slug', 'may only hold lower-case letters, digits and dashes')
  const category = text('category')
  if (!isCategoryId(category)) fail('category', `"${category}" is not a known category`)
  const price = text('price')
  const priceCents = /^\d+\.\d{2}$/.test(price) ? dollarsToCents(price) : null
  if (priceCents === null || priceCents <= 0) fail('price', `must look like 21.00 (got "${price}")`)
  const weight = data.weight === undefined ? '2.0' : String(data.weight)
  if (!/^\d+(\.\d)?$/.test(weight) || Number(weight) <= 0)
    fail('weight', `must be ounces like 2.0 (got "${weight}")`)
  const rating = data.rating
  if (typeof rating !== 'number' || rating < 0 || rating > 5) fail('rating', 'must be a number from 0 to 5')
  return {
    id: id as number,
    slug,
    name: text('name'),
    category: category as CategoryId,
    description: text('description'),
    priceCents: priceCents as number,
    weightTenthsOz: Math.round(Number(weight) * 10),
    rating: rating as number,
  }
}

/** Reads content/products/*.mdx: the same files the site is built from, so page and charge agree. */
export function loadCatalogFromContent(dir: string): ContentProduct[] {
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
