import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

/** Discount codes. Codes are case-sensitive: 'CREW10' and 'crew10' are different codes. */
export const discountCodes = sqliteTable('discount_codes', {
  code: text('code').primaryKey(),
  type: text('type', { enum: ['percentage', 'fixed'] }).notNull(),
  /** Whole percent for percentage codes; cents for fixed codes. */
  amount: integer('amount').notNull(),
  activeFrom: integer('active_from', { mode: 'timestamp_ms' }),
  activeUntil: integer('active_until', { mode: 'timestamp_ms' }),
  maxRedemptions: integer('max_redemptions'),
  maxPerCustomer: integer('max_per_customer'),
  minSubtotalCents: integer('min_subtotal_cents').notNull().default(0),
  /** Only for a customer's first paid order (the newsletter welcome code). */
  firstOrderOnly: integer('first_order_only', { mode: 'boolean' }).notNull().default(false),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
})

export const DISCOUNT_USE_STATUSES = ['reserved', 'redeemed', 'released'] as const

/**
 * Every use of a code. A checkout session reserves a use when it is opened (so sessions opened in
 * parallel cannot all pass a limit), the paid order redeems it, and an expired or failed session releases
 * it. The limits count redeemed uses and reservations that have not expired.
 */
export const discountRedemptions = sqliteTable(
  'discount_redemptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    code: text('code').notNull(),
    status: text('status', { enum: DISCOUNT_USE_STATUSES }).notNull().default('redeemed'),
    /** The checkout request's idempotency key: a double click reserves once. */
    reservationKey: text('reservation_key'),
    /** The order number, once the reservation is paid. */
    orderRef: text('order_ref'),
    /** Lower-cased, as the customer typed it. */
    email: text('email').notNull(),
    /** The customer the limits count by (core/rules/customer.ts: case and plus-addresses folded). */
    customerKey: text('customer_key').notNull().default(''),
    userId: text('user_id'),
    /** A reservation stops counting after this (the payment session has expired by then). */
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    uniqueIndex('discount_redemptions_order_idx').on(table.orderRef),
    uniqueIndex('discount_redemptions_reservation_idx').on(table.reservationKey),
    index('discount_redemptions_code_status_idx').on(table.code, table.status),
    // First-order and per-customer rules look a customer up by key or by account, across all codes.
    index('discount_redemptions_customer_idx').on(table.customerKey),
    index('discount_redemptions_user_idx').on(table.userId),
  ],
)
