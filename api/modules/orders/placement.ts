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
import {
  builtOnce,
  everyColumn,
  perSql,
  placeholders,
  type SharedValues,
  type Statement,
} from '../../lib/statements'
import type { JobQueue } from '../jobs/service'
import { ORDER_JOBS, type OrderDraft, SYSTEM_ACTOR } from './model'
import { orderNumberSql } from './number'

/**
 * The order's transaction names its new order by the checkout session and the payment event, given once
 * as the transaction's shared values (api/lib/statements.ts): the SQL below is then the same text for every
 * order, so the statements that use it are built once.
 */
const SESSION = sql.placeholder('orderSession')
const EVENT = sql.placeholder('orderEvent')

/** SQL: the id of the session's order, made by this transaction or by an earlier one. */
const ORDER_ID = sql<number>`(select ${orders.id} from ${orders} where ${orders.checkoutSessionId} = ${SESSION})`
/** SQL: its number as customers see it. */
const ORDER_NUMBER = sql<string>`(select ${orderNumberSql(orders.id)} from ${orders} where ${orders.checkoutSessionId} = ${SESSION})`
/** SQL: 1 when this payment event made the order (see OrderPlacement.created). */
const CREATED = sql<number>`exists (select 1 from ${orders} where ${orders.checkoutSessionId} = ${SESSION} and ${orders.sourceEventId} = ${EVENT})`

/** The payload of the order's jobs: `{ orderId }`. One object, so the job's INSERT is built once. */
const ORDER_JOB_PAYLOAD = sql`json_object('orderId', ${ORDER_ID})`

