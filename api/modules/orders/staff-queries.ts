/** What staff read about orders: pages of them, one order's history, the counts, where a label is. */
import { labelVoided, ORDER_STATUSES, type OrderStatus } from '@core/rules/order-status'
import { and, asc, count, desc, eq, gte, inArray, lt } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { orderHistory, orderStatusCounts, orders } from '../../../db/schema/orders'
import { labelsDirFor } from '../../lib/data-folders'
import { type CancelledLabel, type LabelSource, labelSource, type RefundedLabel } from './label'
import type { OrderHistoryEntry, OrderRow } from './model'

export function createStaffQueries(deps: { db: Database; dataDir: string }) {
  const { db } = deps
  const queries = {
    /** Newest first, without lines. */
    async recent(limit = 50): Promise<OrderRow[]> {
      return queries.page({ limit })
    },

    /**
     * One page of orders, newest first, without lines: those numbered below `before` when it is given, in
     * one of `statuses` when they are. Keyset paging on the primary key (the status index holds it too), so
     * a page costs the same at order 100,000 as at order 10.
     */
    async page(options: { limit: number; before?: number; statuses?: OrderStatus[] }): Promise<OrderRow[]> {
      return db
        .select()
        .from(orders)
        .where(
          and(
            options.before === undefined ? undefined : lt(orders.id, options.before),
            options.statuses === undefined ? undefined : inArray(orders.status, options.statuses),
          ),
        )
        .orderBy(desc(orders.id))
        .limit(Math.min(Math.max(options.limit, 1), 500))
    },

    /** Every status move of an order, oldest first. */
    async history(orderId: number): Promise<OrderHistoryEntry[]> {
      return db
        .select()
        .from(orderHistory)
        .where(eq(orderHistory.orderId, orderId))
        .orderBy(asc(orderHistory.id))
    },

    /**
     * Where an order's label can be read: the built-in carrier's PDF under DATA_DIR/labels, or the carrier's
     * https address. Null when the order has none (or its stored address is neither); `cancelled` when the
     * order was cancelled, never to be printed, with where its void stands (null: not done yet; 'error':
     * refused or given up, for staff to void at the carrier); `refunded` when it was taken off an order
     * refunded in full before it shipped.
     */
    async label(orderId: number): Promise<LabelSource | CancelledLabel | RefundedLabel | null> {
      const [row] = await db
        .select({
          labelUrl: orders.labelUrl,
          reference: orders.labelReference,
          status: orders.status,
          voidStatus: orders.labelVoidStatus,
        })
        .from(orders)
        .where(eq(orders.id, orderId))
        .limit(1)
      if (row?.labelUrl && labelVoided(row.status)) return { kind: 'cancelled', voidStatus: row.voidStatus }
      if (row?.status === 'refunded' && !row.labelUrl && row.reference) return { kind: 'refunded' }
      return labelSource(row?.labelUrl ?? null, labelsDirFor(deps.dataDir))
    },

    /** How many orders are in each status, and how many were placed since `since`. */
    async counts(since: Date): Promise<{ byStatus: Record<OrderStatus, number>; placedSince: number }> {
      // Kept by triggers on every order change (migration 0010): a row per status, whatever the shop's size.
      const rows = await db
        .select({ status: orderStatusCounts.status, n: orderStatusCounts.orders })
        .from(orderStatusCounts)
      const byStatus = Object.fromEntries(ORDER_STATUSES.map((status) => [status, 0])) as Record<
        OrderStatus,
        number
      >
      for (const row of rows) byStatus[row.status] = row.n
      const [placed] = await db.select({ n: count() }).from(orders).where(gte(orders.createdAt, since))
      return { byStatus, placedSince: placed?.n ?? 0 }
    },
  }
  return queries
}
