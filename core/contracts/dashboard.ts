import { t } from 'elysia'
import { ORDER_STATUSES } from '../rules/order-status'
import { REFUND_ORIGINS, REFUND_STATUSES } from '../rules/refunds'
import { WEBHOOK_EVENT_STATUSES } from '../rules/webhook-event-status'
import { orderAddressSchema } from './address'
import { wholeNumber } from './whole-number'

/** One day of the dashboard's chart: a calendar day in the shop's time zone. */
export const statsDaySchema = t.Object({
  /** 'YYYY-MM-DD' in SHOP_TIME_ZONE. */
  date: t.String(),
  /** Orders placed that day. */
  orders: wholeNumber(),
  /** Dollars charged for them (the orders' totals). */
  takings: t.Number(),
})

export type StatsDay = typeof statsDaySchema.static

/** How many days the chart shows, today included. */
export const STATS_DAYS = 30

/**
 * docs/product.md#catalogue Dashboard stats. `processing` counts orders still waiting for their label (pending too);
 * `days` holds the last STATS_DAYS days, oldest first, today last.
 */
export const dashboardStatsSchema = t.Object({
  ordersToday: wholeNumber(),
  processing: wholeNumber(),
  shipped: wholeNumber(),
  failed: wholeNumber(),
  days: t.Array(statsDaySchema),
  /**
   * SHOP_TIME_ZONE, an IANA name ('America/Chicago'): the zone of `ordersToday`, `days`, the orders' 'from'
   * and 'to' and the CSV export. The browser cannot know it, and shows every time on the dashboard in it.
   */
  timeZone: t.String(),
})

export type DashboardStats = typeof dashboardStatsSchema.static

const dimensionsSchema = t.Object({ width: t.Number(), length: t.Number(), height: t.Number() })

/** docs/product.md#catalogue Package recommendation: the mailer for an item count, inches. */
export const packageRecommendationSchema = t.Object({
  type: t.UnionEnum(['small', 'medium', 'large'] as const),
  dimensions: dimensionsSchema,
})

export type PackageRecommendationAnswer = typeof packageRecommendationSchema.static

/**
 * docs/product.md#catalogue Dashboard order, plus what staff need to act on it: the padded number, carrier and service,
 * why a label purchase failed, and the app's own label route (never the carrier's file location).
 */
export const dashboardOrderSchema = t.Object({
  id: wholeNumber(),
  /** Padded to 6 digits, as staff and customers read it. */
  number: t.String(),
  customerName: t.String(),
  customerEmail: t.String(),
  itemCount: wholeNumber(),
  /** Ounces, one decimal. */
  totalWeight: t.Number(),
  packageType: t.UnionEnum(['small', 'medium', 'large'] as const),
  packageDimensions: dimensionsSchema,
  status: t.UnionEnum(ORDER_STATUSES),
  createdAt: t.String(),
  /** Dollars. */
  totalAmount: t.Number(),
  shippoTrackingNumber: t.Nullable(t.String()),
  carrier: t.String(),
  shippingService: t.String(),
  failureReason: t.Nullable(t.String()),
  /**
   * Why the payment broke a per-customer rule of its discount code (the first-order code on a second
   * order), else null: the money was taken at that price, and staff decide what to do.
   */
  discountWarning: t.Nullable(t.String()),
  /**
   * Why the payment found too few units (its stock hold had run out and others took them), else null: the
   * money was taken, and staff decide whether to wait for more or refund.
   */
  stockWarning: t.Nullable(t.String()),
  /** /api/orders/{id}/label once a label is bought, else null. */
  labelUrl: t.Nullable(t.String()),
})

export type DashboardOrder = typeof dashboardOrderSchema.static

/** One status move, as the order detail view lists it. */
export const historyEntrySchema = t.Object({
  from: t.Nullable(t.UnionEnum(ORDER_STATUSES)),
  to: t.UnionEnum(ORDER_STATUSES),
  /** 'system', or the staff member's user id. */
  actor: t.String(),
  /** 'System', or the staff member's e-mail (or a note that the account is gone). */
  actorName: t.String(),
  reason: t.String(),
  at: t.String(),
})

export type HistoryEntry = typeof historyEntrySchema.static

