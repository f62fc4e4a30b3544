import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

/**
 * Units on the shelf, per product and variant (a scent; '' for a product without variants), set by staff.
 * No row, or a NULL `on_hand`, means not counted: the product sells without limit, as every product did
 * before stock was counted. `on_hand` counts units not yet sold: a paid order takes its units off, a
 * cancel or a refund with restock puts them back; units held by open checkouts are still on it.
 */
export const stockLevels = sqliteTable(
  'stock_levels',
  {
    productId: integer('product_id').notNull(),
    variant: text('variant').notNull(),
    onHand: integer('on_hand'),
    /**
     * Units every `reserved` reservation of this product and variant holds, expired or not, kept by
     * triggers (migration 0019): never less than what live reservations hold, so a checkout that fits under
     * `on_hand - held` passes the guard without summing them. Not for display: expired holds stay in it
     * until their session ends.
     */
    held: integer('held').notNull().default(0),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.productId, table.variant] })],
)

export const STOCK_RESERVATION_STATUSES = ['reserved', 'sold', 'released'] as const

/**
 * Units held for an open checkout session, keyed by the checkout request's idempotency key (the same key
 * as its discount use). A trigger (migration 0017) refuses a reservation that would take more than is on
 * the shelf less what other live reservations hold, and so aborts the transaction that reserves a whole
 * cart. A reservation stops counting when it expires (`expires_at`), when its session ends unpaid
 * (released), or when its payment makes it a sale (sold).
 */
export const stockReservations = sqliteTable(
  'stock_reservations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    reservationKey: text('reservation_key').notNull(),
    productId: integer('product_id').notNull(),
    variant: text('variant').notNull(),
    quantity: integer('quantity').notNull(),
    status: text('status', { enum: STOCK_RESERVATION_STATUSES }).notNull().default('reserved'),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    uniqueIndex('stock_reservations_key_idx').on(table.reservationKey, table.productId, table.variant),
    // What is held of one product and variant now: its live reservations, summed by the trigger.
    index('stock_reservations_live_idx').on(table.productId, table.variant, table.status, table.expiresAt),
    // Holds still marked reserved, by when they run out: the sweep that releases expired holds reads a
    // range of it instead of every reservation the shop ever made (sold ones stay in the table).
    index('stock_reservations_expiry_idx').on(table.expiresAt).where(sql`${table.status} = 'reserved'`),
  ],
)

/**
 * Units received once per staff request: a save of the dashboard's 'Received' fields carries an
 * Idempotency-Key, recorded here in the transaction that adds the units, so the same save sent again (its
 * answer lost on the way) adds nothing a second time. `nonce` tells the request that recorded the key from
 * a repeat of it within that transaction.
 */
export const stockReceipts = sqliteTable('stock_receipts', {
  key: text('key').primaryKey(),
  productId: integer('product_id').notNull(),
  /** What the save added: the product and its figures received, so the key sent with another save is refused. */
  fingerprint: text('fingerprint').notNull().default(''),
  nonce: text('nonce').notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
})

/**
 * A cart's earlier checkout session handing its units over to the cart's next one
 * (docs/decisions/032-one-open-session-per-cart.md): while a row names them, the guard lets the next
 * session's holds (`to_key`) take the units the earlier one (`from_key`) holds, and a payment of the
 * earlier one does not count the next one's holds as others'. The earlier session keeps its holds until the
 * provider has ended it; then they are released and the row deleted. Never both payable: the next session
 * is opened only after the earlier one was ended.
 */
export const stockHandovers = sqliteTable(
  'stock_handovers',
  {
    fromKey: text('from_key').notNull(),
    toKey: text('to_key').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.toKey, table.fromKey] }),
    index('stock_handovers_from_idx').on(table.fromKey),
  ],
)
