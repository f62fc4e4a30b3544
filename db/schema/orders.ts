import { randomBytes } from 'node:crypto'
import { ORDER_STATUSES } from '@core/rules/order-status'
import { REFUND_ORIGINS, REFUND_STATUSES } from '@core/rules/refunds'
import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

/** 80 random bits as 20 lower-case hex digits: safe in a file name, a carrier's metadata and a Message-ID. */
export function newOrderUid(): string {
  return randomBytes(10).toString('hex')
}

/**
 * Paid orders. The integer key is the order number customers see (padded to 6 digits). One checkout
 * session makes at most one order: the UNIQUE session id is what keeps duplicate and out-of-order webhook
 * deliveries from making a second one.
 */
export const orders = sqliteTable(
  'orders',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /**
     * Random, made with the order. A restored backup numbers orders again from where it stood, so the
     * number of a lost order comes back on a new one; what is bought or sent for an order outside the
     * database (its label at the carrier and its file, its e-mails' Message-IDs) is keyed by this instead.
     */
    uid: text('uid').notNull().unique().$defaultFn(newOrderUid),
    checkoutSessionId: text('checkout_session_id').notNull().unique(),
    /** The webhook event that created the order (the first paid confirmation to arrive). */
    sourceEventId: text('source_event_id').notNull(),
    userId: text('user_id'),
    email: text('email').notNull(),
    /** The e-mail as discount rules compare customers (core/rules/customer.ts). */
    customerKey: text('customer_key').notNull().default(''),
    customerName: text('customer_name').notNull(),
    /** JSON: ShippingAddress. */
    shippingAddress: text('shipping_address').notNull(),
    billingAddress: text('billing_address').notNull(),
    subtotalCents: integer('subtotal_cents').notNull(),
    discountCents: integer('discount_cents').notNull(),
    discountCode: text('discount_code'),
    shippingCents: integer('shipping_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    itemCount: integer('item_count').notNull(),
    totalWeightTenthsOz: integer('total_weight_tenths_oz').notNull(),
    shippingCarrier: text('shipping_carrier').notNull(),
    shippingService: text('shipping_service').notNull(),
    shippingServiceToken: text('shipping_service_token').notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('pending'),
    /**
     * The carrier reference of a label purchase under way (the padded order number and the uid,
     * `000042-…`; orders from before the uid carry the number alone), set before anything is bought; a
     * later attempt asks the carrier for a label under it before buying another.
     */
    labelReference: text('label_reference'),
    shippoTrackingNumber: text('shippo_tracking_number'),
    /** The carrier's tracking page for the parcel, from the label purchase: the shipping e-mail links it. */
    trackingUrl: text('tracking_url'),
    labelUrl: text('label_url'),
    /** Why the last label purchase failed, for staff. */
    failureReason: text('failure_reason'),
    /**
     * Set when the payment broke a per-customer rule of its discount code (the first-order code on a
     * customer's second paid order): the money was taken, so the order stands, and staff decide.
     */
    discountWarning: text('discount_warning'),
    /**
     * Set when the payment came after its stock reservation had run out and found too few units left: the
     * money was taken, so the order stands, and staff decide (pack it when more are made, or refund).
     */
    stockWarning: text('stock_warning'),
    /**
     * What a refund names at the payment provider (Stripe's payment intent id), from the paid event's
     * session. Orders made before it was kept, or from an event without it, get it from the provider's
     * session at their first refund.
     */
    paymentRef: text('payment_ref'),
    /** The carrier's id of the bought label (Shippo's transaction id), which a void names. */
    labelId: text('label_id'),
    /** Where the void of a cancelled order's label stands, as the carrier said (queued, pending, success, error). */
    labelVoidStatus: text('label_void_status'),
    /** When staff cancelled the order. */
    cancelledAt: integer('cancelled_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    index('orders_status_idx').on(table.status),
    index('orders_customer_key_idx').on(table.customerKey),
    index('orders_user_id_idx').on(table.userId),
    index('orders_created_at_idx').on(table.createdAt),
    // Staff search by name prefix, case-insensitively (api/modules/orders/search.ts). SQLite's lower() folds
    // ASCII letters only; the search lowers what staff type with the same function, so both sides agree.
    index('orders_customer_name_search_idx').on(sql`lower(${table.customerName})`),
    // A provider's refund event names the payment: its order is found by it.
    index('orders_payment_ref_idx').on(table.paymentRef),
  ],
)

/**
 * Orders and takings (the totals charged) per quarter of an hour, kept by triggers on `orders` (migration
 * 0016) in the same transaction as every insert, change of total or time, or delete. The dashboard's chart
 * of the last 30 days reads at most 30 × 96 rows, however many orders the shop has; quarter hours, because
 * every time zone's midnight falls on one, so the rows add up to the shop's days wherever it is.
 */
export const orderQuarterHours = sqliteTable('order_quarter_hours', {
  /** created_at (epoch ms) divided by 900,000, rounded down. */
  quarterHour: integer('quarter_hour').primaryKey(),
  orders: integer('orders').notNull().default(0),
  takingsCents: integer('takings_cents').notNull().default(0),
})

/**
 * How many orders are in each status, kept by triggers on `orders` (migration 0010) in the same transaction
 * as every insert, status change or delete, so the dashboard's counts are five rows to read however many
 * orders the shop has, and no code path that changes a status can forget them.
 */
export const orderStatusCounts = sqliteTable('order_status_counts', {
  status: text('status', { enum: ORDER_STATUSES }).primaryKey(),
  orders: integer('orders').notNull().default(0),
})

export const orderLines = sqliteTable(
  'order_lines',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** Line order as in the cart; with orderId unique, so a repeated insert adds nothing. */
    position: integer('position').notNull(),
    productId: integer('product_id').notNull(),
    name: text('name').notNull(),
    variant: text('variant'),
    /**
     * The stock the line was sold from (core/rules/stock.ts `stockVariant`: '' for a product without
     * scents), as checkout named it: a cancel or refund puts units back there whatever the content says
     * later. NULL only for a line no stock ever counted (its product or scent unknown when it was sold).
     */
    stockVariant: text('stock_variant'),
    unitCents: integer('unit_cents').notNull(),
    quantity: integer('quantity').notNull(),
    /** This line's share of the order discount, so line totals add up to what was charged. */
    discountCents: integer('discount_cents').notNull(),
    weightTenthsOz: integer('weight_tenths_oz').notNull(),
    /**
     * Units whose refund failed and that no refund has taken over since, by where they are: on the shelf
     * (a shipped order's returned units), out (the order's to ship, or with the customer) or off the shelf
     * (a broken jar). The next refund of the line takes these over first: a unit refunded again after its
     * refund failed is the same unit (docs/decisions/027-cancel-and-refund.md).
     */
    unsettledOnShelf: integer('unsettled_on_shelf').notNull().default(0),
    unsettledOut: integer('unsettled_out').notNull().default(0),
    unsettledOff: integer('unsettled_off').notNull().default(0),
  },
  (table) => [
    uniqueIndex('order_lines_order_position_idx').on(table.orderId, table.position),
    // Everything the units still to ship read of a line (api/modules/orders/units-to-ship.ts), so the
    // dashboard's products read this index alone: the lines of orders not yet shipped are scattered over the
    // whole table, and reading their rows cost twice the pages.
    index('order_lines_to_ship_idx').on(
      table.orderId,
      table.productId,
      table.stockVariant,
      table.quantity,
      table.unsettledOnShelf,
      table.unsettledOut,
      table.unsettledOff,
    ),
  ],
)

