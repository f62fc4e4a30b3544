import { CHECKOUT_SESSION_STATUSES } from '@core/rules/checkout-status'
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * What the server sent to the payment provider, kept so the order is built from our own figures when the
 * provider confirms payment, never from anything the browser said.
 */
export const checkoutSessions = sqliteTable(
  'checkout_sessions',
  {
    /** The payment provider's session id (cs_test_…, cs_live_…, cs_test_demo_…). */
    id: text('id').primaryKey(),
    provider: text('provider', { enum: ['stripe', 'demo'] }).notNull(),
    status: text('status', { enum: CHECKOUT_SESSION_STATUSES }).notNull().default('open'),
    email: text('email').notNull(),
    userId: text('user_id'),
    /** JSON: ShippingAddress. */
    shippingAddress: text('shipping_address').notNull(),
    billingAddress: text('billing_address').notNull(),
    /** JSON: SessionLine[] (catalogue prices in cents, weights in tenths of an ounce). */
    lines: text('lines').notNull(),
    discountCode: text('discount_code'),
    /** The discount use this session holds (discount_redemptions.reservation_key). */
    discountReservationKey: text('discount_reservation_key'),
    /** The stock this session holds (stock_reservations.reservation_key): the checkout's idempotency key. */
    stockReservationKey: text('stock_reservation_key'),
    subtotalCents: integer('subtotal_cents').notNull(),
    discountCents: integer('discount_cents').notNull(),
    shippingCents: integer('shipping_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    itemCount: integer('item_count').notNull(),
    totalWeightTenthsOz: integer('total_weight_tenths_oz').notNull(),
    /** The signed shipping quote the customer chose (api/modules/shipping/quote-token.ts). */
    quoteId: text('quote_id').notNull(),
    shippingCarrier: text('shipping_carrier').notNull(),
    shippingService: text('shipping_service').notNull(),
    shippingServiceToken: text('shipping_service_token').notNull(),
    estimatedDaysMin: integer('estimated_days_min').notNull(),
    estimatedDaysMax: integer('estimated_days_max').notNull(),
    /** The order this session's payment made, once made: /success reads the whole answer from this row. */
    orderId: integer('order_id'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    // A paid order expires its customer's other open first-order sessions, found by their reservations.
    index('checkout_sessions_reservation_idx').on(table.discountReservationKey),
    // A cart's next session looks for one the shop ended under the same request's key (docs/decisions/032).
    index('checkout_sessions_stock_key_idx').on(table.stockReservationKey),
  ],
)

/**
 * Checkout requests between holding their reservations and storing their session (or giving up): the same
 * request sent twice at once holds under one key, so one of the two failing must not give back what the
 * other's session holds (docs/decisions/032). A row a crash leaves stops counting after IN_FLIGHT_LIMIT_MS,
 * and the sweep gives back what its request held (unless its key is not its alone) and removes it.
 */
export const checkoutRequests = sqliteTable(
  'checkout_requests',
  {
    /** The reservation key both the code's use and the units are held under (checkout_sessions.stock_reservation_key). */
    reservationKey: text('reservation_key').notNull(),
    /** One request's own id, random. */
    requestId: text('request_id').notNull(),
    startedAt: integer('started_at', { mode: 'timestamp_ms' }).notNull(),
  },
  // No index on the time: rows live from a reservation to its session's storing, so the sweep reads few.
  (table) => [primaryKey({ columns: [table.reservationKey, table.requestId] })],
)

/**
 * The built-in demo payment provider's own record of a session, standing in for the copy Stripe keeps.
 * Development only: the server refuses to start in production without Stripe keys.
 */
export const demoPaymentSessions = sqliteTable('demo_payment_sessions', {
  id: text('id').primaryKey(),
  /**
   * `<id>_secret_<random>`, as Stripe's: the payment page finds the session by the id in it, so nothing
   * looks a session up by its secret (no index).
   */
  clientSecret: text('client_secret').notNull(),
  /** A repeated request (double click) answers the session made the first time. */
  idempotencyKey: text('idempotency_key').notNull().unique(),
  status: text('status', { enum: ['open', 'complete', 'expired'] })
    .notNull()
    .default('open'),
  paymentStatus: text('payment_status', { enum: ['unpaid', 'paid'] })
    .notNull()
    .default('unpaid'),
  amountTotal: integer('amount_total').notNull(),
  currency: text('currency').notNull(),
  customerEmail: text('customer_email').notNull(),
  /** JSON: the provider-shaped request (line items, shipping option, metadata). */
  request: text('request').notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
})

/**
 * The demo provider's refunds, standing in for Stripe's record of them. A refund is inserted only while
 * the payment's total less its pending and succeeded refunds covers it, in one conditional INSERT, so
 * parallel refunds never return more than was paid.
 */
export const demoPaymentRefunds = sqliteTable(
  'demo_payment_refunds',
  {
    /** re_demo_… */
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => demoPaymentSessions.id),
    /** The same key again answers this refund; with other parameters it is refused. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    /** The request's parameters, as compared for a retry under the same key. */
    params: text('params').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed', 'canceled'] }).notNull(),
    failureReason: text('failure_reason'),
    /** JSON: string → string, the shop's metadata with staff's reason. */
    metadata: text('metadata').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [index('demo_payment_refunds_session_idx').on(table.sessionId)],
)

/**
 * Events the demo provider has to send, as Stripe keeps an event until the webhook takes it: written in
 * the same transaction as the change they announce, delivered signed, and kept until delivered.
 */
export const demoPaymentEvents = sqliteTable(
  'demo_payment_events',
  {
    /** evt_demo_… */
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    /** The event as Stripe would send it (JSON); its bytes are what gets signed. */
    payload: text('payload').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    deliveredAt: integer('delivered_at', { mode: 'timestamp_ms' }),
    /** Deliveries tried that the webhook did not take. */
    attempts: integer('attempts').notNull().default(0),
  },
  (table) => [index('demo_payment_events_pending_idx').on(table.deliveredAt, table.createdAt)],
)
