/**
 * Order status moves: each one conditional UPDATE with its history entry in the same transaction, so a
 * move happens once however many workers or staff press for it (core/rules/order-status.ts).
 */
import { formatOrderNumber, type OrderStatus, statusesThatCanMoveTo } from '@core/rules/order-status'
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core'
import type { Database } from '../../../db/client'
import { orderHistory, orders } from '../../../db/schema/orders'
import type { Clock } from '../../lib/clock'
import { errorMessage, log } from '../../lib/log'
import type { Statement } from '../../lib/statements'
import type { JobQueue } from '../jobs/service'
import { type MoveNote, ORDER_JOBS, SYSTEM_ACTOR } from './model'

/**
 * The carrier reference of an order's label: the padded order number and the order's uid
 * (`000042-3f9c…`). The number alone comes back after a restored backup; the uid never does, so a label
 * found under this reference is this order's. An order that has a reference keeps it: a label may have
 * been bought under it (orders from before the uid carry the number alone).
 */
export function labelReferenceFor(id: number): SQL {
  return sql`coalesce(${orders.labelReference}, ${formatOrderNumber(id)} || '-' || ${orders.uid})`
}

export function createOrderMoves(deps: { db: Database; clock: Clock; jobs: JobQueue }) {
  const { db, clock, jobs } = deps

  /**
   * One move as statements for a transaction: the order moves to `to` only from `from` (or, given null,
   * from any status the rules allow: `statusesThatCanMoveTo`), so it cannot happen twice; `update` returns
   * the order's id only if it moved. A move the rules do not allow is a programming error.
   *
   * The history entry is an INSERT … SELECT with the same condition, run just before the UPDATE: both see
   * the same row, so the entry exists exactly when the move happened, and records the status the order
   * really left. A statement placed right after `update` can ask SQLite's changes() whether it moved.
   */
  function moveStatements(
    id: number,
    from: OrderStatus | null,
    to: OrderStatus,
    note: MoveNote,
    extra: SQLiteUpdateSetSource<typeof orders> = {},
  ) {
    const allowed = statusesThatCanMoveTo(to)
    if (from !== null && !allowed.includes(from))
      throw new Error(`an order cannot move from ${from} to ${to}`)
    const now = clock.now()
    const eligible = and(eq(orders.id, id), inArray(orders.status, from === null ? allowed : [from]))
    return {
      history:
        db.run(sql`insert into ${orderHistory} (order_id, from_status, to_status, actor, reason, created_at)
        select ${orders.id}, ${orders.status}, ${to}, ${note.actor}, ${note.reason.slice(0, 300)}, ${now.getTime()}
        from ${orders} where ${eligible}`),
      update: db
        .update(orders)
        .set({ ...extra, status: to, updatedAt: now })
        .where(eligible)
        .returning({ id: orders.id }),
    }
  }

  /**
   * Runs one move; false when the order was not in a status it may move from. `followUp` builds one more
   * statement for the same transaction (a job to queue) from a condition that holds only if the move
   * happened.
   */
  async function move(
    id: number,
    from: OrderStatus | null,
    to: OrderStatus,
    note: MoveNote,
    extra: SQLiteUpdateSetSource<typeof orders> = {},
    followUp?: (moved: SQL) => Statement,
  ): Promise<boolean> {
    const { history, update } = moveStatements(id, from, to, note, extra)
    const [, moved] = await db.batch([history, update, ...(followUp ? [followUp(sql`changes() > 0`)] : [])])
    return moved.length > 0
  }

  return {
    moveStatements,
    move,

    /** processing → failed with the reason staff read; a lost move (the order moved on meanwhile) is logged. */
    async failLabel(id: number, reason: string): Promise<void> {
      const failed = await move(
        id,
        'processing',
        'failed',
        { actor: SYSTEM_ACTOR, reason: `Label purchase failed: ${reason}` },
        { failureReason: reason.slice(0, 300) },
      )
      if (!failed) {
        log.error('order left processing before it could be marked failed', {
          order: formatOrderNumber(id),
          reason: errorMessage(reason),
        })
      }
    },

    /**
     * Staff Retry on a failed order: back to processing and a fresh label job, in one transaction; false if
     * it was not failed. Of two Retries at once only one moves the order, so only one job buys a label.
     */
    async retry(orderId: number, actor: string = SYSTEM_ACTOR): Promise<boolean> {
      return move(
        orderId,
        'failed',
        'processing',
        { actor, reason: 'Retry: buying the label again' },
        { labelReference: labelReferenceFor(orderId) },
        (moved) => jobs.enqueueQuery(ORDER_JOBS.purchaseLabel, { orderId }, { when: moved }),
      )
    },

    /**
     * label_created → shipped (staff handed the parcel to the carrier), with the customer's shipping e-mail
     * queued in the same transaction under a key of its own: pressed twice, or by two people, it moves the
     * order once and sends one e-mail. False if the order had no label yet or was shipped already.
     */
    async markShipped(orderId: number, actor: string): Promise<boolean> {
      return move(
        orderId,
        'label_created',
        'shipped',
        { actor, reason: 'Handed to the carrier' },
        {},
        (moved) =>
          jobs.enqueueQuery(
            ORDER_JOBS.shippedEmail,
            { orderId },
            {
              // By uid: an order number comes back after a restored backup.
              dedupeKey: sql`'order-shipped:' || (select ${orders.uid} from ${orders} where ${orders.id} = ${orderId})`,
              when: moved,
            },
          ),
      )
    },
  }
}

export type OrderMoves = ReturnType<typeof createOrderMoves>