/** Reads back what the transaction made: the order's id, whether this event made it, its warnings. */
function resultQuery(db: Database) {
  return db
    .select({
      id: orders.id,
      created: CREATED,
      discountWarning: orders.discountWarning,
      stockWarning: orders.stockWarning,
    })
    .from(orders)
    .where(eq(orders.checkoutSessionId, SESSION))
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
  /** The values of the placeholders in all of the above: give them to the transaction (`commitTogether`). */
  shared: SharedValues
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

/** Every column a new order is written with. */
const ORDER_COLUMNS = everyColumn<ReturnType<typeof orderRow>>()([
  'uid',
  'checkoutSessionId',
  'paymentRef',
  'sourceEventId',
  'userId',
  'email',
  'customerKey',
  'customerName',
  'shippingAddress',
  'billingAddress',
  'subtotalCents',
  'discountCents',
  'discountCode',
  'shippingCents',
  'totalCents',
  'itemCount',
  'totalWeightTenthsOz',
  'shippingCarrier',
  'shippingService',
  'shippingServiceToken',
  'status',
  'createdAt',
  'updatedAt',
])

interface PlacementDeps {
  db: Database
  clock: Clock
  jobs: JobQueue
}

/** A line's columns the INSERT takes from the order (its order id comes from the transaction). */
const LINE_COLUMNS = [
  'position',
  'productId',
  'name',
  'variant',
  'stockVariant',
  'unitCents',
  'quantity',
  'discountCents',
  'weightTenthsOz',
] as const satisfies readonly (keyof typeof orderLines.$inferInsert)[]

type LineValues = Pick<typeof orderLines.$inferInsert, (typeof LINE_COLUMNS)[number]>

/** Orders with more lines than this build their lines' INSERT as usual: the kept shapes stay few. */
const MOST_LINES_BUILT_ONCE = 20

/**
 * The lines' INSERT, built once for each count of lines (its SQL has a row of values per line): the
 * placeholders of line i are named `${column}${i}`.
 */
function createLinesInsert(db: Database) {
  const byCount = new Map<number, ReturnType<typeof builtOnce<Record<string, unknown>>>>()
  const rowsFor = (count: number) =>
    Array.from({ length: count }, (_, index) => ({
      orderId: ORDER_ID,
      ...placeholders(LINE_COLUMNS, String(index)),
    }))
  return (lines: readonly LineValues[]): Statement => {
    if (lines.length > MOST_LINES_BUILT_ONCE) {
      return db
        .insert(orderLines)
        .values(lines.map((line) => ({ ...line, orderId: ORDER_ID })))
        .onConflictDoNothing()
    }
    let insert = byCount.get(lines.length)
    if (!insert) {
      const count = lines.length
      insert = builtOnce(() => db.insert(orderLines).values(rowsFor(count)).onConflictDoNothing())
      byCount.set(lines.length, insert)
    }
    const values: Record<string, unknown> = {}
    for (const [index, line] of lines.entries())
      for (const column of LINE_COLUMNS) values[`${column}${index}`] = line[column] ?? null
    return insert.with(values)
  }
}

/**
 * The order's rows: the UNIQUE checkout session id turns a second attempt into no change at all. The order,
 * its lines (for each count of lines) and its history entry are built once.
 */
function createRowStatements({ db, clock }: PlacementDeps) {
  const insertLines = createLinesInsert(db)
  const insertOrder = builtOnce<ReturnType<typeof orderRow>>(() =>
    db
      .insert(orders)
      .values(placeholders(ORDER_COLUMNS))
      .onConflictDoNothing({ target: orders.checkoutSessionId }),
  )
  // The history starts with the payment, once: a repeated event finds the entry there already.
  const firstHistoryEntry = builtOnce<{ now: number }>(() =>
    db.run(sql`insert into ${orderHistory} (order_id, from_status, to_status, actor, reason, created_at)
      select ${orders.id}, null, 'pending', ${SYSTEM_ACTOR}, 'Payment confirmed', ${sql.placeholder('now')}
      from ${orders}
      where ${orders.checkoutSessionId} = ${SESSION}
        and not exists (select 1 from ${orderHistory} where ${orderHistory.orderId} = ${orders.id})`),
  )
  return (draft: OrderDraft, eventId: string): Statement[] => {
    const now = clock.now()
    const lines = draft.lines.map(
      (line, position): LineValues => ({
        position,
        productId: line.productId,
        name: line.name,
        variant: line.variant,
        stockVariant: line.stockVariant ?? null,
        unitCents: line.unitCents,
        quantity: line.quantity,
        discountCents: line.discountCents,
        weightTenthsOz: line.weightTenthsOz,
      }),
    )
    return [
      insertOrder.with(orderRow(draft, eventId, now)),
      insertLines(lines),
      firstHistoryEntry.with({ now: now.getTime() }),
    ]
  }
}

/** SQL: the number of the first order of the same customer paid before the order `orderId` names, or NULL. */
function earlierOrderNumberSql(orderId: SQL): SQL<string | null> {
  return sql<string | null>`(select ${orderNumberSql(sql`earlier.id`)} from ${orders} earlier, ${orders} paid
    where paid.id = ${orderId} and earlier.id < paid.id
      and (earlier.customer_key = paid.customer_key
           or (paid.user_id is not null and earlier.user_id = paid.user_id))
    order by earlier.id limit 1)`
}

/** A warning for staff as SQL the transaction evaluates, one object per shape, with that shape's values. */
export interface WarningSql {
  sql: SQL
  values: Record<string, unknown>
}

/**
 * Writes a warning (SQL evaluated in the paid order's transaction; NULL leaves it as it is) on the order for
 * staff. Only the event that made the order sets it, so a repeated event never judges an old order by what
 * happened after it. Built once per warning SQL: the module that words the warning gives one SQL object per
 * shape (the stock module's per count of lines, the discounts module's per kind of customer) and its values
 * apart.
 */
function warningWrite(db: Database, column: 'discountWarning' | 'stockWarning') {
  const writes = perSql(() =>
    builtOnce<Record<string, unknown>, [SQL, SQL, SQL]>((text, orderId, created) =>
      db
        .update(orders)
        .set({ [column]: sql`${text}` })
        .where(and(sql`${orders.id} = ${orderId}`, sql`${created}`, sql`${orders[column]} is null`)),
    ),
  )
  return (order: OrderPlacement, warning: WarningSql): Statement =>
    writes(warning.sql).with(warning.values, warning.sql, order.orderId, order.created)
}

/** The confirmation e-mail and the label purchase, keyed by the session so each is queued once. */
function jobStatements(jobs: JobQueue, checkoutSessionId: string): Statement[] {
  const payload = ORDER_JOB_PAYLOAD
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
  const rowStatements = createRowStatements(deps)
  const result = builtOnce(() => resultQuery(db))
  const discountWarningStatement = warningWrite(db, 'discountWarning')
  const stockWarningStatement = warningWrite(db, 'stockWarning')
  // One object per order SQL (every paid order's is the same), so the warning it goes into is built once.
  const earlierOrderNumbers = perSql(earlierOrderNumberSql)

  return {
    /** The order a paid checkout session makes, by the payment event `eventId`, as statements. */
    placement(draft: OrderDraft, eventId: string): OrderPlacement {
      return {
        orderId: ORDER_ID,
        orderNumber: ORDER_NUMBER,
        created: CREATED,
        statements: rowStatements(draft, eventId),
        jobs: jobStatements(deps.jobs, draft.checkoutSessionId),
        // Built once: typed as the query it was built from, whose rows it reads back.
        result: result.with({}) as unknown as ReturnType<typeof resultQuery>,
        shared: { orderSession: draft.checkoutSessionId, orderEvent: eventId },
      }
    },

    /** Writes on the order for staff why it broke a rule of its discount code (`warningWrite`). */
    discountWarningStatement,

    /**
     * Writes on the order for staff that its payment found too few units free (its hold ran out, or the
     * shelf was set below the holds), before its units are taken off the shelf (`warningWrite`).
     */
    stockWarningStatement,

    /**
     * SQL: the number of this customer's first order paid before `order` (the same customer key, or the
     * same account), or NULL: for the rules checked when an order is paid, in its transaction.
     */
    earlierOrderNumber: (order: OrderPlacement): SQL<string | null> => earlierOrderNumbers(order.orderId),
  }
}

export type OrderPlacementBuilder = ReturnType<typeof createOrderPlacement>
