import { integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Products mirror content/products (the single source of names and prices). The rows exist so orders and
 * staff weight edits refer to real ids; weight is the one field staff may change here. A product no longer
 * in the content (made a draft, or its file removed) keeps its row, unlisted: it is not sold, and comes back
 * with its id and any weight staff set when its file is published again.
 */
export const products = sqliteTable('products', {
  id: integer('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  category: text('category').notNull(),
  description: text('description').notNull(),
  priceCents: integer('price_cents').notNull(),
  /** Tenths of an ounce, so 2.0 oz is 20: weights stay exact integers like money. */
  weightTenthsOz: integer('weight_tenths_oz').notNull(),
  /** Shop-window stars from the content file; not money, shown as the catalogue lists it. */
  rating: real('rating').notNull().default(0),
  /**
   * JSON: the names of the product's variants (its scents) in the content file's order, the first being
   * the one a line without a variant stands for; [] for a product without variants.
   */
  variants: text('variants').notNull().default('[]'),
  /** True when staff changed the weight; a content sync then keeps the staff value. */
  weightOverridden: integer('weight_overridden', { mode: 'boolean' }).notNull().default(false),
  /** False while the product is not in the published content: not sold, not listed. */
  listed: integer('listed', { mode: 'boolean' }).notNull().default(true),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
})

/**
 * One row (id 1) whose version moves up in the same transaction as any change to the products (a staff
 * weight, a content sync at start). Every instance keeps the catalogue in memory and compares this one
 * number with the version it loaded, at most every half second, instead of reading the products again.
 */
export const catalogVersion = sqliteTable('catalog_version', {
  id: integer('id').primaryKey(),
  version: integer('version').notNull(),
})
