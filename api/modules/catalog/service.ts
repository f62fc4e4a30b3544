import { centsToDollars } from '@core/rules/money'
import type { StockState } from '@core/rules/stock'
import { and, asc, eq, inArray, notInArray, type SQL, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { catalogVersion, products } from '../../../db/schema'
import { type Clock, systemClock } from '../../lib/clock'
import { errorMessage, log } from '../../lib/log'
import { prepareFile, type StaticFile } from '../../lib/prepared-file'
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
  /** Its variants (scents) in the content file's order; [] when it has none (core/rules/stock.ts). */
  variants: string[]
}

/**
 * The live stock the catalogue answer carries (api/modules/stock), at one moment. `key` changes whenever a
 * figure does; the answer is rebuilt only then.
 */
export interface StockView {
  key: string
  state(productId: number, variant: string): StockState
}

const NOT_COUNTED: StockView = { key: '', state: () => ({ tracked: false, available: null }) }

/**
 * A product's own stock, for one with variants: tracked when every variant is, and then what they have
 * left together (so 'Sold out' means no scent is left).
 */
function productStock(product: CatalogProduct, stock: StockView): StockState {
  if (product.variants.length === 0) return stock.state(product.id, '')
  const states = product.variants.map((variant) => stock.state(product.id, variant))
  if (!states.every((state) => state.tracked)) return { tracked: false, available: null }
  return { tracked: true, available: states.reduce((sum, state) => sum + (state.available ?? 0), 0) }
}

