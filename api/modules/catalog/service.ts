import { asc, eq, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { products } from '../../../db/schema'
import type { ContentProduct } from './content'

export interface CatalogProduct {
  id: number
  slug: string
  name: string
  category: string
  description: string
  priceCents: number
  weightTenthsOz: number
}

const columns = {
  id: products.id,
  slug: products.slug,
  name: products.name,
  category: products.category,
  description: products.description,
  priceCents: products.priceCents,
  weightTenthsOz: products.weightTenthsOz,
}

/** The products the server sells, as stored: prices and weights come from here, never from the browser. */
export function createCatalogService(db: Database) {
  return {
    list(): Promise<CatalogProduct[]> {
      return db.select(columns).from(products).orderBy(asc(products.id))
    },
    async byId(id: number): Promise<CatalogProduct | null> {
      if (!Number.isSafeInteger(id)) return null
      const [row] = await db.select(columns).from(products).where(eq(products.id, id))
      return row ?? null
    },
    async bySlug(slug: string): Promise<CatalogProduct | null> {
      const [row] = await db.select(columns).from(products).where(eq(products.slug, slug))
      return row ?? null
    },
  }
}

export type CatalogService = ReturnType<typeof createCatalogService>

/**
 * Upserts the content's products by id. A weight staff changed (weightOverridden) is kept: content edits
 * change names and prices, the packing bench knows the real weight.
 */
export async function syncCatalog(db: Database, catalog: ContentProduct[], now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    for (const product of catalog) {
      await tx
        .insert(products)
        .values({
          id: product.id,
          slug: product.slug,
          name: product.name,
          category: product.category,
          description: product.description,
          priceCents: product.priceCents,
          weightTenthsOz: product.weightTenthsOz,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: products.id,
          set: {
            slug: product.slug,
            name: product.name,
            category: product.category,
            description: product.description,
            priceCents: product.priceCents,
            weightTenthsOz: sql`case when ${products.weightOverridden} then ${products.weightTenthsOz} else ${product.weightTenthsOz} end`,
            updatedAt: now,
          },
        })
    }
  })
}