/**
 * Every status move of an order: from what to what, who or what made it ('system' for the shop's own work,
 * a staff member's user id for a dashboard action), why and when. Written in the same transaction as the
 * move itself, so the history can never miss a move or record one that did not happen. `fromStatus` is
 * null for the entry that records the order being placed. Staff ids are not foreign keys: the record
 * outlives the account.
 */
export const orderHistory = sqliteTable(
  'order_history',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status', { enum: ORDER_STATUSES }),
    toStatus: text('to_status', { enum: ORDER_STATUSES }).notNull(),
    /** 'system', or the id of the staff member who made the move. */
    actor: text('actor').notNull(),
    reason: text('reason').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    index('order_history_order_idx').on(table.orderId, table.id),
    // Whether an order ever shipped (a refunded one may have): one entry per shipped order, read without
    // its other moves, for the units orders still have to ship (api/modules/orders/units-to-ship.ts).
    index('order_history_shipped_idx').on(table.orderId).where(sql`${table.toStatus} = 'shipped'`),
  ],
)

/**
 * Every refund of an order: asked by staff (Refund, Cancel) or made in the payment provider's dashboard.
 * Never more than was paid: a refund is inserted by one conditional INSERT … SELECT that sums the order's
 * counted refunds (core/rules/refunds.ts), so of refunds asked at once only those that fit are recorded.
 * The row's id is the idempotency key the provider is asked with, so a retry never refunds twice.
 */
