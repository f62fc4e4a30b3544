import { ORDER_NUMBER_DIGITS } from '@core/rules/order-status'
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm'

/**
 * An order's number in SQL, as formatOrderNumber writes it (core/rules/order-status.ts): for the one
 * transaction that makes an order, where the new order's id exists only inside the database. The discount
 * use it redeems and the warning it may carry name the order by number in that same transaction; a
 * batch cannot hand the id back to JavaScript halfway (docs/decisions/024-one-owner-for-fulfilment.md).
 * Everything outside that transaction formats in JavaScript.
 *
 * `id` must not be NULL: SQLite's printf writes NULL as zeros. Apply it inside the subquery that finds
 * the order, so no order gives NULL rather than '000000'.
 */
export function orderNumberSql(id: SQLWrapper): SQL<string> {
  return sql<string>`printf(${`%0${ORDER_NUMBER_DIGITS}d`}, ${id})`
}
