/**
 * Refunds and cancels, in the fulfilment unit's shape (docs/decisions/027-cancel-and-refund.md):
 * 1. a claim: a refund is one conditional INSERT that records it only while the order has that much left
 *    (so of refunds pressed at once, those that fit are made); a cancel is the order's conditional move;
 * 2. one transaction of the orders', discounts' (and stock's) statements;
 * 3. jobs: the provider's refund (run at once by the request, again after a crash), e-mails, the void.
 * What the provider says of a refund (its answer, or its events) moves the refund forward once.
 */

import { lineLabel } from '@core/rules/catalog'
import { formatCents } from '@core/rules/money'
import { formatOrderNumber } from '@core/rules/order-status'
import { countsAsRefunded, lineRefundCents, type RefundAsked, refundedByLine } from '@core/rules/refunds'
import { and, type SQL, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import {
  type PaymentProvider,
  type ProviderRefund,
  type RefundActivity,
  RefundRefusedError,
} from '../../adapters/types'
import type { Clock } from '../../lib/clock'
import { crashPoint } from '../../lib/crash-points'
import { conflict, invalid, notFound } from '../../lib/domain-errors'
import { errorMessage, log } from '../../lib/log'
import { commitTogether, type Statement } from '../../lib/statements'
import type { DiscountService } from '../discounts/service'
import type { AbandonedJobHandler, JobContext, JobHandler, JobQueue } from '../jobs/service'
import {
  leftSql,
  neverShippedSql,
  newRefundId,
  notCancelledSql,
  ORDER_JOBS,
  type Order,
  type OrdersService,
  PROVIDER_ACTOR,
  type Refund,
  type RefundNews,
  type RefundPlan,
  refundAmountSql,
  refundIdByProviderSql,
  restockedCountSql,
  restockedSql,
  SYSTEM_ACTOR,
  unitsCancelPutsBackSql,
  unitsPutBackBySql,
} from '../orders/service'
import { createUnlistedRefunds } from './unlisted-refunds'

/**
 * Units going back on the shelf: a product (and variant as sold) and how many, as SQL worked out in the
 * transaction (what a refund recorded it puts back, or what a cancel puts back: `unitsCancelPutsBackSql`).
 */
export interface RestockUnit {
  productId: number
  variant: string | null
  /** The stock the order line was sold from (`order_lines.stock_variant`); null: none counted it. */
  stockVariant: string | null
  quantity: SQL<number>
}

/**
 * The stock's statements that put units back, run in the same transaction when `when` (SQL) holds
 * (api/modules/stock: counted products and variants only). Without it, restock is recorded on the refund
 * and moves no units.
 */
export type Restock = (units: RestockUnit[], when: SQL) => Promise<Statement[]>

export interface RefundFulfilmentDeps {
  db: Database
  clock: Clock
  payments: Pick<PaymentProvider, 'refund' | 'findRefund' | 'retrieveSession' | 'listRefunds'>
  jobs: Pick<JobQueue, 'claimByKey' | 'runClaimed' | 'enqueueQuery'>
  orders: Pick<
    OrdersService,
    | 'get'
    | 'history'
    | 'moveStatements'
    | 'reopenStatements'
    | 'requestStatements'
    | 'statusStatements'
    | 'providerRefundStatements'
    | 'historyNote'
    | 'markRestockedStatement'
    | 'putBackStatements'
    | 'unsettleStatements'
    | 'unmarkRestockedStatements'
    | 'refundEmailJob'
    | 'cancelledEmailJob'
    | 'voidLabelJob'
    | 'unshippedLabelVoidStatements'
    | 'setPaymentRef'
    | 'orderIdByPaymentRef'
    | 'refund'
    | 'refundByProviderId'
    | 'refundByRequestKey'
    | 'refunds'
    | 'noteUnconfirmed'
  >
  discounts: Pick<DiscountService, 'releaseRedemptionStatement'>
  restock?: Restock
  /** SQL: true when any of the units is of a product someone counts (where `restock` moves units). */
  counted?: (units: RestockUnit[]) => Promise<SQL>
}

/** Who asks and under which key: staff's id, and the request's Idempotency-Key. */
export interface Asker {
  actor: string
  requestKey: string | null
}

export type RefundEventResult = { kind: 'applied'; orderId: number } | { kind: 'unknown-payment' }

/** The claim holder's statement for the refund event's transaction: its outcome, given the order. */
export type RecordRefundOutcome = (orderId: number) => Statement

/** Of refunds worked out while others were made, a few tries; past them the order is too busy to say. */
const TRIES = 3

const counted = (refunds: readonly Refund[]) => refunds.filter((refund) => countsAsRefunded(refund.status))

function leftOf(order: Order, refunds: readonly Refund[]): number {
  return order.totalCents - counted(refunds).reduce((sum, refund) => sum + refund.amountCents, 0)
}

/** What a refund by lines returns: each line's share of what was paid, for units not refunded yet. */
function linePlan(order: Order, asked: RefundAsked, refunds: readonly Refund[]): RefundPlan['lines'] {
  const number = formatOrderNumber(order.id)
  const already = refundedByLine(refunds)
  return (asked.lines ?? []).map(({ lineId, quantity }) => {
    const line = order.lines.find((candidate) => candidate.id === lineId)
    if (!line) throw invalid(`Line ${lineId} is not a line of order ${number}.`)
    if (quantity > line.quantity) {
      throw invalid(
        `Line ${lineId} (${line.name}) has ${line.quantity} units: ${quantity} cannot be refunded.`,
      )
    }
    const { units: refundedBefore, cents: refundedCentsBefore } = already.get(lineId) ?? {
      units: 0,
      cents: 0,
    }
    if (refundedBefore + quantity > line.quantity) {
      throw conflict(
        `Only ${line.quantity - refundedBefore} of ${line.quantity} units of ${line.name} are left to refund.`,
      )
    }
    const amountCents = lineRefundCents(line, refundedBefore, quantity, refundedCentsBefore)
    return { lineId, quantity, refundedBefore, refundedCentsBefore, amountCents }
  })
}

/** The request's words for the order's history: how much, for what, and why. */
function askedNote(plan: RefundPlan, order: Order): string {
  const items = plan.lines.map((line) => {
    const ordered = order.lines.find((candidate) => candidate.id === line.lineId)
    // With the scent: one product may be on two lines of the order.
    return `${line.quantity} × ${ordered ? lineLabel(ordered) : `line ${line.lineId}`}`
  })
  return [
    `Refund of ${formatCents(plan.amountCents)} asked`,
    items.length > 0 ? `: ${items.join(', ')}${plan.restock ? ', back on the shelf' : ''}` : '',
    plan.reason ? `. Reason: ${plan.reason}` : '',
  ].join('')
}

/** Whether an earlier refund under the same Idempotency-Key asked for the same thing. */
function sameRequest(refund: Refund, asked: RefundAsked): boolean {
  if (refund.restock !== asked.restock) return false
  if (asked.amountCents !== null) return refund.lines.length === 0 && refund.amountCents === asked.amountCents
  const units = (lines: readonly { lineId: number; quantity: number }[]) =>
    lines
      .map((line) => `${line.lineId}:${line.quantity}`)
      .sort()
      .join()
  return refund.lines.length > 0 && units(refund.lines) === units(asked.lines ?? [])
}

/** What news is applied to: one of the shop's refunds, or a dashboard refund found by the provider's id. */
interface NewsTarget {
  id: string | SQL
  origin: Refund['origin']
  amountCents: number
  /** The order lines a refund by lines refunds: their units are unsettled again if it fails. */
  lineIds: number[]
  /** Units to put back when it is made: what its lines recorded they put back (putBackStatements). */
  restockUnits: RestockUnit[]
  /** Units to take off again when it fails after it put them back (negative: the restock's statements subtract them). */
  takeBackUnits: RestockUnit[]
}

/** SQL: a failing restocking refund's units come off the shelf again: it put them back, and the order is still to ship. */
function takenBackSql(orderId: number, refundId: string): SQL {
  return and(restockedSql(refundId), notCancelledSql(orderId), neverShippedSql(orderId)) as SQL
}

function targetOf(refund: Refund): NewsTarget {
  return {
    id: refund.id,
    origin: refund.origin,
    amountCents: refund.amountCents,
    lineIds: refund.lines.map((line) => line.lineId),
    restockUnits: refund.restock
      ? refund.lines.map((line) => ({
          productId: line.productId,
          variant: line.variant,
          stockVariant: line.stockVariant,
          quantity: unitsPutBackBySql(refund.id, line.lineId),
        }))
      : [],
    takeBackUnits: refund.restock
      ? refund.lines.map((line) => ({
          productId: line.productId,
          variant: line.variant,
          stockVariant: line.stockVariant,
          quantity: sql<number>`(0 - ${unitsPutBackBySql(refund.id, line.lineId)})`,
        }))
      : [],
  }
}

export function createRefundFulfilment(deps: RefundFulfilmentDeps) {
  const { db, orders, payments } = deps
  const restock: Restock = deps.restock ?? (async () => [])
  const counted = deps.counted ?? (async () => sql`0`)

  /**
   * What the provider's news of a refund does, as statements: made now (asked → pending or succeeded)
   * writes its history line, queues its e-mail (a cancel's is the cancellation e-mail) and puts its units
   * back; failed now writes why; then the refund moves forward, and the order becomes refunded once nothing
   * is left, or returns to the status it had if a failure left something to refund again.
   */
  async function newsStatements(orderId: number, target: NewsTarget, news: RefundNews): Promise<Statement[]> {
    const amount = formatCents(target.amountCents)
    const step = orders.statusStatements(target.id, news)
    const statements: Statement[] = [
      orders.historyNote(orderId, SYSTEM_ACTOR, `Refunded ${amount} to the customer's card`, step.made),
      orders.historyNote(
        orderId,
        SYSTEM_ACTOR,
        `Refund of ${amount} failed at the payment provider (${news.failureReason ?? 'no reason given'}): it can be refunded again`,
        step.failed,
      ),
    ]
    if (typeof target.id === 'string') {
      const id = target.id
      if (target.origin === 'refund') statements.push(orders.refundEmailJob(orderId, id, step.made))
      if (target.restockUnits.length > 0) {
        // A cancel puts every unit back itself.
        const when = and(step.made, notCancelledSql(orderId)) as SQL
        statements.push(
          ...orders.putBackStatements(id, when),
          ...(await restock(target.restockUnits, when)),
          orders.markRestockedStatement(id, when),
        )
      }
      // Failed: its units are the line's to refund again, where they are (before any are taken back).
      statements.push(
        ...orders.unsettleStatements(id, target.lineIds, step.failed, takenBackSql(orderId, id)),
      )
      if (target.restockUnits.length > 0) {
        statements.push(...(await takeBackStatements(orderId, id, target.takeBackUnits, step.failed)))
      }
    }
    statements.push(step.update)
    return statements
  }

  /**
   * A restocking refund that fails after it put its units back, of an order never shipped and not
   * cancelled: the order has those units to ship again, so they come off the shelf again (below 0 if sold
   * meanwhile: owed, as a short payment's), the refund is no longer marked restocked (made again, it puts
   * them back), and the history says so. A shipped order's units came back from the customer: they stay.
   */
  async function takeBackStatements(
    orderId: number,
    refundId: string,
    units: RestockUnit[],
    failed: SQL,
  ): Promise<Statement[]> {
    const when = and(failed, takenBackSql(orderId, refundId)) as SQL
    // Said only when units move: some come off (the quantities are negative) a shelf someone counts.
    const moves = await Promise.all(
      units.map(async (unit) => sql`(${unit.quantity} < 0 and ${await counted([unit])})`),
    )
    // In brackets: joined with `and` below, the last unit's `or` would otherwise stand alone.
    const moved = moves.length > 0 ? sql`(${sql.join(moves, sql` or `)})` : sql`0`
    return [
      orders.historyNote(
        orderId,
        SYSTEM_ACTOR,
        'The units this refund had put back on the shelf were taken off again: the order still has them to ship',
        and(when, moved) as SQL,
      ),
      ...(await restock(units, when)),
      ...orders.unmarkRestockedStatements(refundId, when),
    ]
  }

  /**
   * The order's status after its refunds moved: refunded once nothing is left (its label voided if it never
   * shipped), back again if a failure left some.
   */
  function orderStatusStatements(orderId: number): Statement[] {
    const left = leftSql(orderId)
    const nothingLeft = sql`${left} <= 0`
    const move = orders.moveStatements({
      id: orderId,
      from: null,
      to: 'refunded',
      note: { actor: SYSTEM_ACTOR, reason: 'Nothing is left to refund' },
      when: nothingLeft,
    })
    return [
      ...orders.unshippedLabelVoidStatements(orderId, nothingLeft),
      move.history,
      move.update,
      ...orders.reopenStatements(
        orderId,
        'A refund failed: part of the payment can be refunded again',
        sql`${left} > 0`,
      ),
    ]
  }

  /** Records what the provider said of one of the shop's refunds, in one transaction. */
  async function record(refund: Refund, news: RefundNews): Promise<void> {
    const statements = [
      ...(await newsStatements(refund.orderId, targetOf(refund), news)),
      ...orderStatusStatements(refund.orderId),
    ]
    const [first, ...rest] = statements
    if (first) await db.batch([first, ...rest])
  }

  /** The payment a refund names: kept on the order, or read from the provider's session once and kept. */
  async function paymentRefOf(order: Order): Promise<string | null> {
    if (order.paymentRef) return order.paymentRef
    const session = await payments.retrieveSession(order.checkoutSessionId)
    if (session?.paymentRef) await orders.setPaymentRef(order.id, session.paymentRef)
    return session?.paymentRef ?? null
  }

  /**
   * The job that asks the provider for one of the shop's refunds, keyed by the refund's own id, so a retry
   * after a crash or a lost answer refunds once. A retry first looks the refund up by that key: the provider
   * forgets keys after a day. A refusal fails the refund (its amount refundable again); an unknown outcome
   * is retried, and on the last attempt left asked, for staff, since it may have been made.
   */
  async function refundAtProvider(refundId: string, context: Pick<JobContext, 'attempt' | 'lastAttempt'>) {
    const refund = await orders.refund(refundId)
    if (refund?.status !== 'requested') return
    const order = await orders.get(refund.orderId)
    if (!order) throw new Error(`order ${refund.orderId} of refund ${refundId} not found`)
    const paymentRef = await paymentRefOf(order)
    if (!paymentRef)
      throw new Error(`the payment provider has no payment for order ${formatOrderNumber(order.id)}`)
    let made: ProviderRefund | null = null
    try {
      made = context.attempt > 1 ? await payments.findRefund(paymentRef, refundId) : null
      made ??= await payments.refund({
        paymentRef,
        amountCents: refund.amountCents,
        reason: refund.reason,
        idempotencyKey: refundId,
        metadata: { order: formatOrderNumber(order.id), order_uid: order.uid },
      })
    } catch (error) {
      if (error instanceof RefundRefusedError && error.refusal !== 'idempotency_conflict') {
        log.warn('refund refused', { order: formatOrderNumber(order.id), refusal: error.refusal })
        await record(refund, { status: 'failed', providerRefundId: null, failureReason: error.message })
        return
      }
      if (context.lastAttempt)
        await orders.noteUnconfirmed(
          refundId,
          `The payment provider never confirmed it: ${errorMessage(error)}`,
        )
      throw error
    }
    crashPoint('refund-made')
    await record(refund, {
      status: made.status,
      providerRefundId: made.id,
      failureReason: made.failureReason,
    })
    crashPoint('refund-recorded')
  }

  /** Runs the provider's refund now, in the request that asked for it; the runner takes it over after a crash. */
  async function askProviderNow(refundId: string): Promise<void> {
    const job = await deps.jobs.claimByKey(`refund:${refundId}`)
    if (job) await deps.jobs.runClaimed(job, handlers)
  }

  const unlisted = createUnlistedRefunds(deps)

  /**
   * A refund event from the provider (its answer arrives this way too, for the shop's own refunds, and
   * refunds made in its dashboard arrive only this way): each refund it carries moves forward once, in one
   * transaction with the event's outcome. Refunds are matched by the shop's key in their metadata, else by
   * the provider's id; a new one is recorded once (its id is UNIQUE). A `charge.refunded` listing none
   * while more was refunded than the shop counts queues the job that asks for them (unlisted-refunds.ts).
   */
  async function refundEvent(
    activity: RefundActivity,
    recordOutcome: RecordRefundOutcome,
  ): Promise<RefundEventResult> {
    const own = new Map<string, Refund>()
    for (const made of activity.refunds) {
      const key = made.metadata.refund_key
      const refund = key ? await orders.refund(key) : null
      if (refund) own.set(made.id, refund)
    }
    const orderId =
      (activity.paymentRef ? await orders.orderIdByPaymentRef(activity.paymentRef) : null) ??
      [...own.values()][0]?.orderId ??
      null
    if (orderId === null) return { kind: 'unknown-payment' }
    const statements: Statement[] = []
    for (const made of activity.refunds) {
      const news: RefundNews = {
        status: made.status,
        providerRefundId: made.id,
        failureReason: made.failureReason,
      }
      const known = own.get(made.id) ?? (await orders.refundByProviderId(made.id))
      if (known && known.orderId === orderId)
        statements.push(...(await newsStatements(orderId, targetOf(known), news)))
      else if (!known)
        statements.push(...(await dashboardRefund(orderId, { ...news, amountCents: made.amountCents })))
    }
    statements.push(...(await unlisted.jobStatements(activity, orderId)))
    await commitTogether(db, [...statements, ...orderStatusStatements(orderId)], recordOutcome(orderId))
    return { kind: 'applied', orderId }
  }

  const handlers: Record<string, JobHandler> = {
    [ORDER_JOBS.refundAtProvider]: (payload, context) => {
      const id = (payload as { refundId?: unknown } | null)?.refundId
      if (typeof id !== 'string') throw new Error('job payload has no refund id')
      return refundAtProvider(id, context)
    },
    [ORDER_JOBS.listRefunds]: unlisted.handler(refundEvent),
  }

  return {
    refundAtProvider,

    /**
     * Staff's refund by lines or by amount: recorded only while it fits what is left (409 otherwise, 422
     * for lines not on the order), asked of the provider at once, and answered as it then stands. The same
     * Idempotency-Key answers the same refund.
     */
    async refund(orderId: number, asked: RefundAsked, who: Asker): Promise<Refund> {
      for (let attempt = 1; attempt <= TRIES; attempt++) {
        const order = await orders.get(orderId)
        if (!order) throw notFound('Order not found.')
        const number = formatOrderNumber(order.id)
        const earlier = who.requestKey ? await orders.refundByRequestKey(order.id, who.requestKey) : null
        const refunds = await orders.refunds(order.id)
        if (earlier) {
          if (!sameRequest(earlier, asked)) {
            throw conflict('This Idempotency-Key was used for a different refund of this order.')
          }
          return earlier
        }
        const lines = linePlan(order, asked, refunds)
        const amountCents = asked.amountCents ?? lines.reduce((sum, line) => sum + line.amountCents, 0)
        const left = leftOf(order, refunds)
        if (amountCents > left) {
          throw conflict(
            left <= 0
              ? `Order ${number} has nothing left to refund.`
              : `Only ${formatCents(left)} of order ${number} is left to refund: ${formatCents(amountCents)} is more.`,
          )
        }
        const plan: RefundPlan = {
          id: newRefundId(),
          orderId: order.id,
          origin: 'refund',
          amountCents,
          lines,
          restock: asked.restock,
          reason: asked.reason,
          actor: who.actor,
          requestKey: who.requestKey,
        }
        const { statements, made } = orders.requestStatements(plan, askedNote(plan, order))
        const [row] = await commitTogether(
          db,
          statements,
          db.all<{ made: number }>(sql`select ${made} as made`),
        )
        if (!row?.made) continue // another refund was made meanwhile: work it out again
        log.info('refund asked', { order: number, refund: plan.id, cents: amountCents, by: who.actor })
        await askProviderNow(plan.id)
        const now = await orders.refund(plan.id)
        if (!now) throw new Error(`refund ${plan.id} missing after insert`)
        return now
      }
      throw conflict('Other refunds of this order were being made at the same time. Please try again.')
    },

    /**
     * Staff's cancel of an order that has not shipped, in one transaction: the order cancelled, a refund
     * of everything left, the units not back on the shelf yet put back, the discount's use released, the
     * cancellation e-mail and the label's void queued. 409 with the reason for a shipped or cancelled order.
     */
    async cancel(orderId: number, actor: string, reason: string | null): Promise<Order> {
      for (let attempt = 1; attempt <= TRIES; attempt++) {
        const order = await orders.get(orderId)
        if (!order) throw notFound('Order not found.')
        const number = formatOrderNumber(order.id)
        if (order.status === 'cancelled') throw conflict(`Order ${number} is already cancelled.`)
        const shipped =
          order.status === 'shipped' || (await orders.history(order.id)).some((e) => e.toStatus === 'shipped')
        if (shipped) {
          throw conflict(
            `Order ${number} has shipped, so it cannot be cancelled: refund it instead (by items or amount).`,
          )
        }
        const refunds = await orders.refunds(order.id)
        const left = Math.max(0, leftOf(order, refunds))
        const restocked = refunds.filter((refund) => refund.restockedAt !== null)
        const refundId = newRefundId()
        const move = orders.moveStatements({
          id: order.id,
          from: null,
          to: 'cancelled',
          note: {
            actor,
            reason: `Cancelled${reason ? `: ${reason}` : ''}${left > 0 ? `. Refunding ${formatCents(left)}` : ''}`,
          },
          extra: { cancelledAt: deps.clock.now() },
          // Nothing changed since it was read: no refund made (but this cancel's own, recorded before the
          // move in the same transaction), no units put back, never shipped.
          when: and(
            sql`${leftSql(order.id)} + ${refundAmountSql(refundId)} = ${leftOf(order, refunds)}`,
            sql`${restockedCountSql(order.id)} = ${restocked.length}`,
            neverShippedSql(order.id),
          ),
        })
        const units = order.lines.map((line) => ({
          productId: line.productId,
          variant: line.variant,
          stockVariant: line.stockVariant,
          quantity: unitsCancelPutsBackSql(line.id),
        }))
        const plan: RefundPlan = {
          id: refundId,
          orderId: order.id,
          origin: 'cancel',
          amountCents: left,
          lines: [],
          restock: false,
          reason,
          actor,
          requestKey: null,
          when: move.eligible,
        }
        const statements: Statement[] = [
          move.history,
          ...(await restock(units, move.eligible)),
          ...(left > 0 ? orders.requestStatements(plan, null).statements : []),
          orders.cancelledEmailJob(order.id, left, move.eligible),
          orders.voidLabelJob(order.id, move.eligible),
          deps.discounts.releaseRedemptionStatement(number, move.eligible),
        ]
        const moved = await commitTogether(db, statements, move.update)
        if (moved.length === 0) continue // the order moved meanwhile: look again
        log.info('order cancelled', { order: number, by: actor, refundCents: left })
        if (left > 0) await askProviderNow(refundId)
        const now = await orders.get(order.id)
        if (!now) throw new Error(`order ${number} missing after its cancel`)
        return now
      }
      throw conflict('The order was changing while it was being cancelled. Please try again.')
    },

    refundEvent,

    jobHandlers: (): Record<string, JobHandler> => handlers,

    /** A refund job whose worker died on its last attempt: left asked, and shown to staff as unconfirmed. */
    abandonedJobHandlers: (): Record<string, AbandonedJobHandler> => ({
      [ORDER_JOBS.refundAtProvider]: async (payload, reason) => {
        const id = (payload as { refundId?: unknown } | null)?.refundId
        if (typeof id === 'string')
          await orders.noteUnconfirmed(id, `The payment provider never confirmed it: ${reason}`)
      },
    }),
  }

  /**
   * A refund made in the provider's dashboard, first seen: recorded with its history line and e-mail, or
   * its failure, once; then moved forward by this news, whoever recorded it.
   */
  async function dashboardRefund(
    orderId: number,
    news: RefundNews & { amountCents: number },
  ): Promise<Statement[]> {
    const id = newRefundId()
    const fresh = orders.providerRefundStatements(id, orderId, news)
    const amount = formatCents(news.amountCents)
    const isCounted = countsAsRefunded(news.status)
    const when = and(fresh.isNew, isCounted ? sql`1` : sql`0`) as SQL
    const byProviderId = refundIdByProviderSql(news.providerRefundId ?? '')
    return [
      orders.historyNote(
        orderId,
        PROVIDER_ACTOR,
        `Refunded ${amount} in the payment provider's dashboard`,
        when,
      ),
      orders.refundEmailJob(orderId, id, when),
      orders.historyNote(
        orderId,
        PROVIDER_ACTOR,
        `A refund of ${amount} made in the payment provider's dashboard failed (${news.failureReason ?? 'no reason given'})`,
        and(fresh.isNew, isCounted ? sql`0` : sql`1`) as SQL,
      ),
      fresh.insert,
      ...(await newsStatements(
        orderId,
        {
          id: byProviderId,
          origin: 'provider',
          amountCents: news.amountCents,
          lineIds: [],
          restockUnits: [],
          takeBackUnits: [],
        },
        news,
      )),
    ]
  }
}

export type RefundFulfilment = ReturnType<typeof createRefundFulfilment>
