/**
 * An order's refunds (order_refunds, order_refund_lines): what is counted and left, the conditional INSERT
 * that records a refund only while it fits, a refund's status moving forward as news arrives, and the
 * reads staff, customers and the accountant see (docs/decisions/027-cancel-and-refund.md).
 *
 * Every statement here is for a transaction the fulfilment service composes. A statement that should run
 * only when another changes a row is written before that one with the same condition, as status moves
 * write their history: in one transaction both see the same rows.
 */
import { randomBytes } from 'node:crypto'
import {
  COUNTED_REFUND_STATUSES,
  countsAsRefunded,
  REFUND_STATUSES,
  type RefundOrigin,
  type RefundStatus,
  refundStatusRank,
} from '@core/rules/refunds'
import { and, asc, desc, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { orderHistory, orderLines, orderRefundLines, orderRefunds, orders } from '../../../db/schema/orders'
import type { Clock } from '../../lib/clock'
import type { Statement } from '../../lib/statements'
import type { JobQueue } from '../jobs/service'
import { ORDER_JOBS, type Refund, type RefundRow, SYSTEM_ACTOR } from './model'
import { labelReferenceFor } from './moves'

/** A new refund's id, which is also its idempotency key at the payment provider. */
export function newRefundId(): string {
  return `rf_${randomBytes(10).toString('hex')}`
}

const counted = sql.join(
  COUNTED_REFUND_STATUSES.map((status) => sql`${status}`),
  sql`, `,
)

/** SQL: the cents of an order's counted refunds (asked, pending or succeeded). */
export function refundedSql(orderId: number): SQL<number> {
  return sql<number>`(select coalesce(sum(r.amount_cents), 0) from ${orderRefunds} r
    where r.order_id = ${orderId} and r.status in (${counted}))`
}

/** SQL: what is left to refund of an order: what it paid less its counted refunds. */
export function leftSql(orderId: number): SQL<number> {
  return sql<number>`((select o.total_cents from ${orders} o where o.id = ${orderId}) - ${refundedSql(orderId)})`
}

/** SQL: the cents of the refund `id`, 0 while there is none (a transaction's own refund, once it made it). */
export function refundAmountSql(id: string): SQL<number> {
  return sql<number>`coalesce((select r.amount_cents from ${orderRefunds} r where r.id = ${id}), 0)`
}

/** SQL: the units of an order line counted as refunded, or (`cents`) what those refunds return. */
function lineRefundedSql(lineId: number, what: 'units' | 'cents' = 'units'): SQL<number> {
  const column = what === 'units' ? orderRefundLines.quantity : orderRefundLines.amountCents
  return sql<number>`(select coalesce(sum(rl.${sql.identifier(column.name)}), 0) from ${orderRefundLines} rl
    join ${orderRefunds} r on r.id = rl.refund_id where rl.line_id = ${lineId} and r.status in (${counted}))`
}

/** SQL: how many of an order's refunds have put their units back on the shelf. */
export function restockedCountSql(orderId: number): SQL<number> {
  return sql<number>`(select count(*) from ${orderRefunds} r where r.order_id = ${orderId} and r.restocked_at is not null)`
}

/**
 * SQL: the units of an order line a cancel puts back on the shelf (docs/decisions/027-cancel-and-refund.md):
 * those never refunded (the line's units less those its standing refunds cover and those unsettled), those
 * unsettled out (a failed refund's, the order's to ship), and those of restocking refunds not made yet
 * (made after the cancel they put nothing back, so the cancel does, but those already on the shelf). Units
 * refunded without restock stay off (a broken jar), as do unsettled ones off the shelf; units restocking
 * refunds put back are there already. Worked out in the cancel's transaction. The same units are what an
 * order never shipped still holds to ship (units-to-ship.ts): `lineId` may be SQL naming an outer query's line.
 */
export function unitsCancelPutsBackSql(lineId: number | SQL): SQL<number> {
  const standing = sql`r.status in (${counted})`
  // Never more than the line's units not on the shelf already (a row from before these records may say more).
  return sql<number>`(select min(l.quantity - coalesce(sum(rl.restocked_quantity), 0), max(0, l.quantity - coalesce(sum(case when ${standing} then rl.quantity else 0 end), 0)
        - l.unsettled_on_shelf - l.unsettled_out - l.unsettled_off)
      + l.unsettled_out
      + coalesce(sum(case when ${standing} and r.restock = 1 and r.restocked_at is null
          then rl.quantity - rl.settles_on_shelf else 0 end), 0))
    from ${orderLines} l
    left join ${orderRefundLines} rl on rl.line_id = l.id
    left join ${orderRefunds} r on r.id = rl.refund_id
    where l.id = ${lineId})`
}

/** SQL: the units of an order line that refund `refundId` put back on the shelf (0 before it is made, or once taken off again). */
export function unitsPutBackBySql(refundId: string, lineId: number): SQL<number> {
  return sql<number>`coalesce((select rl.restocked_quantity from ${orderRefundLines} rl
    where rl.refund_id = ${refundId} and rl.line_id = ${lineId}), 0)`
}

/** SQL: the refund's units are marked as put back on the shelf. */
export function restockedSql(refundId: string): SQL {
  return sql`exists (select 1 from ${orderRefunds} r where r.id = ${refundId} and r.restocked_at is not null)`
}

/** SQL: the id of the refund the provider knows by `providerRefundId` (NULL while there is none). */
export function refundIdByProviderSql(providerRefundId: string): SQL<string> {
  return sql<string>`(select r.id from ${orderRefunds} r where r.provider_refund_id = ${providerRefundId})`
}

/** SQL: the order is not cancelled (a cancel puts every unit back itself). */
export function notCancelledSql(orderId: number): SQL {
  return sql`exists (select 1 from ${orders} o where o.id = ${orderId} and o.status != 'cancelled')`
}

/** SQL: the order never moved to shipped (its history would say so, whatever its status now). */
export function neverShippedSql(orderId: number | SQL): SQL {
  return sql`not exists (select 1 from ${orderHistory} h where h.order_id = ${orderId} and h.to_status = 'shipped')`
}

/** A refund the shop asks for: Refund by lines or amount, or a Cancel's refund of what is left. */
export interface RefundPlan {
  id: string
  orderId: number
  origin: Exclude<RefundOrigin, 'provider'>
  amountCents: number
  /** The lines refunded, with the units each had refunded when the amounts were worked out. */
  lines: {
    lineId: number
    quantity: number
    amountCents: number
    /** The line's units counted as refunded, and the cents they return, when the amount was worked out. */
    refundedBefore: number
    refundedCentsBefore: number
  }[]
  restock: boolean
  reason: string | null
  actor: string
  requestKey: string | null
  /** A further condition for recording it (a cancel's: the order is being cancelled by this transaction). */
  when?: SQL
}

/** What the provider says of a refund: its status, its id, why it failed. */
export interface RefundNews {
  status: RefundStatus
  providerRefundId: string | null
  failureReason: string | null
}

/** Statuses a refund may leave for `news`: those further back. */
function statusesBefore(news: RefundStatus): RefundStatus[] {
  return REFUND_STATUSES.filter((status) => refundStatusRank(status) < refundStatusRank(news))
}

const refundExists = (id: string) =>
  sql`exists (select 1 from ${orderRefunds} where ${orderRefunds.id} = ${id})`

export function createOrderRefunds(deps: { db: Database; clock: Clock; jobs: JobQueue }) {
  const { db, clock, jobs } = deps

  /** A line in the order's history that moves nothing (a refund, a void), when `when` holds. */
  function historyNote(orderId: number, actor: string, reason: string, when: SQL): Statement {
    return db.run(sql`insert into ${orderHistory} (order_id, from_status, to_status, actor, reason, created_at)
      select ${orders.id}, ${orders.status}, ${orders.status}, ${actor}, ${reason.slice(0, 300)}, ${clock.now().getTime()}
      from ${orders} where ${orders.id} = ${orderId} and ${when}`)
  }

  /**
   * A refund line, recorded with the units it takes over from the line's failed refunds (`unsettled_*`),
   * which it covers first: a unit refunded again after its refund failed is the same unit. A restocking
   * refund takes those on the shelf first (they are back already), then those out, then those off; one
   * without restock those out first (they go off the shelf), then off, then on the shelf: of the readings
   * the units allow, the one with the fewest on the shelf, so the shelf never holds a unit that is not there.
   * The line then has those units no longer unsettled (docs/decisions/027-cancel-and-refund.md).
   */
  function takeOverStatements(plan: RefundPlan, line: RefundPlan['lines'][number], made: SQL): Statement[] {
    const [first, second, third] = plan.restock
      ? (['unsettled_on_shelf', 'unsettled_out', 'unsettled_off'] as const)
      : (['unsettled_out', 'unsettled_off', 'unsettled_on_shelf'] as const)
    const column = (name: string) => sql.raw(name)
    const k = line.quantity
    const taken = sql`select a, b, min(${k} - a - b, c) as c from (
        select a, min(${k} - a, b) as b, c from (
          select min(${k}, l.${column(first)}) as a, l.${column(second)} as b, l.${column(third)} as c
          from ${orderLines} l where l.id = ${line.lineId}))`
    const settles = (name: string) =>
      name === 'unsettled_on_shelf'
        ? 'settles_on_shelf'
        : name === 'unsettled_out'
          ? 'settles_out'
          : 'settles_off'
    const settled = (name: string) =>
      sql`(select rl.${column(settles(name))} from ${orderRefundLines} rl
        where rl.refund_id = ${plan.id} and rl.line_id = ${line.lineId})`
    return [
      db.run(sql`insert into ${orderRefundLines}
          (refund_id, line_id, quantity, amount_cents, ${column(settles(first))}, ${column(settles(second))}, ${column(settles(third))})
        select ${plan.id}, ${line.lineId}, ${k}, ${line.amountCents}, t.a, t.b, t.c from (${taken}) t where ${made}`),
      db.run(sql`update ${orderLines} set
          unsettled_on_shelf = unsettled_on_shelf - ${settled('unsettled_on_shelf')},
          unsettled_out = unsettled_out - ${settled('unsettled_out')},
          unsettled_off = unsettled_off - ${settled('unsettled_off')}
        where id = ${line.lineId} and ${made}`),
    ]
  }

  /**
   * The refund as statements: the row, only while the order has that much left and each line still has
   * the units and cents counted when its amount was worked out (a refund made or failed meanwhile sends the
   * caller back to work it out again); its lines; a history line; the job that asks the provider (keyed by
   * the refund, so queued once). `made` is SQL true once the row exists: this transaction made it, since its id is new.
   */
  function requestStatements(plan: RefundPlan, history: string | null) {
    const now = clock.now().getTime()
    const made = refundExists(plan.id)
    const fits = and(
      sql`${plan.amountCents} > 0`,
      sql`${leftSql(plan.orderId)} >= ${plan.amountCents}`,
      ...plan.lines.flatMap((line) => [
        sql`${lineRefundedSql(line.lineId)} = ${line.refundedBefore}`,
        sql`${lineRefundedSql(line.lineId, 'cents')} = ${line.refundedCentsBefore}`,
      ]),
      plan.when,
    ) as SQL
    const statements: Statement[] = [
      db.run(sql`insert into ${orderRefunds}
          (id, order_id, origin, amount_cents, status, restock, reason, actor, request_key, created_at, updated_at)
        select ${plan.id}, ${plan.orderId}, ${plan.origin}, ${plan.amountCents}, 'requested', ${plan.restock ? 1 : 0},
               ${plan.reason}, ${plan.actor}, ${plan.requestKey}, ${now}, ${now}
        where ${fits}
        on conflict do nothing`),
      ...plan.lines.flatMap((line) => takeOverStatements(plan, line, made)),
      ...(history === null ? [] : [historyNote(plan.orderId, plan.actor, history, made)]),
      jobs.enqueueQuery(
        ORDER_JOBS.refundAtProvider,
        { refundId: plan.id },
        { dedupeKey: `refund:${plan.id}`, when: made },
      ),
    ]
    return { statements, made }
  }

  /**
   * A refund's status moved forward by `news` (never back: core/rules/refunds.ts). `made` holds, before
   * `update`, when this news makes an asked refund (it becomes pending or succeeded); `failed` when it fails
   * a counted one. The provider's id is kept unless another row has it.
   */
  function statusStatements(id: string | SQL, news: RefundNews) {
    const before = statusesBefore(news.status)
    const now = clock.now()
    const inStatus = (statuses: readonly RefundStatus[]) =>
      sql`exists (select 1 from ${orderRefunds} where ${orderRefunds.id} = ${id} and ${inArray(orderRefunds.status, [...statuses])})`
    const pid = news.providerRefundId
    return {
      made: countsAsRefunded(news.status) ? inStatus(['requested']) : sql`0`,
      failed: countsAsRefunded(news.status) ? sql`0` : inStatus(COUNTED_REFUND_STATUSES),
      update: db
        .update(orderRefunds)
        .set({
          status: news.status,
          providerRefundId:
            pid === null
              ? sql`${orderRefunds.providerRefundId}`
              : sql`case when exists (select 1 from ${orderRefunds} other where other.provider_refund_id = ${pid} and other.id != ${id})
                  then ${orderRefunds.providerRefundId} else ${pid} end`,
          // Made after all: a note that the provider had not confirmed it no longer holds.
          failureReason:
            news.failureReason ?? (countsAsRefunded(news.status) ? null : sql`${orderRefunds.failureReason}`),
          updatedAt: now,
        })
        .where(and(eq(orderRefunds.id, id), inArray(orderRefunds.status, before))),
    }
  }

  /**
   * A refund made in the provider's dashboard, seen for the first time: its row (the UNIQUE provider id
   * keeps it to one however many events name it). `isNew` holds, before `insert`, when this transaction
   * records it.
   */
  function providerRefundStatements(id: string, orderId: number, news: RefundNews & { amountCents: number }) {
    const pid = news.providerRefundId
    if (pid === null) throw new Error('a refund from the provider has its id')
    const now = clock.now().getTime()
    const isNew = sql`not exists (select 1 from ${orderRefunds} where ${orderRefunds.providerRefundId} = ${pid})`
    return {
      isNew,
      insert: db.run(sql`insert into ${orderRefunds}
          (id, order_id, origin, amount_cents, status, provider_refund_id, restock, failure_reason, actor, created_at, updated_at)
        select ${id}, ${orderId}, 'provider', ${news.amountCents}, ${news.status}, ${pid}, 0,
               ${news.failureReason}, 'provider', ${now}, ${now}
        where ${isNew}
        on conflict do nothing`),
    }
  }

  return {
    requestStatements,
    statusStatements,
    providerRefundStatements,
    historyNote,

    /** The refund's units taken off the shelf again (it failed): unmarked, so a refund made again puts them back. */
    unmarkRestockedStatements(id: string, when: SQL): Statement[] {
      return [
        db
          .update(orderRefundLines)
          .set({ restockedQuantity: 0 })
          .where(and(eq(orderRefundLines.refundId, id), when)),
        db
          .update(orderRefunds)
          .set({ restockedAt: null })
          .where(and(eq(orderRefunds.id, id), when)),
      ]
    },

    /**
     * Records, for each of the refund's lines, the units it puts back now: all it refunds but those it took
     * over on the shelf already (takeOverStatements), before the shelf moves by them and the refund is
     * marked restocked, when `when` holds.
     */
    putBackStatements(id: string, when: SQL): Statement[] {
      return [
        db
          .update(orderRefundLines)
          .set({
            // Never more than the order line's units not on the shelf already (a row from before these
            // records may say more).
            restockedQuantity: sql`max(0, min(${orderRefundLines.quantity} - ${orderRefundLines.settlesOnShelf},
              (select l.quantity from ${orderLines} l where l.id = ${orderRefundLines.lineId})
              - (select coalesce(sum(other.restocked_quantity), 0) from ${orderRefundLines} other
                  where other.line_id = ${orderRefundLines.lineId} and other.refund_id != ${orderRefundLines.refundId})))`,
          })
          .where(and(eq(orderRefundLines.refundId, id), sql`not ${restockedSql(id)}`, when)),
      ]
    },

    /**
     * A refund of these lines failed (`failed`): its units are unsettled again, where they are now, so the
     * next refund of the line takes them over. A restocking refund made put them all on the shelf, and
     * those it put back go out again when `takenBack` (an order still to ship); one not made left them where
     * they were; one without restock had them off the shelf, but those it took over on it. Runs before the
     * refund is unmarked and its put-back units cleared.
     */
    unsettleStatements(id: string, lineIds: readonly number[], failed: SQL, takenBack: SQL): Statement[] {
      return lineIds.map((lineId) => {
        const rl = sql`(select rl.quantity as k, rl.restocked_quantity as p, rl.settles_on_shelf as s,
            rl.settles_off as f, r.restock as restock, r.restocked_at is not null as made
          from ${orderRefundLines} rl join ${orderRefunds} r on r.id = rl.refund_id
          where rl.refund_id = ${id} and rl.line_id = ${lineId})`
        const back = sql`(case when ${takenBack} then 1 else 0 end)`
        return db.run(sql`update ${orderLines} set
            unsettled_on_shelf = unsettled_on_shelf + (select case when restock and made then k - ${back} * p
              else s end from ${rl}),
            unsettled_out = unsettled_out + (select case when restock and made then ${back} * p
              when restock then k - s - f else 0 end from ${rl}),
            unsettled_off = unsettled_off + (select case when restock and made then 0
              when restock then f else k - s end from ${rl})
          where id = ${lineId} and ${failed}`)
      })
    },

    /** The refund's units put back once: marked with the statements that move them, when `when` holds. */
    markRestockedStatement(id: string, when: SQL): Statement {
      return db
        .update(orderRefunds)
        .set({ restockedAt: clock.now() })
        .where(
          and(
            eq(orderRefunds.id, id),
            eq(orderRefunds.restock, true),
            sql`${orderRefunds.restockedAt} is null`,
            when,
          ),
        )
    },

    /** The customer's refund e-mail, once per refund. */
    refundEmailJob(orderId: number, refundId: string, when: SQL): Statement {
      return jobs.enqueueQuery(
        ORDER_JOBS.refundEmail,
        { orderId, refundId },
        { dedupeKey: `refund-email:${refundId}`, when },
      )
    },

    /** The customer's cancellation e-mail, once per order (keyed by its uid). */
    cancelledEmailJob(orderId: number, refundCents: number, when: SQL): Statement {
      return jobs.enqueueQuery(
        ORDER_JOBS.cancelledEmail,
        { orderId, refundCents },
        {
          dedupeKey: sql`'order-cancelled:' || (select ${orders.uid} from ${orders} where ${orders.id} = ${orderId})`,
          when,
        },
      )
    },

    /** The void of a cancelled order's label, once, if a purchase ever started (it has a carrier reference). */
    voidLabelJob(orderId: number, when: SQL): Statement {
      return jobs.enqueueQuery(
        ORDER_JOBS.voidLabel,
        { orderId },
        {
          dedupeKey: sql`'void-label:' || (select ${orders.uid} from ${orders} where ${orders.id} = ${orderId})`,
          when: sql`${when} and exists (select 1 from ${orders} where ${orders.id} = ${orderId} and ${isNotNull(orders.labelReference)})`,
        },
      )
    },

    /**
     * An order refunded in full before it shipped will not ship: when `when` holds (nothing is left to
     * refund) and the order has a label it has not shipped, the label is taken off the order, so it is
     * neither printed nor tracked, and voided at the carrier by a job that carries it, so its postage comes
     * back. Written before the move to refunded, while the order is still label_created. Reopened by a
     * failed refund, the order goes back to pending and buys another (moves.ts reopenStatements).
     */
    unshippedLabelVoidStatements(orderId: number, when: SQL): Statement[] {
      const unshipped = and(
        when,
        sql`exists (select 1 from ${orders} where ${orders.id} = ${orderId}
          and ${orders.status} = 'label_created' and ${isNotNull(orders.shippoTrackingNumber)})`,
      ) as SQL
      const label = sql`(select json_object('orderId', ${orders.id}, 'label', json_object(
          'reference', ${labelReferenceFor(orderId)}, 'trackingNumber', ${orders.shippoTrackingNumber},
          'labelId', ${orders.labelId}))
        from ${orders} where ${orders.id} = ${orderId})`
      return [
        jobs.enqueueQuery(ORDER_JOBS.voidLabel, label, {
          dedupeKey: sql`(select 'void-label:' || ${orders.uid} || ':' || ${orders.shippoTrackingNumber}
            from ${orders} where ${orders.id} = ${orderId})`,
          when: unshipped,
        }),
        historyNote(
          orderId,
          SYSTEM_ACTOR,
          'Refunded in full before it shipped: its label is voided at the carrier, so the postage comes back',
          unshipped,
        ),
        db
          .update(orders)
          .set({ shippoTrackingNumber: null, labelId: null, labelUrl: null, trackingUrl: null })
          .where(and(eq(orders.id, orderId), unshipped)),
      ]
    },

    /** Keeps the payment's reference read from the provider for an order made without it. */
    async setPaymentRef(orderId: number, paymentRef: string): Promise<void> {
      await db
        .update(orders)
        .set({ paymentRef })
        .where(and(eq(orders.id, orderId), sql`${orders.paymentRef} is null`))
    },

    /** The order a provider's payment reference names, or null. */
    async orderIdByPaymentRef(paymentRef: string): Promise<number | null> {
      const [row] = await db
        .select({ id: orders.id })
        .from(orders)
        .where(eq(orders.paymentRef, paymentRef))
        .limit(1)
      return row?.id ?? null
    },

    /** The row of a refund made in the provider's dashboard, by the provider's id, or null. */
    async refundByProviderId(providerRefundId: string): Promise<Refund | null> {
      const [row] = await db
        .select()
        .from(orderRefunds)
        .where(eq(orderRefunds.providerRefundId, providerRefundId))
        .limit(1)
      return row ? ((await withRefundLines(db, [row]))[0] ?? null) : null
    },

    /** One refund with its lines, or null. */
    async refund(id: string): Promise<Refund | null> {
      const [row] = await db.select().from(orderRefunds).where(eq(orderRefunds.id, id)).limit(1)
      return row ? ((await withRefundLines(db, [row]))[0] ?? null) : null
    },

    /** The refund staff's request with this Idempotency-Key made for this order, or null. */
    async refundByRequestKey(orderId: number, key: string): Promise<Refund | null> {
      const [row] = await db
        .select()
        .from(orderRefunds)
        .where(and(eq(orderRefunds.orderId, orderId), eq(orderRefunds.requestKey, key)))
        .limit(1)
      return row ? ((await withRefundLines(db, [row]))[0] ?? null) : null
    },

    /** An order's refunds, oldest first, with their lines. */
    async refunds(orderId: number): Promise<Refund[]> {
      const rows = await db
        .select()
        .from(orderRefunds)
        .where(eq(orderRefunds.orderId, orderId))
        .orderBy(asc(orderRefunds.createdAt), asc(orderRefunds.id))
      return withRefundLines(db, rows)
    },

    /** The refunds of several orders (a customer's list, their data export), by order. */
    async refundsOf(orderIds: readonly number[]): Promise<Map<number, Refund[]>> {
      const rows =
        orderIds.length === 0
          ? []
          : await db
              .select()
              .from(orderRefunds)
              .where(inArray(orderRefunds.orderId, [...orderIds]))
              .orderBy(asc(orderRefunds.createdAt), asc(orderRefunds.id))
      const byOrder = new Map<number, Refund[]>(orderIds.map((id) => [id, []]))
      for (const refund of await withRefundLines(db, rows)) byOrder.get(refund.orderId)?.push(refund)
      return byOrder
    },

    /**
     * Refunds the provider failed or refused, and asked ones it never confirmed (their job gave up), newest
     * first, until a later refund of the same order is made or nothing is left to refund: what staff
     * still have to decide.
     */
    async unsettled(limit: number): Promise<RefundRow[]> {
      return db
        .select()
        .from(orderRefunds)
        .where(
          and(
            sql`(${inArray(orderRefunds.status, ['failed', 'canceled'])} or (${eq(orderRefunds.status, 'requested')} and ${isNotNull(orderRefunds.failureReason)}))`,
            sql`not exists (select 1 from ${orderRefunds} later where later.order_id = ${orderRefunds.orderId}
              and later.created_at > ${orderRefunds.updatedAt} and later.status in (${counted}))`,
            sql`(select o.total_cents from ${orders} o where o.id = ${orderRefunds.orderId}) >
              (select coalesce(sum(c.amount_cents), 0) from ${orderRefunds} c where c.order_id = ${orderRefunds.orderId} and c.status in (${counted}))`,
          ),
        )
        .orderBy(desc(orderRefunds.updatedAt), desc(orderRefunds.id))
        .limit(limit)
    },

    /** Marks an asked refund the provider never confirmed, for staff (it stays counted: it may have been made). */
    async noteUnconfirmed(id: string, reason: string): Promise<void> {
      await db
        .update(orderRefunds)
        .set({ failureReason: reason.slice(0, 300), updatedAt: clock.now() })
        .where(and(eq(orderRefunds.id, id), eq(orderRefunds.status, 'requested')))
    },
  }
}

/** Refund rows with their lines, each named as on the order. */
async function withRefundLines(db: Database, rows: RefundRow[]): Promise<Refund[]> {
  if (rows.length === 0) return []
  const lines = await db
    .select({
      refundId: orderRefundLines.refundId,
      lineId: orderRefundLines.lineId,
      quantity: orderRefundLines.quantity,
      amountCents: orderRefundLines.amountCents,
      restockedQuantity: orderRefundLines.restockedQuantity,
      name: orderLines.name,
      variant: orderLines.variant,
      stockVariant: orderLines.stockVariant,
      productId: orderLines.productId,
      position: orderLines.position,
    })
    .from(orderRefundLines)
    .innerJoin(orderLines, eq(orderLines.id, orderRefundLines.lineId))
    .where(
      inArray(
        orderRefundLines.refundId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(orderLines.position))
  return rows.map((row) => ({
    ...row,
    lines: lines.filter((line) => line.refundId === row.id).map(({ position: _position, ...line }) => line),
  }))
}

export type OrderRefunds = ReturnType<typeof createOrderRefunds>
