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

/** One row per paid order that used a code; the limits count these. */
export const discountRedemptions = sqliteTable(
  'discount_redemptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    code: text('code').notNull(),
    orderRef: text('order_ref').notNull(),
    /** Lower-cased, so limits per customer hold whatever the capitals. */
    email: text('email').notNull(),
    userId: text('user_id'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    uniqueIndex('discount_redemptions_order_idx').on(table.orderRef),
    index('discount_redemptions_code_email_idx').on(table.code, table.email),
    // First-order and per-customer rules look a customer up by e-mail or by account, across all codes.
    index('discount_redemptions_email_idx').on(table.email),
    index('discount_redemptions_user_idx').on(table.userId),
  ],
)
