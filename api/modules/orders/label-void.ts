/**
 * Voiding the label of an order that will not ship (cancelled, or refunded in full before it shipped), so
 * its postage comes back: the carrier's void never runs twice for one label (ShippingProvider.voidLabel),
 * and the order notes it once.
 */
import { formatOrderNumber } from '@core/rules/order-status'
import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { orders } from '../../../db/schema/orders'
import { type LabelToVoid, type ShippingProvider, UnknownLabelError } from '../../adapters/types'
import { errorMessage, log } from '../../lib/log'
import type { JobContext } from '../jobs/service'
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

  /**
   * The void will not be tried again (its job's last attempt failed, or its worker died in it): the order
   * says so, once, and tells staff to void the label at the carrier themselves, so the postage is not
   * lost without a word and the label is never said to be voided. A label taken off an order refunded in
   * full (`taken`, which its job carries) is noted in the history only, as its void is (voidAndNote).
   */
  async function noteVoidGivenUp(orderId: number, why: string, taken?: LabelToVoid): Promise<void> {
    const order = taken ? null : await deps.get(orderId)
    const label =
      taken?.trackingNumber ?? order?.shippoTrackingNumber ?? order?.labelReference ?? 'of this order'
    const reason = `Could not void label ${label} at the carrier (${why}): void it there to get the postage back`
    const unnoted = sql`${orders.labelVoidStatus} is null`
    await db.batch(
      taken
        ? [deps.refunds.historyNote(orderId, SYSTEM_ACTOR, reason, sql`1`)]
        : [
            deps.refunds.historyNote(orderId, SYSTEM_ACTOR, reason, unnoted),
            db
              .update(orders)
              .set({ labelVoidStatus: 'error' })
              .where(and(eq(orders.id, orderId), unnoted)),
          ],
    )
    log.error('label void given up', { order: formatOrderNumber(orderId) })
  }

  /**
   * Runs a void job's work; a failure is retried with the job, and on its last attempt the order notes
   * that the void was given up (noteVoidGivenUp, `taken` as there).
   */
  async function voidOrGiveUp(
    orderId: number,
    context: Pick<JobContext, 'lastAttempt'>,
    work: () => Promise<void>,
    taken?: LabelToVoid,
  ): Promise<void> {
    try {
      await work()
    } catch (error) {
      if (context.lastAttempt) await noteVoidGivenUp(orderId, errorMessage(error), taken)
      throw error
    }
  }

  /**
   * A cancelled order's label voided: the label on file, or one bought under the order's reference that
   * was never written down (a purchase cut short). None found: nothing was bought, or a purchase still
   * under way will find the order cancelled and void its label itself.
   */
  async function voidCancelled(orderId: number): Promise<void> {
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
  }

  return {
    voidAndNote,
    noteVoidGivenUp,

    /**
     * The void job of a cancelled order (and the label job's, when it finds its order cancelled: a void it
     * tried after buying may have failed). A failure is retried with the job; on its last attempt the
     * order notes that the void was given up.
     */
    voidLabel: (orderId: number, context: Pick<JobContext, 'lastAttempt'>): Promise<void> =>
      voidOrGiveUp(orderId, context, () => voidCancelled(orderId)),

    /**
     * The void job of a label taken off an order refunded in full before it shipped, which the job carries
     * (refunds.ts unshippedLabelVoidStatements). Noted in the history only: a failed refund may reopen the
     * order, which then buys another label, its own. Retried like a cancelled order's.
     */
    voidTakenLabel: (
      orderId: number,
      label: LabelToVoid,
      context: Pick<JobContext, 'lastAttempt'>,
    ): Promise<void> => voidOrGiveUp(orderId, context, () => voidAndNote(orderId, label, false), label),
  }
}

export type LabelVoid = ReturnType<typeof createLabelVoid>