/** One refund of an order, as staff see it (docs/product.md#refunds). Amounts in dollars. */
export const refundSchema = t.Object({
  /** The shop's id, also its idempotency key at the payment provider. */
  id: t.String(),
  orderId: wholeNumber(),
  number: t.String(),
  /** 'refund' (staff's Refund), 'cancel' (staff's Cancel), 'provider' (made in the provider's dashboard). */
  origin: t.UnionEnum(REFUND_ORIGINS),
  /** 'requested' until the provider has made it; 'failed' and 'canceled' returned nothing. */
  status: t.UnionEnum(REFUND_STATUSES),
  amount: t.Number(),
  reason: t.Nullable(t.String()),
  /** Staff asked for the units to go back on the shelf. */
  restock: t.Boolean(),
  /** The units went back (when the refund was made). */
  restocked: t.Boolean(),
  /** Why the provider refused or failed it, or why it is not confirmed yet. */
  failureReason: t.Nullable(t.String()),
  lines: t.Array(
    t.Object({
      lineId: wholeNumber(),
      name: t.String(),
      variant: t.Nullable(t.String()),
      quantity: wholeNumber(),
      amount: t.Number(),
    }),
  ),
  /** Who asked: a staff member's e-mail, 'The payment provider', or a note that the account is gone. */
  actorName: t.String(),
  createdAt: t.String(),
  updatedAt: t.String(),
})

export type RefundAnswer = typeof refundSchema.static

/** POST /api/orders/{id}/refunds: 201 with what became of the refund, and a sentence for staff. */
export const refundResponse = t.Object({ message: t.String(), refund: refundSchema })
export type RefundResponse = typeof refundResponse.static

export const orderDetailSchema = t.Composite([
  dashboardOrderSchema,
  t.Object({
    lines: t.Array(
      t.Object({
        /** What a refund by lines names. */
        id: wholeNumber(),
        productId: wholeNumber(),
        name: t.String(),
        variant: t.Nullable(t.String()),
        quantity: wholeNumber(),
        unitAmount: t.Number(),
        /** Before the line's share of the discount. */
        lineTotal: t.Number(),
        /** What the line was paid: its total less its share of the discount. */
        paid: t.Number(),
        /** Units counted as refunded (asked, pending or made). */
        refundedQuantity: wholeNumber(),
        /** What the refunds of those units return, in dollars. */
        refunded: t.Number(),
        /** Ounces for the whole line, one decimal. */
        weight: t.Number(),
      }),
    ),
    shippingAddress: orderAddressSchema,
    billingAddress: orderAddressSchema,
    subtotal: t.Number(),
    discount: t.Number(),
    discountCode: t.Nullable(t.String()),
    shipping: t.Number(),
    /** Counted refunds (asked, pending or made), and what is left to refund. */
    refunded: t.Number(),
    refundable: t.Number(),
    /** Not shipped and not cancelled: Cancel is offered. */
    cancellable: t.Boolean(),
    cancelledAt: t.Nullable(t.String()),
    /** A cancelled order's label void, as the carrier answered ('success', 'pending', 'error' …), or null. */
    labelVoidStatus: t.Nullable(t.String()),
    refunds: t.Array(refundSchema),
    history: t.Array(historyEntrySchema),
  }),
])

export type OrderDetail = typeof orderDetailSchema.static

/**
 * Counted stock: units on the shelf (below 0: units paid orders are owed, the shelf having had too few),
 * and how many of them open checkouts leave free.
 */
export const stockLevelSchema = t.Object({ onHand: wholeNumber(), available: wholeNumber() })

export type StockLevelAnswer = typeof stockLevelSchema.static

/**
 * The units of a product or variant that paid orders still have to ship (never shipped, not cancelled, less
 * what refunds put back or kept off the shelf), counted or not: a count of the shelf leaves them out, since
 * payment took them off the figure (docs/decisions/026-stock-reserved-at-checkout.md).
 */
const toShip = wholeNumber({ minimum: 0 })

