/** Stored checkout sessions: read, moved between statuses, completed by their order, forgotten. */
import type { CheckoutSessionStatus } from '@core/rules/checkout-status'
import { formatOrderNumber } from '@core/rules/order-status'
import { and, eq, gt, inArray, not, or, type SQL, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { checkoutSessions } from '../../../db/schema/checkout'
import type { Clock } from '../../lib/clock'
import { notFound } from '../../lib/domain-errors'
import { minimisedAddressSql } from '../../lib/minimised-address'
import { builtOnce, type Statement } from '../../lib/statements'
import { type CheckoutRecord, isSessionId, PAYMENT_SESSION_LIFETIME_MS, toRecord } from './model'

interface SessionsDeps {
  db: Database
  clock: Clock
}

/**
 * For an account being deleted, unexecuted, for the deletion's batch (docs/decisions/018): none of its
 * checkout sessions stays the account's. One whose payment may still complete (open and younger than a
 * payment session lives, or waiting for a delayed payment) keeps its e-mail and addresses, so the order it
 * may yet make can be sent and confirmed, as a guest's would; every other one is minimised like the
 * account's orders.
 */
function forgetCustomerStatements({ db, clock }: SessionsDeps, userId: string): [Statement, Statement] {
  const now = clock.now()
  const payable = or(
    eq(checkoutSessions.status, 'payment_pending'),
    and(
      eq(checkoutSessions.status, 'open'),
      gt(checkoutSessions.createdAt, new Date(now.getTime() - PAYMENT_SESSION_LIFETIME_MS)),
    ),
  )
  return [
    db
      .update(checkoutSessions)
      .set({
        userId: null,
        email: '',
        shippingAddress: minimisedAddressSql(checkoutSessions.shippingAddress),
        billingAddress: minimisedAddressSql(checkoutSessions.billingAddress),
        updatedAt: now,
      })
      .where(and(eq(checkoutSessions.userId, userId), not(payable as SQL))),
    db
      .update(checkoutSessions)
      .set({ userId: null, updatedAt: now })
      .where(eq(checkoutSessions.userId, userId)),
  ]
}

export function createCheckoutSessions(deps: SessionsDeps) {
  const { db, clock } = deps
  // Every paid order completes its session: built once, `orderId` the order transaction's SQL for its
  // new order, the same object every time (api/lib/statements.ts).
  const markComplete = builtOnce<{ id: string; now: number }, [SQL<number>]>((orderId) =>
    db
      .update(checkoutSessions)
      .set({ status: 'complete', orderId: sql`${orderId}`, updatedAt: sql`${sql.placeholder('now')}` })
      .where(eq(checkoutSessions.id, sql.placeholder('id'))),
  )

  /**
   * Moves a session to `to` only from one of `from`, as a statement for a transaction: a late 'expired'
   * never overwrites 'complete', so events may arrive in any order. Returns the session's id if it moved.
   */
  function statusStatement(id: string, to: CheckoutSessionStatus, from: readonly CheckoutSessionStatus[]) {
    return db
      .update(checkoutSessions)
      .set({ status: to, updatedAt: clock.now() })
      .where(and(eq(checkoutSessions.id, id), inArray(checkoutSessions.status, [...from])))
      .returning({ id: checkoutSessions.id })
  }

  // Read for every payment event: its SQL (thirty columns) is built once, not on every call.
  const recordQuery = db
    .select()
    .from(checkoutSessions)
    .where(eq(checkoutSessions.id, sql.placeholder('id')))
    .limit(1)
    .prepare()

  // Asked on every checkout (open-session.ts, unendedKey): built once.
  const endedUnderQuery = db
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.stockReservationKey, sql.placeholder('key')),
        inArray(checkoutSessions.status, ['expired', 'payment_failed']),
      ),
    )
    .limit(1)
    .prepare()

  // Asked when a cart names its earlier session (service.ts): built once. Paid ones first.
  const payableUnderQuery = db
    .select({ id: checkoutSessions.id, status: checkoutSessions.status })
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.stockReservationKey, sql.placeholder('key')),
        inArray(checkoutSessions.status, ['complete', 'payment_pending', 'open']),
      ),
    )
    .orderBy(sql`${checkoutSessions.status} = 'open'`)
    .limit(1)
    .prepare()

  return {
    async record(id: string): Promise<CheckoutRecord | null> {
      const [row] = await recordQuery.all({ id })
      return row ? toRecord(row) : null
    },

    /** The session stored under a request's key if it ended unpaid (expired, or its payment failed), or null. */
    async endedUnder(key: string): Promise<string | null> {
      const [row] = await endedUnderQuery.all({ key })
      return row?.id ?? null
    },

    /**
     * The session stored under a request's key that was paid, has its payment on its way or is open (in
     * that order), or null.
     */
    async payableUnder(key: string): Promise<{ id: string; status: CheckoutSessionStatus } | null> {
      const [row] = await payableUnderQuery.all({ key })
      return row ?? null
    },

    statusStatement,

    /**
     * The payment made an order: the session is complete and remembers which order it made. A statement
     * for the transaction that makes the order; `orderId` is SQL for the order's id there.
     */
    markCompleteStatement(id: string, orderId: SQL<number>): Statement {
      return markComplete.with({ id, now: clock.now().getTime() }, orderId)
    },

    forgetCustomerQueries: (userId: string) => forgetCustomerStatements(deps, userId),

    /** For /success: the session's state and, once the order exists, its number. Nothing personal. */
    async status(id: string): Promise<{ status: CheckoutSessionStatus; orderNumber?: string }> {
      if (!isSessionId(id)) throw notFound('Checkout session not found.')
      const [row] = await db
        .select({ status: checkoutSessions.status, orderId: checkoutSessions.orderId })
        .from(checkoutSessions)
        .where(eq(checkoutSessions.id, id))
        .limit(1)
      if (!row) throw notFound('Checkout session not found.')
      if (row.orderId !== null) return { status: 'complete', orderNumber: formatOrderNumber(row.orderId) }
      return { status: row.status }
    },
  }
}

export type CheckoutSessions = ReturnType<typeof createCheckoutSessions>
