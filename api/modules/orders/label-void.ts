/**
 * Voiding a cancelled order's label, so its postage comes back: the carrier's void never runs twice for
 * one label (ShippingProvider.voidLabel), and the order notes it once.
 */
import { formatOrderNumber } from '@core/rules/order-status'
import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { orders } from '../../../db/schema/orders'
import { type LabelToVoid, type ShippingProvider, UnknownLabelError } from '../../adapters/types'
import { log } from '../../lib/log'
import { type Order, SYSTEM_ACTOR } from './model'
import type { OrderRefunds } from './refunds'

export interface LabelVoidDeps {
  db: Database
  shipping: ShippingProvider
  get: (id: number) => Promise<Order | null>
  refunds: Pick<OrderRefunds, 'historyNote'>
}

export function createLabelVoid(deps: LabelVoidDeps) {
  const { db, shipping } = deps

  /**
   * Voids `label` at the carrier and notes it on the order, once: the first void recorded stands. A label
   * that is not the order's own (`ofOrder` false: one bought while the order was refunded in full, which
   * buys another if it is reopened) is noted in the history only, so the order's own label may be voided
   * later.
   */
  async function voidAndNote(orderId: number, label: LabelToVoid, ofOrder = true): Promise<void> {
    let status: string
    try {
      status = (await shipping.voidLabel(label)).status
    } catch (error) {
      // The carrier has no such label: nothing was bought, so there is nothing to give back.
      if (error instanceof UnknownLabelError) return
      throw error
    }
    const unnoted = sql`${orders.labelVoidStatus} is null`
    const reason =
      status === 'error'
        ? `The carrier refused to void label ${label.trackingNumber}: ask the carrier for the postage`
        : `Label ${label.trackingNumber} voided at the carrier (${status})`
    if (!ofOrder) await db.batch([deps.refunds.historyNote(orderId, SYSTEM_ACTOR, reason, sql`1`)])
    else
      await db.batch([
        deps.refunds.historyNote(orderId, SYSTEM_ACTOR, reason, unnoted),
        db
          .update(orders)
          .set({ labelVoidStatus: status })
          .where(and(eq(orders.id, orderId), unnoted)),
      ])
    log.info('label voided', { order: formatOrderNumber(orderId), status })
  }

  return {
    voidAndNote,

    /**
     * The void job of a cancelled order: the label on file, or one bought under the order's reference
     * that was never written down (a purchase cut short). None found: nothing was bought, or a purchase
     * still under way will find the order cancelled and void its label itself.
     */
    async voidLabel(orderId: number): Promise<void> {
      const order = await deps.get(orderId)
      const reference = order?.labelReference
      if (order?.status !== 'cancelled' || !reference || order.labelVoidStatus) return
      if (order.shippoTrackingNumber) {
        await voidAndNote(orderId, {
          reference,
          trackingNumber: order.shippoTrackingNumber,
          labelId: order.labelId,
        })
        return
      }
      const found = await shipping.findLabel(reference)
      if (found) {
        await voidAndNote(orderId, {
          reference,
          trackingNumber: found.trackingNumber,
          labelId: found.labelId,
        })
      }
    },
  }
}

export type LabelVoid = ReturnType<typeof createLabelVoid>