/** docs/product.md#catalogue Dashboard product. */
export const dashboardProductSchema = t.Object({
  id: wholeNumber(),
  name: t.String(),
  description: t.String(),
  /** Ounces, one decimal. */
  weight: t.Number(),
  /** A product without variants: its stock, or null when nobody counts it. Null for one with variants. */
  stock: t.Nullable(stockLevelSchema),
  /** A product without variants: its units paid orders still have to ship. Null for one with variants. */
  toShip: t.Nullable(toShip),
  /**
   * Its variants (scents) in the catalogue's order, each with its stock or null and its units to ship;
   * [] when it has none.
   */
  variants: t.Array(t.Object({ name: t.String(), stock: t.Nullable(stockLevelSchema), toShip })),
  /**
   * Counted stock its content no longer lists (a scent renamed or removed; '' for its own figure once it
   * has scents) with units on the shelf or owed: units of earlier orders come back there. [] when none.
   */
  formerVariants: t.Array(t.Object({ name: t.String(), stock: stockLevelSchema, toShip })),
})

export type DashboardProduct = typeof dashboardProductSchema.static

/** docs/product.md#catalogue Webhook event. */
export const webhookEventSchema = t.Object({
  id: t.String(),
  eventType: t.String(),
  orderId: t.Nullable(wholeNumber()),
  status: t.UnionEnum(WEBHOOK_EVENT_STATUSES),
  processingTimeMs: t.Nullable(wholeNumber()),
  createdAt: t.String(),
})

export type WebhookEventAnswer = typeof webhookEventSchema.static

export const orderActionResponse = t.Object({ message: t.String(), order: dashboardOrderSchema })
export type OrderActionResponse = typeof orderActionResponse.static

export const weightResponse = t.Object({ message: t.String(), product: dashboardProductSchema })
export type WeightResponse = typeof weightResponse.static

export const stockResponse = t.Object({ message: t.String(), product: dashboardProductSchema })
export type StockResponse = typeof stockResponse.static

/** ?limit=&before= of the paged lists; checked by the service for a 422 that says what is wrong. */
export const pageQuery = t.Object({
  limit: t.Optional(t.String()),
  before: t.Optional(t.String()),
})

/**
 * What the orders list and the export look for, each checked by the service for a 422 that says what is
 * wrong: ?q= an order number ('42', '#000042'), an e-mail or its start, or the start of a name;
 * ?status=failed or ?status=label_created,failed (any of these); ?from= and ?to= days ('2026-03-01') in the
 * shop's time zone, both included.
 */
export const orderFiltersQuery = t.Object({
  q: t.Optional(t.String()),
  status: t.Optional(t.String()),
  from: t.Optional(t.String()),
  to: t.Optional(t.String()),
})

export type OrderFilters = typeof orderFiltersQuery.static

/** The orders list: the filters, a page at a time (?limit=, ?before= an order number). */
export const ordersQuery = t.Composite([orderFiltersQuery, pageQuery])

export type OrdersQuery = typeof ordersQuery.static

/** An order e-mail that gave up: its job, its order, and why the mail server refused it. */
export const failedEmailSchema = t.Object({
  /** The job that sends it. */
  id: wholeNumber(),
  /** Null when the order is gone (a restored backup without it). */
  orderId: t.Nullable(wholeNumber()),
  number: t.Nullable(t.String()),
  /** Which e-mail: 'Order confirmation', 'Shipping confirmation'. */
  email: t.String(),
  customerName: t.String(),
  customerEmail: t.String(),
  /** The last attempt's error. */
  error: t.String(),
  attempts: wholeNumber(),
  failedAt: t.String(),
})

export type FailedEmail = typeof failedEmailSchema.static

export const emailRetryResponse = t.Object({
  message: t.String(),
  /** E-mails this call queued again: 0 when they were queued already (by an earlier Retry). */
  queued: wholeNumber(),
})

export type EmailRetryResponse = typeof emailRetryResponse.static

export const idParams = t.Object({ id: t.String() })

/**
 * A refund the provider failed or refused, or one it never confirmed, that staff have not settled by
 * refunding the order again (docs/product.md#dashboard).
 */
export const unsettledRefundSchema = t.Object({
  refund: refundSchema,
  customerName: t.String(),
  customerEmail: t.String(),
  /** What is left to refund of its order, in dollars. */
  refundable: t.Number(),
})

export type UnsettledRefund = typeof unsettledRefundSchema.static

/** Most rows one page may hold. */
export const PAGE_LIMIT_MAX = 100
export const PAGE_LIMIT_DEFAULT = 50
