/**
 * The statements that make an order, for the one transaction a paid checkout session is fulfilled in
 * (api/modules/fulfilment/service.ts composes them with the other modules' statements). Every statement is
 * a no-op the second time, so a duplicate or sibling payment event runs the same transaction harmlessly.
 */
import { customerKey } from '@core/rules/customer'
import { and, eq, type SQL, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { newOrderUid, orderHistory, orderLines, orders } from '../../../db/schema/orders'
import type { Clock } from '../../lib/clock'
import type { Statement } from '../../lib/statements'
import type { JobQueue } from '../jobs/service'
import { ORDER_JOBS, type OrderDraft, SYSTEM_ACTOR } from './model'
import { orderNumberSql } from './number'

/** Reads back what the transaction made: the order's id, whether this event made it, its warnings. */
function resultQuery(db: Database, checkoutSessionId: string, created: SQL<number>) {
  return db
    .select({
      id: orders.id,
      created,
      discountWarning: orders.discountWarning,
      stockWarning: orders.stockWarning,
    })
    .from(orders)
    .where(eq(orders.checkoutSessionId, checkoutSessionId))
    .limit(1)
}

/**
 * A paid session's order as statements, and the SQL the other modules' statements in the same
 * transaction name it by.
 */
export interface OrderPlacement {
  /** SQL: the id of the session's order, made by this transaction or by an earlier one. */
  orderId: SQL<number>
  /** SQL: its number as customers see it ('000042'). */
  orderNumber: SQL<string>
  /**
   * SQL: 1 when this payment event made the order, 0 when an earlier event had (a duplicate, or a sibling
   * event for the same session). Decided here, once, by the event the order records as its source; the
   * event's outcome, the discount warning and the read-back all use this one expression.
   */
  created: SQL<number>
  /** The order, its lines and its first history entry. */
  statements: Statement[]
  /** Its follow-up jobs, queued once per order: the confirmation e-mail and the label purchase. */
  jobs: Statement[]
  /** The last statement: reads back `{ id, created, discountWarning, stockWarning }`. */
  result: ReturnType<typeof resultQuery>
}

function orderRow(draft: OrderDraft, eventId: string, now: Date) {
  return {
    uid: newOrderUid(),
    checkoutSessionId: draft.checkoutSessionId,
    paymentRef: draft.paymentRef,
    sourceEventId: eventId,
    userId: draft.userId,
    email: draft.email,
    customerKey: customerKey(draft.email),
    customerName: draft.shippingAddress.name,
    shippingAddress: JSON.stringify(draft.shippingAddress),
    billingAddress: JSON.stringify(draft.billingAddress),
    subtotalCents: draft.subtotalCents,
    discountCents: draft.discountCents,
    discountCode: draft.discountCode,
    shippingCents: draft.shippingCents,
    totalCents: draft.totalCents,
    itemCount: draft.itemCount,
    totalWeightTenthsOz: draft.totalWeightTenthsOz,
    shippingCarrier: draft.shippingCarrier,
    shippingService: draft.shippingService,
    shippingServiceToken: draft.shippingServiceToken,
    status: 'pending' as const,
    createdAt: now,
    updatedAt: now,
  }
}

interface PlacementDeps {
  db: Database
  clock: Clock
  jobs: JobQueue
}

/** The order's rows: the UNIQUE checkout session id turns a second attempt into no change at all. */
function rowStatements(
  { db, clock }: PlacementDeps,
  draft: OrderDraft,
  eventId: string,
  orderId: SQL<number>,
): Statement[] {
  const now = clock.now()
  const lines = draft.lines.map((line, position) => ({
    orderId,
    position,
    productId: line.productId,
    name: line.name,
    variant: line.variant,
    unitCents: line.unitCents,
    quantity: line.quantity,
    discountCents: line.discountCents,
    weightTenthsOz: line.weightTenthsOz,
  }))
  return [
    db
      .insert(orders)
      .values(orderRow(draft, eventId, now))
      .onConflictDoNothing({ target: orders.checkoutSessionId }),
    db.insert(orderLines).values(lines).onConflictDoNothing(),
    // The history starts with the payment, once: a repeated event finds the entry there already.
    db.run(sql`insert into ${orderHistory} (order_id, from_status, to_status, actor, reason, created_at)
      select ${orders.id}, null, 'pending', ${SYSTEM_ACTOR}, 'Payment confirmed', ${now.getTime()}
      from ${orders}
      where ${orders.checkoutSessionId} = ${draft.checkoutSessionId}
        and not exists (select 1 from ${orderHistory} where ${orderHistory.orderId} = ${orders.id})`),
  ]
}

/** The confirmation e-mail and the label purchase, keyed by the session so each is queued once. */
function jobStatements(jobs: JobQueue, checkoutSessionId: string, orderId: SQL<number>): Statement[] {
  const payload = sql`json_object('orderId', ${orderId})`
  return [
    jobs.enqueueQuery(ORDER_JOBS.confirmationEmail, payload, {
      dedupeKey: `order-confirmation:${checkoutSessionId}`,
    }),
    jobs.enqueueQuery(ORDER_JOBS.purchaseLabel, payload, {
      dedupeKey: `purchase-label:${checkoutSessionId}`,
    }),
  ]
}

export function createOrderPlacement(deps: PlacementDeps) {
  const { db } = deps

  return {
    /** The order a paid checkout session makes, by the payment event `eventId`, as statements. */
    placement(draft: OrderDraft, eventId: string): OrderPlacement {
      const session = draft.checkoutSessionId
      const orderId = sql<number>`(select ${orders.id} from ${orders} where ${orders.checkoutSessionId} = ${session})`
      const created = sql<number>`exists (select 1 from ${orders} where ${orders.checkoutSessionId} = ${session} and ${orders.sourceEventId} = ${eventId})`
      return {
        orderId,
        orderNumber: sql<string>`(select ${orderNumberSql(orders.id)} from ${orders} where ${orders.checkoutSessionId} = ${session})`,
        created,
        statements: rowStatements(deps, draft, eventId, orderId),
        jobs: jobStatements(deps.jobs, session, orderId),
        result: resultQuery(db, session, created),
      }
    },

    /**
     * Writes `warning` (SQL evaluated in the transaction; NULL leaves it as it is) on the order for staff:
     * a paid order that broke a rule of its discount code. Only the event that made the order sets it, so a
     * repeated event never judges an old order by orders paid after it.
     */
    discountWarningStatement(order: OrderPlacement, warning: SQL): Statement {
      return db
        .update(orders)
        .set({ discountWarning: sql`${warning}` })
        .where(
          and(
            sql`${orders.id} = ${order.orderId}`,
            sql`${order.created}`,
            sql`${orders.discountWarning} is null`,
          ),
        )
    },

    /**
     * Writes `warning` (SQL evaluated in the transaction; NULL leaves it as it is) on the order for staff:
     * a payment that came after its stock hold ran out and found too few units. Only the event that made
     * the order sets it, before the order's units are taken off the shelf.
     */
    stockWarningStatement(order: OrderPlacement, warning: SQL): Statement {
      return db
        .update(orders)
        .set({ stockWarning: sql`${warning}` })
        .where(
          and(
            sql`${orders.id} = ${order.orderId}`,
            sql`${order.created}`,
            sql`${orders.stockWarning} is null`,
          ),
        )
    },

    /**
     * SQL: the number of this customer's first order paid before `order` (the same customer key, or the
     * same account), or NULL: for the rules checked when an order is paid, in its transaction.
     */
    earlierOrderNumber(order: OrderPlacement): SQL<string | null> {
      return sql`(select ${orderNumberSql(sql`earlier.id`)} from ${orders} earlier, ${orders} paid
        where paid.id = ${order.orderId} and earlier.id < paid.id
          and (earlier.customer_key = paid.customer_key
               or (paid.user_id is not null and earlier.user_id = paid.user_id))
        order by earlier.id limit 1)`
    },
  }
}

export type OrderPlacementBuilder = ReturnType<typeof createOrderPlacement>
