/**
 * Order status moves: each one conditional UPDATE with its history entry in the same transaction, so a
 * move happens once however many workers or staff press for it (core/rules/order-status.ts).
 */
import { formatOrderNumber, type OrderStatus, statusesThatCanMoveTo } from '@core/rules/order-status'
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core'
import type { Database } from '../../../db/client'
import { jobs as jobsTable } from '../../../db/schema/jobs'
import { orderHistory, orders } from '../../../db/schema/orders'
import type { Clock } from '../../lib/clock'
import { errorMessage, log } from '../../lib/log'
import { builtOnce, type Statement } from '../../lib/statements'
import type { JobQueue } from '../jobs/service'
import { type MoveNote, ORDER_JOBS, SYSTEM_ACTOR } from './model'

/** One status move: which order, from which status (null: any the rules allow), to which, who and why. */
export interface Move {
  id: number
  from: OrderStatus | null
  to: OrderStatus
  note: MoveNote
  /** Other columns that change with the move (the label's tracking number, a failure reason …). */
  extra?: SQLiteUpdateSetSource<typeof orders>
  /** A further condition the move needs, as SQL on the order's row (nothing left to refund …). */
  when?: SQL
}

/**
 * The carrier reference of an order's label: the padded order number and the order's uid
 * (`000042-3f9c…`). The number alone comes back after a restored backup; the uid never does, so a label
 * found under this reference is this order's. An order that has a reference keeps it: a label may have
 * been bought under it (orders from before the uid carry the number alone).
 */
export function labelReferenceFor(id: number): SQL {
  return labelReferenceOf(formatOrderNumber(id))
}

/** labelReferenceFor with the padded order number given as a value or as SQL (a placeholder). */
export function labelReferenceOf(number: string | SQL): SQL {
  return sql`coalesce(${orders.labelReference}, ${number} || '-' || ${orders.uid})`
}

interface MoveDeps {
  db: Database
  clock: Clock
  jobs: JobQueue
}

/**
 * One move as statements for a transaction: the order moves only from `from` (or from a status the rules
 * allow: `statusesThatCanMoveTo`), so it cannot happen twice; `update` returns the order's id only if it
 * moved. A move the rules do not allow is a programming error.
 *
 * The history entry is an INSERT … SELECT with the same condition, run just before the UPDATE: both see
 * the same row, so the entry exists exactly when the move happened, and records the status the order
 * really left. A statement placed right after `update` can ask SQLite's changes() whether it moved.
 */
function moveStatements({ db, clock }: Pick<MoveDeps, 'db' | 'clock'>, move: Move) {
  const { id, from, to, note } = move
  const allowed = statusesThatCanMoveTo(to)
  if (from !== null && !allowed.includes(from)) throw new Error(`an order cannot move from ${from} to ${to}`)
  const now = clock.now()
  const eligible = and(
    eq(orders.id, id),
    inArray(orders.status, from === null ? allowed : [from]),
    move.when,
  ) as SQL
  return {
    /**
     * The move's condition as a whole SQL condition (it reads the order's row itself), for statements on
     * other tables: run before `update` in the same transaction, they see it as it does.
     */
    eligible: sql`exists (select 1 from ${orders} where ${eligible})`,
    history:
      db.run(sql`insert into ${orderHistory} (order_id, from_status, to_status, actor, reason, created_at)
      select ${orders.id}, ${orders.status}, ${to}, ${note.actor}, ${note.reason.slice(0, 300)}, ${now.getTime()}
      from ${orders} where ${eligible}`),
    update: db
      .update(orders)
      .set({ ...move.extra, status: to, updatedAt: now })
      .where(eligible)
      .returning({ id: orders.id }),
  }
}

/**
 * A move whose SQL is the same on every call, built once (api/lib/statements.ts): its statuses are fixed
 * and `extra` sets its other columns from placeholders, filled from each call's values. The label job
 * makes two moves for every order, and building a move's SQL cost more than SQLite running it. The same
 * statements as moveStatements: history first, with the same condition, then the conditional UPDATE.
 */
