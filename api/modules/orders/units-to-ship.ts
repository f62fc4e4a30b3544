/**
 * The units paid orders still have to ship, by product and the stock each line was sold from: what staff
 * counting a shelf leave out, since payment took them off the figure and shipping does not
 * (docs/decisions/026-stock-reserved-at-checkout.md). An order holds them while it could still be
 * cancelled (never shipped, not cancelled), and holds of each line the units a cancel would put back: not
 * those a refund put back on the shelf already, nor those refunded without restock (off the shelf).
 */
import { statusesThatCanMoveTo } from '@core/rules/order-status'
import { sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { orderLines, orderRefundLines, orders } from '../../../db/schema/orders'
import { neverShippedSql, unitsCancelPutsBackSql } from './refunds'

export interface UnitsToShip {
  productId: number
  /** The stock the lines were sold from ('' for a product without scents). */
  variant: string
  units: number
}

export function createUnitsToShip(db: Database) {
  return {
    /**
     * Units to ship, by product and stock variant; only `productId`'s when given. Lines of a stock nobody
     * named (an unknown product or scent when sold) are left out. The orders are found through the status
     * index: the shop's shipped and cancelled orders, nearly all of them, are never read.
     */
    async unitsToShip(productId?: number): Promise<UnitsToShip[]> {
      // An order that may not have shipped yet is one Cancel takes; a refunded one only if it never shipped
      // (a failed refund gives it back its status, shipped too), which its history says.
      const statuses = sql.join(
        statusesThatCanMoveTo('cancelled').map((status) => sql`${status}`),
        sql`, `,
      )
      // Most lines were never refunded: all their units, without working out what refunds left.
      const units = sql`case when ol.unsettled_on_shelf + ol.unsettled_out + ol.unsettled_off = 0
          and not exists (select 1 from ${orderRefundLines} rl where rl.line_id = ol.id)
        then ol.quantity else ${unitsCancelPutsBackSql(sql`ol.id`)} end`
      const rows = await db.all<UnitsToShip>(sql`select ol.product_id as productId,
          ol.stock_variant as variant, sum(${units}) as units
        from ${orders} o join ${orderLines} ol on ol.order_id = o.id
        where o.status in (${statuses})
          and (o.status <> 'refunded' or ${neverShippedSql(sql`o.id`)})
          and ol.stock_variant is not null
          and ${productId === undefined ? sql`1` : sql`ol.product_id = ${productId}`}
        group by ol.product_id, ol.stock_variant`)
      // Not a HAVING: SQLite would work each line's units out a second time for it.
      return rows.filter((row) => row.units > 0)
    },
  }
}
