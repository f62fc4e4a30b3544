/** A customer's orders: their history and order pages, whether they have ordered, and forgetting them. */
import { and, asc, desc, eq, inArray, notInArray, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { orders } from '../../../db/schema/orders'
import type { Clock } from '../../lib/clock'
import { minimisedAddressSql } from '../../lib/minimised-address'
import type { Statement } from '../../lib/statements'
import type { Order } from './model'
import { readOrder, withLines } from './reads'

/**
 * Orders that no longer need the customer's address: shipped, cancelled, or refunded (nothing is sent
 * for a refunded order: it can no longer be marked shipped). Any other still waits to be sent.
 */
const SETTLED = ['shipped', 'cancelled', 'refunded'] as const

/** Whether an order is settled (shipped, cancelled or refunded): an account's deletion minimises it. */
export function isSettled(order: { status: string }): boolean {
  return (SETTLED as readonly string[]).includes(order.status)
}

/**
 * For an account being deleted, unexecuted, for the deletion's batch (docs/decisions/018): its settled
 * orders (shipped, cancelled or refunded) stay for the accounts with the customer minimised (no name,
 * e-mail, street or city; state, country and ZIP prefix kept; no link to the label, which shows the
 * address) and no longer belong to an account. An order paid in the moment before the batch and not
 * shipped yet keeps its address so it can still be sent, like a guest's order; the deletion refuses while
 * it can see such an order.
 */
function forgetCustomerStatements(
  { db, clock }: { db: Database; clock: Clock },
  userId: string,
): [Statement, Statement] {
  const now = clock.now()
  return [
    db
      .update(orders)
      .set({
        userId: null,
        email: '',
        customerKey: '',
        customerName: '',
        shippingAddress: minimisedAddressSql(orders.shippingAddress),
        billingAddress: minimisedAddressSql(orders.billingAddress),
        labelUrl: null,
        updatedAt: now,
      })
      .where(and(eq(orders.userId, userId), inArray(orders.status, [...SETTLED]))),
    db.update(orders).set({ userId: null, updatedAt: now }).where(eq(orders.userId, userId)),
  ]
}

export function createCustomerOrders(deps: { db: Database; clock: Clock }) {
  const { db } = deps
  return {
    /**
     * Whether this account has ever placed an order (orders exist only once paid). By account only: it
     * answers the account's holder about their own orders, never about an e-mail's (docs/decisions/021).
     */
    async hasPaidOrder(customer: { userId: string }): Promise<boolean> {
      const [row] = await db
        .select({ one: sql<number>`1` })
        .from(orders)
        .where(eq(orders.userId, customer.userId))
        .limit(1)
      return row !== undefined
    },

    /**
     * An account's orders with their lines, newest first (account order history). Only orders placed while
     * signed in to that account: a guest order with the same e-mail is not shown, because sign-up does not
     * prove the e-mail belongs to whoever registered it (docs/decisions/010-order-history-by-account.md).
     */
    async forUser(userId: string, limit = 100): Promise<Order[]> {
      const rows = await db
        .select()
        .from(orders)
        .where(eq(orders.userId, userId))
        .orderBy(desc(orders.id))
        .limit(Math.min(Math.max(limit, 1), 500))
      return withLines(db, rows)
    },

    /** Every order of an account with its lines, newest first, however many: the customer's data export. */
    async allForUser(userId: string): Promise<Order[]> {
      return withLines(
        db,
        await db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.id)),
      )
    },

    /**
     * The number of an order of this account that has not shipped yet and still may (it needs its
     * address), or null.
     */
    async unshippedFor(userId: string): Promise<number | null> {
      const [row] = await db
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.userId, userId), notInArray(orders.status, [...SETTLED])))
        .orderBy(asc(orders.id))
        .limit(1)
      return row?.id ?? null
    },

    /** One order, only if it belongs to this account; null for anyone else's, as for one that does not exist. */
    async getForUser(userId: string, id: number): Promise<Order | null> {
      const order = await readOrder(db, id)
      return order && order.userId === userId ? order : null
    },

    forgetCustomerQueries: (userId: string) => forgetCustomerStatements(deps, userId),
  }
}