export const orderRefunds = sqliteTable(
  'order_refunds',
  {
    /** 'rf_' and 20 hex digits; the provider's idempotency key and its metadata `refund_key`. */
    id: text('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    origin: text('origin', { enum: REFUND_ORIGINS }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: REFUND_STATUSES }).notNull(),
    /** The provider's id (re_…), once it has made the refund: one row per provider refund. */
    providerRefundId: text('provider_refund_id').unique(),
    /** Staff asked for the refunded units to go back on the shelf. */
    restock: integer('restock', { mode: 'boolean' }).notNull().default(false),
    /** When the units were put back (with the refund's recording), so they are put back once. */
    restockedAt: integer('restocked_at', { mode: 'timestamp_ms' }),
    /** Staff's words; null for a refund made in the provider's dashboard. */
    reason: text('reason'),
    /** Why the provider refused or failed it, in its words. */
    failureReason: text('failure_reason'),
    /** Who asked: a staff member's user id, or 'provider'. Not a foreign key: the record outlives the account. */
    actor: text('actor').notNull(),
    /** The Idempotency-Key staff's request carried: the same key for the same order is the same refund. */
    requestKey: text('request_key'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    index('order_refunds_order_idx').on(table.orderId),
    uniqueIndex('order_refunds_request_key_idx').on(table.orderId, table.requestKey),
    // The dashboard's failed refunds: few rows, found without reading the rest.
    index('order_refunds_status_idx').on(table.status),
  ],
)

/** The units a refund by lines returns, and what each line's part came to. */
export const orderRefundLines = sqliteTable(
  'order_refund_lines',
  {
    refundId: text('refund_id')
      .notNull()
      .references(() => orderRefunds.id, { onDelete: 'cascade' }),
    lineId: integer('line_id')
      .notNull()
      .references(() => orderLines.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    amountCents: integer('amount_cents').notNull(),
    /**
     * The units of this line the refund put back on the shelf, as worked out when it was made (fewer than
     * `quantity` when some were back already: a unit refunded again after a failure is the same unit);
     * 0 until then, and again once a failure took them off (docs/decisions/027).
     */
    restockedQuantity: integer('restocked_quantity').notNull().default(0),
    /**
     * Of `quantity`, the units this refund took over from the line's failed refunds when it was asked
     * (order_lines' unsettled units), by where they were then; the rest were never refunded before.
     */
    settlesOnShelf: integer('settles_on_shelf').notNull().default(0),
    settlesOut: integer('settles_out').notNull().default(0),
    settlesOff: integer('settles_off').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.refundId, table.lineId] }),
    index('order_refund_lines_line_idx').on(table.lineId),
  ],
)
