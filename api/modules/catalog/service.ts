import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { products } from '../../../db/schema'
import { type Clock, systemClock } from '../../lib/clock'
import { prepareFile, type StaticFile } from '../../plugins/static-site'
import { centsToDollars } from '../../rules/money'
import type { ContentProduct } from './content'

export interface CatalogProduct {
  id: number
  slug: string
  name: string
  category: string
  description: string
  priceCents: number
  weightTenthsOz: number
  /** Shop-window stars from the content file. */
  rating: number
}

/** A product as GET /api/catalog lists it: dollars and ounces as text, like the pages show them. */
function listed(product: CatalogProduct) {
  return {
    id: product.id,
    slug: product.slug,
    name: product.name,
    category: product.category,
    description: product.description,
    price: centsToDollars(product.priceCents),
    // The tenths-of-an-ounce integer as the one-decimal text the spec shows ('2.0').
    weight: (product.weightTenthsOz / 10).toFixed(1),
    rating: product.rating,
  }
}

const columns = {
  id: products.id,
  slug: products.slug,
  name: products.name,
  category: products.category,
  description: products.description,
  priceCents: products.priceCents,
  weightTenthsOz: products.weightTenthsOz,
  rating: products.rating,
}

/**
 * The products the server sells: prices and weights come from here, never from the browser. The rows
 * change only at boot (content sync) and when staff change a weight, so they are read once and kept in
 * memory; `reload()` reads them again after such a change.
 */
export function createCatalogService(db: Database, clock: Clock = systemClock) {
  let loaded: Promise<Map<number, CatalogProduct>> | null = null
  let listing: Promise<StaticFile> | null = null

  function byIdMap(): Promise<Map<number, CatalogProduct>> {
    loaded ??= db
      .select(columns)
      .from(products)
      .where(eq(products.listed, true))
      .orderBy(asc(products.id))
      .then((rows) => new Map(rows.map((row) => [row.id, row])))
      .catch((error: unknown) => {
        // A failed read is not remembered: the next request asks the database again.
        loaded = null
        throw error
      })
    return loaded
  }

  const service = {
    async list(): Promise<CatalogProduct[]> {
      return [...(await byIdMap()).values()]
    },
    async byId(id: number): Promise<CatalogProduct | null> {
      if (!Number.isSafeInteger(id)) return null
      return (await byIdMap()).get(id) ?? null
    },
    async bySlug(slug: string): Promise<CatalogProduct | null> {
      for (const product of (await byIdMap()).values()) if (product.slug === slug) return product
      return null
    },
    /** By name as shoppers and the spec's rates call spell it: any capitals, spaces trimmed. */
    async byName(name: string): Promise<CatalogProduct | null> {
      const wanted = name.trim().toLowerCase()
      for (const product of (await byIdMap()).values())
        if (product.name.toLowerCase() === wanted) return product
      return null
    },
    /**
     * GET /api/catalog's answer, built once per catalogue change: prices in dollars and weights in ounces as
     * the site shows them, ready to send.
     */
    listing(): Promise<StaticFile> {
      listing ??= byIdMap().then((products) =>
        prepareFile(
          new TextEncoder().encode(JSON.stringify({ products: [...products.values()].map(listed) })),
          {
            type: 'application/json; charset=utf-8',
            cacheControl: 'public, max-age=60',
            compressible: true,
          },
        ),
      )
      return listing
    },

    /** Reads the rows again (after a weight change); every instance does so at its next boot. */
    async reload(): Promise<void> {
      loaded = null
      listing = null
      await byIdMap()
    },

    /**
     * Staff set a product's weight from the packing bench (tenths of an ounce). It is marked as theirs, so
     * a content sync keeps it, and the catalogue is read again, so the next rates, labels and /api/catalog
     * answer use it. Null when there is no such product.
     */
    async setWeight(id: number, weightTenthsOz: number): Promise<CatalogProduct | null> {
      if (!Number.isSafeInteger(id)) return null
      const changed = await db
        .update(products)
        .set({ weightTenthsOz, weightOverridden: true, updatedAt: clock.now() })
        .where(and(eq(products.id, id), eq(products.listed, true)))
        .returning({ id: products.id })
      if (changed.length === 0) return null
      await service.reload()
      return service.byId(id)
    },
  }
  return service
}

export type CatalogService = ReturnType<typeof createCatalogService>

/**
 * Upserts the content's products by id. A weight staff changed (weightOverridden) is kept: content edits
 * change names and prices, the packing bench knows the real weight. Products not in `catalog` (drafts,
 * removed files) are unlisted, not deleted, so they come back as they were; one that held a slug a listed
 * product now has gives it up, as a slug names one product.
 */
export async function syncCatalog(db: Database, catalog: ContentProduct[], now: Date): Promise<void> {
  const ids = catalog.map((product) => product.id)
  const slugs = catalog.map((product) => product.slug)
  await db.transaction(async (tx) => {
    await tx
      .update(products)
      .set({ listed: false, updatedAt: now })
      .where(and(notInArray(products.id, ids), eq(products.listed, true)))
    await tx.delete(products).where(and(notInArray(products.id, ids), inArray(products.slug, slugs)))
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
          rating: product.rating,
          listed: true,
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
            rating: product.rating,
            listed: true,
            weightTenthsOz: sql`case when ${products.weightOverridden} then ${products.weightTenthsOz} else ${product.weightTenthsOz} end`,
            updatedAt: now,
          },
        })
    }
  })
}