function builtMove<Values extends Record<string, unknown>>(
  { db, clock }: Pick<MoveDeps, 'db' | 'clock'>,
  shape: { from: OrderStatus; to: OrderStatus; extra?: SQLiteUpdateSetSource<typeof orders> },
) {
  const { from, to } = shape
  if (!statusesThatCanMoveTo(to).includes(from)) throw new Error(`an order cannot move from ${from} to ${to}`)
  const eligible = and(eq(orders.id, sql.placeholder('id')), eq(orders.status, from)) as SQL
  const now = sql.placeholder('now')
  const history = builtOnce<Values & MoveValues>(() =>
    db.run(sql`insert into ${orderHistory} (order_id, from_status, to_status, actor, reason, created_at)
      select ${orders.id}, ${orders.status}, ${to}, ${sql.placeholder('actor')}, ${sql.placeholder('reason')}, ${now}
      from ${orders} where ${eligible}`),
  )
  const update = builtOnce<Values & MoveValues>(() =>
    db
      .update(orders)
      .set({ ...shape.extra, status: to, updatedAt: sql`${now}` })
      .where(eligible)
      .returning({ id: orders.id }),
  )
  /** Moves order `id` with `note`; false when it was not in `from`. */
  return async (id: number, note: MoveNote, values: Values): Promise<boolean> => {
    const all = {
      ...values,
      id,
      actor: note.actor,
      reason: note.reason.slice(0, 300),
      now: clock.now().getTime(),
    }
    const [, moved] = (await db.batch([history.with(all), update.with(all)])) as [unknown, unknown[]]
    return moved.length > 0
  }
}

/** The values every built move is given. */
type MoveValues = { id: number; actor: string; reason: string; now: number }

/**
 * A refunded order whose refund failed gets back the status it had before (its history says which), when
 * `when` holds: something is left to refund again. History first, with the same condition, as every move.
 * An order that had its label then had it voided when refunded in full before it shipped (refunds.ts
 * unshippedLabelVoidStatements): it has none now, so it goes back to pending. Back to pending or
 * processing, it needs its label again, and the label job that ran while it was refunded bought none: one
 * is queued (reopenedLabelJob below).
 */
function reopenStatements({ db, clock, jobs }: MoveDeps, id: number, reason: string, when: SQL) {
  // The last move into refunded (notes written while refunded go from refunded to refunded).
  const before = sql`(select h.from_status from ${orderHistory} h
    where h.order_id = ${orders.id} and h.to_status = 'refunded' and h.from_status != 'refunded'
    order by h.id desc limit 1)`
  const back = sql`(case when ${before} = 'label_created' and ${orders.shippoTrackingNumber} is null
    then 'pending' else ${before} end)`
  const eligible = and(eq(orders.id, id), eq(orders.status, 'refunded'), sql`${before} is not null`, when)
  const now = clock.now().getTime()
  return [
    db.run(sql`insert into ${orderHistory} (order_id, from_status, to_status, actor, reason, created_at)
      select ${orders.id}, ${orders.status}, ${back}, ${SYSTEM_ACTOR}, ${reason.slice(0, 300)}, ${now}
      from ${orders} where ${eligible}`),
    db
      .update(orders)
      .set({ status: back, updatedAt: new Date(now) })
      .where(eligible),
    reopenedLabelJob(jobs, id, now),
  ]
}

/**
 * How long one label job may still be at the carrier: its calls time out (Shippo's after 20 s each, a rate
 * and a purchase), far inside this. Not the job lease, which a running job renews (jobs/service.ts), so
 * however short JOB_LEASE_SECONDS is set, it bounds nothing about a job already running.
 */
const LONGEST_LABEL_ATTEMPT_MS = 5 * 60 * 1000

/**
 * The label job of an order just reopened to pending or processing (the UPDATE before it changed a row),
 * unless one is still queued: that one buys it. It runs LONGEST_LABEL_ATTEMPT_MS from now, so a label job
 * running at this moment has ended by then and the two never overlap; the later one finds the label
 * bought, or asks the carrier for it (labels.ts).
 */
