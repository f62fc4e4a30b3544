/**
 * What becomes of a session's reservations, its code's use and its units, after the session was stored
 * (which holds them for its life): given back when it can no longer be paid, and held on while a delayed
 * payment is on its way (docs/decisions/021, docs/decisions/026).
 */
import type { Statement } from '../../lib/statements'
import type { DiscountService } from '../discounts/service'
import type { StockService } from '../stock/service'
import { type CheckoutRecord, DELAYED_PAYMENT_HOLD_MS, type UnpaidEnd } from './model'
import type { CheckoutSessions } from './sessions'

export interface SessionHoldsDeps {
  discounts: Pick<DiscountService, 'releaseStatement' | 'holdStatement'>
  stock: Pick<StockService, 'releaseStatement' | 'holdStatement'>
  sessions: Pick<CheckoutSessions, 'statusStatement'>
}

/** A session's reservations: its code's use and its units, by their keys. */
export type HeldBy = Pick<CheckoutRecord, 'id' | 'discountReservationKey' | 'stockReservationKey'>

/**
 * The statements that end a session that can no longer be paid (it expired, or its delayed payment failed),
 * for one transaction: its status, unless it is complete already (events may come in any order), and its
 * code's use and its units given back.
 */
export function unpaidEndStatements(deps: SessionHoldsDeps, session: HeldBy, end: UnpaidEnd): Statement[] {
  const { discountReservationKey: discountKey, stockReservationKey: unitsKey } = session
  return [
    deps.sessions.statusStatement(session.id, end, ['open', 'payment_pending']),
    ...(discountKey ? [deps.discounts.releaseStatement(discountKey)] : []),
    ...(unitsKey ? [deps.stock.releaseStatement(unitsKey)] : []),
  ]
}

/**
 * The customer finished with a delayed payment method (a bank debit): the session waits for the money, and
 * its code's use and its units, while still held, stay held for `DELAYED_PAYMENT_HOLD_MS` instead of running
 * out with the payment session's 25 hours, so the days the bank takes cannot let others take them. A
 * session already complete or ended holds nothing, so nothing is extended for it.
 */
export function delayedPaymentStatements(deps: SessionHoldsDeps, session: HeldBy, now: Date): Statement[] {
  const { discountReservationKey: discountKey, stockReservationKey: unitsKey } = session
  const until = new Date(now.getTime() + DELAYED_PAYMENT_HOLD_MS)
  return [
    deps.sessions.statusStatement(session.id, 'payment_pending', ['open']),
    ...(discountKey ? [deps.discounts.holdStatement(discountKey, now, until)] : []),
    ...(unitsKey ? [deps.stock.holdStatement(unitsKey, now, until)] : []),
  ]
}
