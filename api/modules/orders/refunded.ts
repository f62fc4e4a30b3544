import { COUNTED_REFUND_STATUSES } from '@core/rules/refunds'
import { and, inArray, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { orderRefunds } from '../../../db/schema/orders'

/**
 * How much of each order has been refunded, in cents, for the accountant's export and whatever else shows
 * an order's money: its refunds asked, pending or made (a failed one returned nothing). The one place that
 * answers it: one query for the whole page of orders asked about.
 */
export async function refundedCentsByOrder(
  db: Database,
  orderIds: readonly number[],
): Promise<Map<number, number>> {
  const refunded = new Map(orderIds.map((id) => [id, 0]))
  if (orderIds.length === 0) return refunded
  const rows = await db
    .select({ orderId: orderRefunds.orderId, cents: sql<number>`sum(${orderRefunds.amountCents})` })
    .from(orderRefunds)
    .where(
      and(
        inArray(orderRefunds.orderId, [...orderIds]),
        inArray(orderRefunds.status, [...COUNTED_REFUND_STATUSES]),
      ),
    )
    .groupBy(orderRefunds.orderId)
  for (const row of rows) refunded.set(row.orderId, Number(row.cents))
  return refunded
}
