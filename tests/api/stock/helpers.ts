/** Reading stock straight from the database, as the tests count it. */
import { and, eq, sql } from 'drizzle-orm'
import { stockLevels, stockReservations } from '../../../db/schema/stock'
import type { TestApp } from '../support/test-app'

/** Units on the shelf of a product and variant: undefined when it has no row, null when not counted. */
export async function onHand(
  shop: TestApp,
  productId: number,
  variant: string,
): Promise<number | null | undefined> {
  const [row] = await shop.deps.db
    .select({ onHand: stockLevels.onHand })
    .from(stockLevels)
    .where(and(eq(stockLevels.productId, productId), eq(stockLevels.variant, variant)))
  return row?.onHand
}

/** Reservations by status, with the units each status holds. */
export async function reservationsOf(shop: TestApp, productId: number, variant: string) {
  const rows = await shop.deps.db
    .select({
      status: stockReservations.status,
      units: sql<number>`sum(${stockReservations.quantity})`,
      rows: sql<number>`count(*)`,
    })
    .from(stockReservations)
    .where(and(eq(stockReservations.productId, productId), eq(stockReservations.variant, variant)))
    .groupBy(stockReservations.status)
  return Object.fromEntries(rows.map((row) => [row.status, { units: row.units, rows: row.rows }]))
}
