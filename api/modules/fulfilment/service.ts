/**
 * Fulfilment: what a payment does to the shop, in one place. It owns no table; it composes the statements
 * the modules build for their own tables into one transaction (docs/decisions/024-one-owner-for-fulfilment.md).
 *
 * Every step has the same shape, a cancel and a refund too (refunds.ts):
 * 1. a claim: the caller holds what the step is about, alone (the webhook service's lease on the payment
 *    event), and hands in its own statement recording the outcome;
 * 2. one transaction: the statements of each module concerned and the caller's, all or none;
 * 3. follow-up jobs: work outside the database (e-mails, the label, the provider) queued in that same
 *    transaction, run later by the job runner.
 */
import { CHARGE_CURRENCY } from '@core/rules/money'
import { formatOrderNumber } from '@core/rules/order-status'
import type { SQL } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import type { ProviderSession } from '../../adapters/types'
import type { Clock } from '../../lib/clock'
import { log } from '../../lib/log'
import { commitTogether, runTogether, type Statement } from '../../lib/statements'
import type { CheckoutRecord, CheckoutService, UnpaidEnd } from '../checkout/service'
import type { DiscountService } from '../discounts/service'
import type { OrderDraft } from '../orders/model'
import type { OrderPlacement, OrdersService } from '../orders/service'
import type { StockService } from '../stock/service'
import { createRefundFulfilment, type RefundFulfilmentDeps } from './refunds'

export interface FulfilmentDeps extends Omit<RefundFulfilmentDeps, 'orders' | 'discounts'> {
  db: Database
  checkout: Pick<
    CheckoutService,
    | 'record'
    | 'delayedPaymentStatements'
    | 'unpaidEndStatements'
    | 'markCompleteStatement'
    | 'expireFirstOrderSessionsStatement'
  >
  orders: Pick<
    OrdersService,
    'placement' | 'discountWarningStatement' | 'stockWarningStatement' | 'earlierOrderNumber'
  > &
    RefundFulfilmentDeps['orders']
  discounts: Pick<DiscountService, 'redeemStatements' | 'repeatUseWarning'> &
    RefundFulfilmentDeps['discounts']
  stock: Pick<
    StockService,
    'linesOf' | 'named' | 'saleStatements' | 'shortfallWarning' | 'restockStatements' | 'anyCountedSql'
  >
  clock: Clock
}

/** The order a paid session made, as SQL evaluated inside its transaction. */
export interface PlacedOrder {
  orderId: SQL<number>
  /** 1 when this payment made the order, 0 when an earlier one had: decided once, by the orders module. */
  created: SQL<number>
}

/** The claim holder's own statement for the transaction (the payment event's outcome), given the order. */
export type RecordOutcome = (order: PlacedOrder) => Statement

export type PaidSessionResult =
  /** The session's order exists: made now (`created`), or by an earlier event for the same session. */
  | { kind: 'ordered'; orderId: number; created: boolean }
  /** The shop opened no such session: nothing to fulfil. */
  | { kind: 'unknown-session' }
  /** The provider charged something other than what the session asked for: `reason` says what. */
  | { kind: 'not-as-asked'; reason: string }

/** The order a paid checkout session makes: the figures the server stored when it opened the session. */
function orderDraft(record: CheckoutRecord, session: ProviderSession): OrderDraft {
  return {
    checkoutSessionId: record.id,
    // Events stored before the payment's reference was read lack it: a refund reads the session again.
    paymentRef: session.paymentRef ?? null,
    userId: record.userId,
    email: record.email,
    shippingAddress: record.shippingAddress,
    billingAddress: record.billingAddress,
    lines: record.lines,
    discountCode: record.discountCode,
    subtotalCents: record.subtotalCents,
    discountCents: record.discountCents,
    shippingCents: record.shippingCents,
    totalCents: record.totalCents,
    itemCount: record.itemCount,
    totalWeightTenthsOz: record.totalWeightTenthsOz,
    shippingCarrier: record.shippingCarrier,
    shippingService: record.shippingService,
    shippingServiceToken: record.shippingServiceToken,
  }
}

/**
 * Why the provider's session was not charged as the shop asked, or null. The provider must have charged
 * the stored total, in the currency every session asks for (US dollars: 2,100 of another currency's cents
 * is not what was asked for); an event that does not say what was charged cannot be checked, so it makes
 * no order either.
 */
function notAsAsked(eventId: string, session: ProviderSession, record: CheckoutRecord): string | null {
  if (session.amountTotal === null) {
    log.error('payment event without an amount', { event: eventId })
    return 'amount missing'
  }
  if (session.amountTotal !== record.totalCents) {
    log.error('payment amount differs from the checkout session', {
      event: eventId,
      charged: session.amountTotal,
      expected: record.totalCents,
    })
    return 'amount does not match the checkout session'
  }
  if (session.currency === null) {
    log.error('payment event without a currency', { event: eventId })
    return 'currency missing'
  }
  if (session.currency !== CHARGE_CURRENCY) {
    log.error('payment currency differs from the checkout session', {
      event: eventId,
      charged: session.currency,
      expected: CHARGE_CURRENCY,
    })
    return 'currency does not match the checkout session'
  }
  return null
}