function reopenedLabelJob(jobs: JobQueue, id: number, now: number): Statement {
  return jobs.enqueueQuery(
    ORDER_JOBS.purchaseLabel,
    { orderId: id },
    {
      runAt: new Date(now + LONGEST_LABEL_ATTEMPT_MS),
      when: sql`changes() > 0
        and (select ${orders.status} from ${orders} where ${orders.id} = ${id}) in ('pending', 'processing')
        and not exists (select 1 from ${jobsTable} j where j.type = ${ORDER_JOBS.purchaseLabel}
          and j.status = 'queued' and json_extract(j.payload, '$.orderId') = ${id})`,
    },
  )
}

/** The shipping e-mail's job, keyed by the order's uid: an order number comes back after a restored backup. */
function shippedEmailJob(jobs: JobQueue, orderId: number, moved: SQL): Statement {
  return jobs.enqueueQuery(
    ORDER_JOBS.shippedEmail,
    { orderId },
    {
      dedupeKey: sql`'order-shipped:' || (select ${orders.uid} from ${orders} where ${orders.id} = ${orderId})`,
      when: moved,
    },
  )
}

export function createOrderMoves(deps: MoveDeps) {
  const { db, jobs } = deps

  /**
   * Runs one move in its own transaction; false when the order was not in a status it may move from.
   * `followUp` builds one more statement for that transaction (a job to queue) from a condition that holds
   * only if the move happened.
   */
  async function move(change: Move, followUp?: (moved: SQL) => Statement): Promise<boolean> {
    const { history, update } = moveStatements(deps, change)
    const [, moved] = await db.batch([history, update, ...(followUp ? [followUp(sql`changes() > 0`)] : [])])
    return moved.length > 0
  }

  return {
    move,

    /** A move built once, for one that runs for every order (builtMove above). */
    built: <Values extends Record<string, unknown>>(shape: Parameters<typeof builtMove>[1]) =>
      builtMove<Values>(deps, shape),

    /** One move as statements, for a transaction the caller composes (moveStatements above). */
    moveStatements: (change: Move) => moveStatements(deps, change),

    /** A refunded order back to the status it had, as statements (reopenStatements above). */
    reopenStatements: (id: number, reason: string, when: SQL) => reopenStatements(deps, id, reason, when),

    /** processing → failed with the reason staff read; a lost move (the order moved on meanwhile) is logged. */
    async failLabel(id: number, reason: string): Promise<void> {
      const note = { actor: SYSTEM_ACTOR, reason: `Label purchase failed: ${reason}` }
      const extra = { failureReason: reason.slice(0, 300) }
      if (await move({ id, from: 'processing', to: 'failed', note, extra })) return
      log.error('order left processing before it could be marked failed', {
        order: formatOrderNumber(id),
        reason: errorMessage(reason),
      })
    },

    /**
     * Staff Retry on a failed order: back to processing and a fresh label job, in one transaction; false if
     * it was not failed. Of two Retries at once only one moves the order, so only one job buys a label.
     */
    async retry(orderId: number, actor: string = SYSTEM_ACTOR): Promise<boolean> {
      const note = { actor, reason: 'Retry: buying the label again' }
      const extra = { labelReference: labelReferenceFor(orderId) }
      return move({ id: orderId, from: 'failed', to: 'processing', note, extra }, (moved) =>
        jobs.enqueueQuery(ORDER_JOBS.purchaseLabel, { orderId }, { when: moved }),
      )
    },

    /**
     * label_created → shipped (staff handed the parcel to the carrier), with the customer's shipping e-mail
     * queued in the same transaction under a key of its own: pressed twice, or by two people, it moves the
     * order once and sends one e-mail. False if the order had no label yet or was shipped already.
     */
    async markShipped(orderId: number, actor: string): Promise<boolean> {
      const note = { actor, reason: 'Handed to the carrier' }
      return move({ id: orderId, from: 'label_created', to: 'shipped', note }, (moved) =>
        shippedEmailJob(jobs, orderId, moved),
      )
    },
  }
}

export type OrderMoves = ReturnType<typeof createOrderMoves>
