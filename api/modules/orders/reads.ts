import { asc, eq, inArray, sql } from 'drizzle-orm'
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

/** The two reads of one order, built once per database: every job reads its order (reads.ts readOrder). */
function orderQueries(db: Database) {
  return {
    order: db
      .select()
      .from(orders)
      .where(eq(orders.id, sql.placeholder('id')))
      .limit(1)
      .prepare(),
    lines: db
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, sql.placeholder('id')))
      .orderBy(asc(orderLines.position))
      .prepare(),
  }
}

const queriesOf = new WeakMap<Database, ReturnType<typeof orderQueries>>()

/** One order with its lines, or null. */
export async function readOrder(db: Database, id: number): Promise<Order | null> {
  let queries = queriesOf.get(db)
  if (!queries) {
    queries = orderQueries(db)
    queriesOf.set(db, queries)
  }
  const [row] = await queries.order.all({ id })
  if (!row) return null
  return withAddresses(row, await queries.lines.all({ id }))
}