/**
 * The discount's part of a paid order: its use redeemed, and a per-customer rule it broke (the first-order
 * code on a second order) written on the order for staff: the money is taken, so the order stands
 * (docs/decisions/021).
 */
function discountStatements(
  { orders, discounts }: Pick<FulfilmentDeps, 'orders' | 'discounts'>,
  record: CheckoutRecord,
  order: OrderPlacement,
): Statement[] {
  const code = record.discountCode
  if (!code) return []
  const customer = { email: record.email, userId: record.userId }
  const earlier = orders.earlierOrderNumber(order)
  const warning = discounts.repeatUseWarning(code, customer, order.orderNumber, earlier)
  return [
    ...discounts.redeemStatements(
      code,
      { ...customer, reservationKey: record.discountReservationKey },
      order.orderNumber,
      // Only the event that makes the order: a later one must not redeem a use its cancel released.
      order.created,
    ),
    orders.discountWarningStatement(order, warning),
  ]
}

/**
 * The stock's part of a paid order: its units taken off the shelf and its reservation sold, and, when the
 * hold had run out and too few were left, a warning on the order for staff: the money is taken, so the
 * order stands (docs/decisions/026-stock-reserved-at-checkout.md). The warning is read before the units go.
 */
async function stockStatements(
  { orders, stock, clock }: Pick<FulfilmentDeps, 'orders' | 'stock' | 'clock'>,
  record: CheckoutRecord,
  order: OrderPlacement,
): Promise<Statement[]> {
  const lines = await stock.linesOf(record.lines)
  if (lines.length === 0) return []
  const now = clock.now()
  const key = record.stockReservationKey
  return [
    orders.stockWarningStatement(order, stock.shortfallWarning(key, lines, now)),
    ...stock.saleStatements(key, lines, order.created, now),
  ]
}

export function createFulfilmentService(deps: FulfilmentDeps) {
  const { db, checkout, orders } = deps

  return {
    ...createRefundFulfilment({
      ...deps,
      restock: (units, when) => deps.stock.restockStatements(units, { when }),
      counted: (units) => deps.stock.anyCountedSql(units),
    }),

    /**
     * A paid checkout session makes its order, once, in one transaction: the order, its lines and first
     * history entry, its jobs (confirmation e-mail, label), the session marked complete, the discount's use
     * and warning, its units sold (and a warning when too few were left), the job that ends the customer's other first-order sessions, and the caller's outcome.
     * A crash leaves all of it undone and the claim to run out, so it is all done again, once.
     */
    async paidSession(
      payment: { eventId: string; session: ProviderSession },
      recordOutcome: RecordOutcome,
    ): Promise<PaidSessionResult> {
      const stored = await checkout.record(payment.session.id)
      if (!stored) return { kind: 'unknown-session' }
      const reason = notAsAsked(payment.eventId, payment.session, stored)
      if (reason) return { kind: 'not-as-asked', reason }
      const record = { ...stored, lines: await deps.stock.named(stored.lines) }
      const order = orders.placement(orderDraft(record, payment.session), payment.eventId)
      const statements = [
        ...order.statements,
        ...order.jobs,
        checkout.markCompleteStatement(record.id, order.orderId),
        ...discountStatements(deps, record, order),
        ...(await stockStatements(deps, record, order)),
        // The customer's other open first-order sessions can no longer be a first order: ended soon after.
        checkout.expireFirstOrderSessionsStatement(record),
        recordOutcome({ orderId: order.orderId, created: order.created }),
      ]
      const [made] = await commitTogether(db, statements, order.result, order.shared)
      if (!made) throw new Error(`order for ${record.id} missing after insert`)
      const created = Boolean(made.created)
      if (created && made.discountWarning) {
        log.warn('paid order breaks a rule of its discount code', {
          order: formatOrderNumber(made.id),
          code: record.discountCode,
        })
      }
      if (created && made.stockWarning) {
        log.warn('paid order found too few units left', { order: formatOrderNumber(made.id) })
      }
      return { kind: 'ordered', orderId: made.id, created }
    },

    /**
     * The customer finished with a delayed payment method: the session waits for the money, and its code's
     * use and its units stay held while it does (checkout's session-holds.ts), in one transaction.
     */
    async paymentPending(sessionId: string): Promise<void> {
      const record = await checkout.record(sessionId)
      if (!record) return
      await runTogether(db, checkout.delayedPaymentStatements(record))
    },

    /**
     * A session that can no longer be paid (it expired, or its delayed payment failed) ends and gives its
     * discount use and its units back, in one transaction. A session already complete stays complete
     * (and its units sold): events may arrive in any order.
     */
    async sessionEnded(sessionId: string, end: UnpaidEnd): Promise<void> {
      const record = await checkout.record(sessionId)
      if (!record) return
      await runTogether(db, checkout.unpaidEndStatements(record, end))
    },
  }
}

export type FulfilmentService = ReturnType<typeof createFulfilmentService>
