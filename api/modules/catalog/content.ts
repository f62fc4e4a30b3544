import { resolve } from 'node:path'
import type { CategoryId } from '@core/rules/catalog'
import { dollarsToCents } from '@core/rules/money'
import { formatProblems, readProducts } from '../../../content/read'
import { isPublished } from '../../../content/schema'

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
  /** Its scents' names in the file's order, each a variant of its cart lines; [] when it has none. */
  variants: string[]
}

/** content/products: the files the site's product pages are built from. */
export const PRODUCT_CONTENT_DIR = resolve(import.meta.dir, '../../../content/products')

export class CatalogContentError extends Error {}

/**
 * Reads content/products/*.mdx: the same files, fields and checks the site is built from
 * (content/read.ts), so page and charge agree and a broken file stops the boot with the message the build
 * and `npm run check:content` give. Drafts are checked too but not sold: the build leaves their pages out.
 */
export function loadCatalogFromContent(dir: string = PRODUCT_CONTENT_DIR): ContentProduct[] {
  const { entries, problems } = readProducts(dir)
  if (problems.length > 0) throw new CatalogContentError(formatProblems(problems))
  return entries
    .filter((entry) => isPublished(entry.data, { drafts: false }))
    .map(({ data }) => ({
      id: data.id,
      slug: data.slug,
      name: data.name,
      category: data.category,
      description: data.description,
      // The schema only lets through prices like '21.00', which always convert.
      priceCents: dollarsToCents(data.price) ?? 0,
      weightTenthsOz: Math.round(Number(data.weight) * 10),
      rating: data.rating,
      variants: data.scents.map((scent) => scent.name),
    }))
    .sort((a, b) => a.id - b.id)
}