/** A product as GET /api/catalog lists it: dollars and ounces as text, like the pages show them. */
function listed(product: CatalogProduct, stock: StockView) {
  return {
    id: product.id,
    slug: product.slug,
    name: product.name,
    category: product.category,
    description: product.description,
    price: centsToDollars(product.priceCents),
    // The tenths-of-an-ounce integer as the one-decimal text the pages show ('2.0').
    weight: (product.weightTenthsOz / 10).toFixed(1),
    rating: product.rating,
    stock: productStock(product, stock),
    // Each scent's own stock: what a cart line of that scent can still take.
    variants: product.variants.map((name) => ({ name, stock: stock.state(product.id, name) })),
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
  variants: products.variants,
}

/** The variants column's JSON: written by syncCatalog from the content, so always an array of names. */
function variantsOf(json: string): string[] {
  const parsed: unknown = JSON.parse(json)
  return Array.isArray(parsed) ? parsed.filter((name): name is string => typeof name === 'string') : []
}

/** How often an instance asks the database whether another instance changed the catalogue. */
export const CATALOG_CHECK_MS = 500

interface Loaded {
  /** The catalogue version these rows were read at (catalog_version). */
  version: number
  byId: Map<number, CatalogProduct>
}

/**
 * The products the server sells: prices and weights come from here, never from the browser. The rows
 * change only at a content sync (start) and when staff change a weight, so they are read once and kept
 * in memory. Every change moves the catalogue version up in its own transaction; each instance reads that
 * one number at most every CATALOG_CHECK_MS of its clock and reads the rows again when it moved, so a
 * weight staff change on one instance reaches every other within a second.
 */
export function createCatalogService(
  db: Database,
  clock: Clock = systemClock,
  options: { checkEveryMs?: number } = {},
) {
  const checkEveryMs = options.checkEveryMs ?? CATALOG_CHECK_MS
  let loaded: Promise<Loaded> | null = null
  let listing: { stockKey: string; file: Promise<StaticFile> } | null = null
  let checkedAt = Number.NEGATIVE_INFINITY
  let checking: Promise<void> | null = null

  function forget(): void {
    loaded = null
    listing = null
  }

  function load(): Promise<Loaded> {
    // The version and the rows in one read transaction: the rows are exactly those of that version.
    loaded ??= db
      .batch([
        db.select({ version: catalogVersion.version }).from(catalogVersion).where(eq(catalogVersion.id, 1)),
        db.select(columns).from(products).where(eq(products.listed, true)).orderBy(asc(products.id)),
      ])
      .then(([version, rows]) => ({
        version: version[0]?.version ?? 0,
        byId: new Map(rows.map((row) => [row.id, { ...row, variants: variantsOf(row.variants) }])),
      }))
      .catch((error: unknown) => {
        // A failed read is not remembered: the next request asks the database again.
        loaded = null
        throw error
      })
    return loaded
  }

  /** One single-row read: if another instance (or a sync) moved the version, the rows are read again. */
  async function checkVersion(): Promise<void> {
    try {
      const held = loaded
      const [row] = await db
        .select({ version: catalogVersion.version })
        .from(catalogVersion)
        .where(eq(catalogVersion.id, 1))
      const have = await held?.catch(() => null)
      if (row && have && row.version !== have.version && loaded === held) forget()
    } catch (error) {
      // The catalogue in hand stays right until the database answers again; the next check asks again.
      log.warn('catalogue version check failed', { error: errorMessage(error) })
    }
  }

  /** The catalogue, checked against the database's version at most every checkEveryMs. */
  async function current(): Promise<Map<number, CatalogProduct>> {
    const now = clock.now().getTime()
    if (!checking && (now - checkedAt >= checkEveryMs || now < checkedAt)) {
      checkedAt = now
      checking = checkVersion().finally(() => {
        checking = null
      })
    }
    if (checking) await checking
    return (await load()).byId
  }

  const service = {
    async list(): Promise<CatalogProduct[]> {
      return [...(await current()).values()]
    },
    async byId(id: number): Promise<CatalogProduct | null> {
      if (!Number.isSafeInteger(id)) return null
      return (await current()).get(id) ?? null
    },
    async bySlug(slug: string): Promise<CatalogProduct | null> {
      for (const product of (await current()).values()) if (product.slug === slug) return product
      return null
    },
    /** By name as shoppers and the rates call's item names spell it (docs/product.md#shop-calls): any capitals, spaces trimmed. */
    async byName(name: string): Promise<CatalogProduct | null> {
      const wanted = name.trim().toLowerCase()
      for (const product of (await current()).values())
        if (product.name.toLowerCase() === wanted) return product
      return null
    },
    /**
     * GET /api/catalog's answer, built once per catalogue version and stock figures: prices in dollars and
     * weights in ounces as the site shows them, and what is left of each counted product, ready to send
     * (its ETag is the body's hash). The stock figures move at most once a second (api/modules/stock), so
     * the answer is rebuilt at most that often however many ask.
     */
    async listing(stock: StockView = NOT_COUNTED): Promise<StaticFile> {
      await current()
      if (listing?.stockKey !== stock.key) {
        const file = load().then(({ byId }) =>
          prepareFile(
            new TextEncoder().encode(
              JSON.stringify({ products: [...byId.values()].map((product) => listed(product, stock)) }),
            ),
            {
              type: 'application/json; charset=utf-8',
              // Stock changes with every checkout: browsers keep the answer briefly and ask again with the
              // ETag (a 304 costs nothing to build).
              cacheControl: 'public, max-age=5',
              compressible: true,
            },
          ),
        )
        listing = { stockKey: stock.key, file }
        file.catch(() => {
          if (listing?.file === file) listing = null
        })
      }
      return listing.file
    },

    /** Reads the rows again now, on this instance (other instances notice the version within a second). */
    async reload(): Promise<void> {
      forget()
      await load()
    },

    /**
     * Staff set a product's weight from the packing bench (tenths of an ounce). It is marked as theirs, so
     * a content sync keeps it, and the catalogue version moves up in the same transaction, so the next
     * rates, labels and /api/catalog answer of every instance use it. Null when there is no such product.
     */
    async setWeight(id: number, weightTenthsOz: number): Promise<CatalogProduct | null> {
      if (!Number.isSafeInteger(id)) return null
      const [changed] = await db.batch([
        db
          .update(products)
          .set({ weightTenthsOz, weightOverridden: true, updatedAt: clock.now() })
          .where(and(eq(products.id, id), eq(products.listed, true)))
          .returning({ id: products.id }),
        bumpVersion(db, sql`changes() > 0`),
      ])
      if (changed.length === 0) return null
      await service.reload()
      return service.byId(id)
    },
  }
  return service
}

/** The statement that moves the catalogue version up (when `condition` holds, evaluated in its batch). */
function bumpVersion(db: Pick<Database, 'update'>, condition?: SQL) {
  return db
    .update(catalogVersion)
    .set({ version: sql`${catalogVersion.version} + 1` })
    .where(and(eq(catalogVersion.id, 1), condition))
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
          variants: JSON.stringify(product.variants),
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
            variants: JSON.stringify(product.variants),
            listed: true,
            weightTenthsOz: sql`case when ${products.weightOverridden} then ${products.weightTenthsOz} else ${product.weightTenthsOz} end`,
            updatedAt: now,
          },
        })
    }
    // Content may have changed names or prices: every running instance reads the rows again.
    await bumpVersion(tx)
  })
}
