import { asc, eq, inArray } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { orderLines, orders } from '../../../db/schema/orders'
import type { ShippingAddress } from '../../adapters/types'
import type { Order, OrderLineRow, OrderRow } from './model'

function withAddresses(row: OrderRow, lines: OrderLineRow[]): Order {
  return {
    ...row,
    shippingAddress: JSON.parse(row.shippingAddress) as ShippingAddress,
    billingAddress: JSON.parse(row.billingAddress) as ShippingAddress,
    lines,
  }
}

/** Orders with their lines (in cart order) and addresses read. */
export async function withLines(db: Database, rows: OrderRow[]): Promise<Order[]> {
  if (rows.length === 0) return []
  const lines = await db
    .select()
    .from(orderLines)
    .where(
      inArray(
        orderLines.orderId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(orderLines.position))
  return rows.map((row) =>
    withAddresses(
      row,
      lines.filter((line) => line.orderId === row.id),
    ),
  )
}

/** One order with its lines, or null. */
export async function readOrder(db: Database, id: number): Promise<Order | null> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1)
  if (!row) return null
  const lines = await db
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, id))
    .orderBy(asc(orderLines.position))
  return withAddresses(row, lines)
}
