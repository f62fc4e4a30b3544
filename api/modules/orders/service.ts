import { customerKey } from '@core/rules/customer'
import { formatOrderNumber, type OrderStatus, statusesThatCanMoveTo } from '@core/rules/order-status'
import { and, asc, count, desc, eq, gte, inArray, lt, ne, type SQL, sql } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core'
import type { Database } from '../../../db/client'
import { newOrderUid, orderHistory, orderLines, orderStatusCounts, orders } from '../../../db/schema/orders'
import {
  type Mailer,
  PaidServiceUnavailableError,
  type PurchasedLabel,
  type ShippingAddress,
  type ShippingProvider,
} from '../../adapters/types'
import type { Config } from '../../env'
import type { Clock } from '../../lib/clock'
import { crashPoint } from '../../lib/crash-points'
import { labelsDirFor } from '../../lib/data-folders'
import { errorMessage, log } from '../../lib/log'
import { minimisedAddressSql } from '../../lib/minimised-address'
import type { AbandonedJobHandler, JobContext, JobHandler, JobQueue } from '../jobs/service'
import { parcelFor } from '../shipping/pricing'
import { orderConfirmationEmail, orderShippedEmail } from './email'
import { type LabelSource, labelSource } from './label'
import type { OrderDraft } from './model'

export const ORDER_JOBS = {
  confirmationEmail: 'order-confirmation-email',
  purchaseLabel: 'purchase-label',
  shippedEmail: 'order-shipped-email',
} as const

/** Who made a status move that no person asked for: the webhook, the label job. */
export const SYSTEM_ACTOR = 'system'

/** Who moved an order and why, for its history. */
export interface MoveNote {
  /** SYSTEM_ACTOR, or the id of the staff member who pressed the button. */
  actor: string
  reason: string
}

export type OrderRow = typeof orders.$inferSelect
type OrderLineRow = typeof orderLines.$inferSelect
export type OrderHistoryEntry = typeof orderHistory.$inferSelect

export interface Order extends Omit<OrderRow, 'shippingAddress' | 'billingAddress'> {
  shippingAddress: ShippingAddress
  billingAddress: ShippingAddress
  lines: OrderLineRow[]
}

/**
 * The customer deleted their account after this order shipped: it keeps no e-mail (forgetCustomerQueries),
 * so an e-mail about it still waiting in the queue has nobody to go to and is dropped, not retried.
 */
function customerForgotten(order: Pick<OrderRow, 'email'>): boolean {
  return order.email === ''
}

/**
 * The carrier reference of an order's label, in SQL: the padded order number and the order's uid
 * (`000042-3f9c…`). The number alone comes back after a restored backup; the uid never does, so a label
 * found under this reference is this order's. An order that has a reference keeps it: a label may have
 * been bought under it (orders from before the uid carry the number alone).
 */
const labelReference = sql`coalesce(${orders.labelReference}, printf('%06d-%s', ${orders.id}, ${orders.uid}))`

function orderIdPayload(payload: unknown): number {
  const id = (payload as { orderId?: unknown } | null)?.orderId
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new Error('job payload has no order id')
  return id
}

export function createOrdersService(
  deps: { db: Database; clock: Clock; config: Config; shipping: ShippingProvider; mailer: Mailer } & {
    jobs: JobQueue
  },
) {
  const { db, clock, jobs } = deps

  /**
   * One conditional UPDATE: the order moves to `to` only from `from` (or, given null, from any status the
   * rules allow: `statusesThatCanMoveTo`), so a move cannot happen twice. False when the order was not in
   * such a status. A move the rules do not allow is a programming error.
   *
   * The history entry is written by the same batch (one transaction), by an INSERT … SELECT with the same
   * condition just before the UPDATE: both see the same row, so the entry exists exactly when the move
   * happened, and records the status the order really left. `followUp` builds one more statement for the
   * batch (a job to queue) from a condition that holds only if the move happened: SQLite's changes(),
   * read right after the UPDATE, counts the rows that UPDATE moved.
   */
  async function move(
    id: number,
    from: OrderStatus | null,
    to: OrderStatus,
    note: MoveNote,
    extra: SQLiteUpdateSetSource<typeof orders> = {},
    followUp?: (moved: SQL) => ReturnType<typeof jobs.enqueueQuery>,
  ): Promise<boolean> {
    const allowed = statusesThatCanMoveTo(to)
    if (from !== null && !allowed.includes(from))
      throw new Error(`an order cannot move from ${from} to ${to}`)
    const now = clock.now()
    const eligible = and(eq(orders.id, id), inArray(orders.status, from === null ? allowed : [from]))
    const [, moved] = await db.batch([
      db.run(sql`insert into ${orderHistory} (order_id, from_status, to_status, actor, reason, created_at)
        select ${orders.id}, ${orders.status}, ${to}, ${note.actor}, ${note.reason.slice(0, 300)}, ${now.getTime()}
        from ${orders} where ${eligible}`),
      db
        .update(orders)
        .set({ ...extra, status: to, updatedAt: now })
        .where(eligible)
        .returning({ id: orders.id }),
      ...(followUp ? [followUp(sql`changes() > 0`)] : []),
    ])
    return moved.length > 0
  }

  /** Buys a label; the crash drill may kill the process right after the carrier sold it. */
  async function buyLabelAtCarrier(
    request: Parameters<typeof deps.shipping.buyLabel>[0],
  ): Promise<PurchasedLabel> {
    const label = await deps.shipping.buyLabel(request)
    crashPoint('label-bought')
    return label
  }

  /** processing → failed with the reason staff read; a lost move (the order moved on meanwhile) is logged. */
  async function failLabel(id: number, reason: string): Promise<void> {
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
  }

  /** Orders with their lines (in cart order) and addresses read. */
  async function withLines(rows: OrderRow[]): Promise<Order[]> {
    if (rows.length === 0) return []
    const lines = await db
      .select()
      .from(orderLines)
      .where(
        inArray(
          orderLines.orderId,
          rows.map((row) => row.id),
        ),
      )
      .orderBy(asc(orderLines.position))
    return rows.map((row) => ({
      ...row,
      shippingAddress: JSON.parse(row.shippingAddress) as ShippingAddress,
      billingAddress: JSON.parse(row.billingAddress) as ShippingAddress,
      lines: lines.filter((line) => line.orderId === row.id),
    }))
  }

  const service = {
    /**
     * Makes the order for a paid checkout session, once. The order, its lines and its follow-up jobs go in
     * one batch (a transaction): the UNIQUE checkout session id turns a second attempt, from a duplicate
     * or a sibling event, into no change at all. `created` tells whether this event made the order.
     */
    async create(
      session: OrderDraft,
      eventId: string,
      alsoInBatch: (orderId: SQL) => BatchItem<'sqlite'>[] = () => [],
    ): Promise<{ orderId: number; created: boolean; discountWarning: string | null }> {
      const now = clock.now()
      const orderIdSql = sql`(select ${orders.id} from ${orders} where ${orders.checkoutSessionId} = ${session.checkoutSessionId})`
      const payload = sql`json_object('orderId', ${orderIdSql})`
      const results = await db.batch([
        db
          .insert(orders)
          .values({
            uid: newOrderUid(),
            checkoutSessionId: session.checkoutSessionId,
            sourceEventId: eventId,
            userId: session.userId,
            email: session.email,
            customerKey: customerKey(session.email),
            customerName: session.shippingAddress.name,
            shippingAddress: JSON.stringify(session.shippingAddress),
            billingAddress: JSON.stringify(session.billingAddress),
            subtotalCents: session.subtotalCents,
            discountCents: session.discountCents,
            discountCode: session.discountCode,
            shippingCents: session.shippingCents,
            totalCents: session.totalCents,
            itemCount: session.itemCount,
            totalWeightTenthsOz: session.totalWeightTenthsOz,
            shippingCarrier: session.shippingCarrier,
            shippingService: session.shippingService,
            shippingServiceToken: session.shippingServiceToken,
            status: 'pending',
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing({ target: orders.checkoutSessionId }),
        db
          .insert(orderLines)
          .values(
            session.lines.map((line, position) => ({
              orderId: orderIdSql,
              position,
              productId: line.productId,
              name: line.name,
              variant: line.variant,
              unitCents: line.unitCents,
              quantity: line.quantity,
              discountCents: line.discountCents,
              weightTenthsOz: line.weightTenthsOz,
            })),
          )
          .onConflictDoNothing(),
        jobs.enqueueQuery(ORDER_JOBS.confirmationEmail, payload, {
          dedupeKey: `order-confirmation:${session.checkoutSessionId}`,
        }),
        jobs.enqueueQuery(ORDER_JOBS.purchaseLabel, payload, {
          dedupeKey: `purchase-label:${session.checkoutSessionId}`,
        }),
        // The history starts with the payment, once: a repeated event finds the entry there already.
        db.run(sql`insert into ${orderHistory} (order_id, from_status, to_status, actor, reason, created_at)
          select ${orders.id}, null, 'pending', ${SYSTEM_ACTOR}, 'Payment confirmed', ${now.getTime()}
          from ${orders}
          where ${orders.checkoutSessionId} = ${session.checkoutSessionId}
            and not exists (select 1 from ${orderHistory} where ${orderHistory.orderId} = ${orders.id})`),
        // What the caller records about the order (the session it completes, the discount it used …),
        // committed with it: one transaction per paid session instead of one per step.
        ...alsoInBatch(orderIdSql),
        db
          .select({
            id: orders.id,
            sourceEventId: orders.sourceEventId,
            discountWarning: orders.discountWarning,
          })
          .from(orders)
          .where(eq(orders.checkoutSessionId, session.checkoutSessionId))
          .limit(1),
      ])
      const [row] = results[results.length - 1] as {
        id: number
        sourceEventId: string | null
        discountWarning: string | null
      }[]
      if (!row) throw new Error(`order for ${session.checkoutSessionId} missing after insert`)
      return {
        orderId: row.id,
        created: row.sourceEventId === eventId,
        discountWarning: row.discountWarning,
      }
    },

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
     * SQL for the number of this customer's first order paid before the order `orderId` (the same customer
     * key, or the same account), or NULL: for the rules checked when an order is paid, in its batch.
     */
    earlierOrderSql(orderId: SQL): SQL {
      return sql`(select printf('%06d', earlier.id) from ${orders} earlier, ${orders} paid
        where paid.id = ${orderId} and earlier.id < paid.id
          and (earlier.customer_key = paid.customer_key
               or (paid.user_id is not null and earlier.user_id = paid.user_id))
        order by earlier.id limit 1)`
    },

    /**
     * Marks the order made by `eventId` with `warning` (SQL evaluated in the batch; NULL leaves it as it
     * is) for staff: a paid order that broke a rule of its discount code. Only the event that made the
     * order sets it, so a repeated event never judges an old order by orders paid after it.
     */
    discountWarningQuery(orderId: SQL, eventId: string, warning: SQL): BatchItem<'sqlite'> {
      return db
        .update(orders)
        .set({ discountWarning: sql`${warning}` })
        .where(
          and(
            sql`${orders.id} = ${orderId}`,
            eq(orders.sourceEventId, eventId),
            sql`${orders.discountWarning} is null`,
          ),
        )
    },

    /** Newest first, without lines. */
    async recent(limit = 50): Promise<OrderRow[]> {
      return service.page({ limit })
    },

    /**
     * One page of orders, newest first, without lines: those numbered below `before` when it is given, in
     * one of `statuses` when they are. Keyset paging on the primary key (the status index holds it too), so
     * a page costs the same at order 100,000 as at order 10.
     */
    async page(options: { limit: number; before?: number; statuses?: OrderStatus[] }): Promise<OrderRow[]> {
      return db
        .select()
        .from(orders)
        .where(
          and(
            options.before === undefined ? undefined : lt(orders.id, options.before),
            options.statuses === undefined ? undefined : inArray(orders.status, options.statuses),
          ),
        )
        .orderBy(desc(orders.id))
        .limit(Math.min(Math.max(options.limit, 1), 500))
    },

    /** Every status move of an order, oldest first. */
    async history(orderId: number): Promise<OrderHistoryEntry[]> {
      return db
        .select()
        .from(orderHistory)
        .where(eq(orderHistory.orderId, orderId))
        .orderBy(asc(orderHistory.id))
    },

    /**
     * Where an order's label can be read: the built-in carrier's PDF under DATA_DIR/labels, or the carrier's
     * https address. Null when the order has none (or its stored address is neither).
     */
    async label(orderId: number): Promise<LabelSource | null> {
      const [row] = await db
        .select({ labelUrl: orders.labelUrl })
        .from(orders)
        .where(eq(orders.id, orderId))
        .limit(1)
      return labelSource(row?.labelUrl ?? null, labelsDirFor(deps.config.dataDir))
    },

    /** How many orders are in each status, and how many were placed since `since`. */
    async counts(since: Date): Promise<{ byStatus: Record<OrderStatus, number>; placedSince: number }> {
      // Kept by triggers on every order change (migration 0010): five rows, whatever the shop's size.
      const rows = await db
        .select({ status: orderStatusCounts.status, n: orderStatusCounts.orders })
        .from(orderStatusCounts)
      const byStatus: Record<OrderStatus, number> = {
        pending: 0,
        processing: 0,
        label_created: 0,
        shipped: 0,
        failed: 0,
      }
      for (const row of rows) byStatus[row.status] = row.n
      const [placed] = await db.select({ n: count() }).from(orders).where(gte(orders.createdAt, since))
      return { byStatus, placedSince: placed?.n ?? 0 }
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
      return withLines(rows)
    },

    /** Every order of an account with its lines, newest first, however many: the customer's data export. */
    async allForUser(userId: string): Promise<Order[]> {
      return withLines(
        await db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.id)),
      )
    },

    /** The number of an order of this account that has not shipped yet (still needs its address), or null. */
    async unshippedFor(userId: string): Promise<number | null> {
      const [row] = await db
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.userId, userId), ne(orders.status, 'shipped')))
        .orderBy(asc(orders.id))
        .limit(1)
      return row?.id ?? null
    },

    /**
     * For an account being deleted, unexecuted, for the deletion's batch (docs/decisions/018): its shipped
     * orders stay for the accounts with the customer minimised (no name, e-mail, street or city; state,
     * country and ZIP prefix kept; no link to the label, which shows the address) and no longer belong to
     * an account. An order paid in the moment before the batch and not shipped yet keeps its address so it
     * can still be sent, like a guest's order; the deletion refuses while it can see such an order.
     */
    forgetCustomerQueries(userId: string): [BatchItem<'sqlite'>, BatchItem<'sqlite'>] {
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
          .where(and(eq(orders.userId, userId), eq(orders.status, 'shipped'))),
        db.update(orders).set({ userId: null, updatedAt: now }).where(eq(orders.userId, userId)),
      ]
    },

    /** One order, only if it belongs to this account; null for anyone else's, as for one that does not exist. */
    async getForUser(userId: string, id: number): Promise<Order | null> {
      const order = await service.get(id)
      return order && order.userId === userId ? order : null
    },

    async get(id: number): Promise<Order | null> {
      const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1)
      if (!row) return null
      const lines = await db
        .select()
        .from(orderLines)
        .where(eq(orderLines.orderId, id))
        .orderBy(asc(orderLines.position))
      return {
        ...row,
        shippingAddress: JSON.parse(row.shippingAddress) as ShippingAddress,
        billingAddress: JSON.parse(row.billingAddress) as ShippingAddress,
        lines,
      }
    },

    async sendConfirmation(orderId: number): Promise<void> {
      const order = await service.get(orderId)
      if (!order) throw new Error(`order ${orderId} not found`)
      if (customerForgotten(order)) return
      await deps.mailer.send(orderConfirmationEmail(order, deps.config))
    },

    /**
     * pending → processing → label_created, or → failed. A label costs money and its purchase cannot be
     * rolled back with our database, so each order gets one label however often this runs:
     * - the move to processing records the carrier reference (the padded order number and the order's
     *   uid) before anything is bought. It is one conditional UPDATE: the attempt that made it knows
     *   nothing was bought before;
     * - any other attempt (the job run again after a crash, an expired lease or a lost carrier answer, or
     *   a staff Retry) first asks the carrier for a label bought under that reference, and keeps it;
     * - the result of every move is checked: a label bought for an order that has moved on is logged with
     *   its tracking number, never dropped without a word.
     * Attempts follow each other rather than overlap: the job queue hands a job to one worker at a time,
     * and a carrier call times out long before a job's lease runs out.
     */
    async purchaseLabel(orderId: number, context: Pick<JobContext, 'lastAttempt'>): Promise<void> {
      const number = formatOrderNumber(orderId)
      const startedHere = await move(
        orderId,
        'pending',
        'processing',
        { actor: SYSTEM_ACTOR, reason: 'Buying the shipping label' },
        { labelReference },
      )
      const order = await service.get(orderId)
      // label_created or shipped: the label exists. failed: the order waits for staff. Nothing to buy.
      if (order?.status !== 'processing') return
      const reference = order.labelReference ?? `${number}-${order.uid}`

      let label: PurchasedLabel
      try {
        const earlier = startedHere ? null : await deps.shipping.findLabel(reference)
        label =
          earlier ??
          (await buyLabelAtCarrier({
            reference,
            serviceToken: order.shippingServiceToken,
            parcel: parcelFor(order.itemCount, order.totalWeightTenthsOz),
            address: order.shippingAddress,
          }))
      } catch (error) {
        if (error instanceof PaidServiceUnavailableError) {
          // Retrying on a timer would meet the same rates: staff decide (Retry once it is offered, or refund).
          const reason = `${error.message}; the customer paid for ${order.shippingService}`
          log.error('label not bought', { order: number, reason: errorMessage(reason) })
          await failLabel(order.id, reason)
          return
        }
        if (context.lastAttempt) {
          await failLabel(order.id, error instanceof Error ? error.message : String(error))
        }
        throw error
      }

      const recorded = await move(
        order.id,
        'processing',
        'label_created',
        { actor: SYSTEM_ACTOR, reason: `Label bought: ${label.carrier} ${label.trackingNumber}` },
        {
          shippoTrackingNumber: label.trackingNumber,
          labelUrl: label.labelUrl,
          trackingUrl: label.trackingUrl,
          failureReason: null,
        },
      )
      if (recorded) return
      const now = await service.get(order.id)
      // Another attempt found and recorded this same label first: nothing lost.
      if (now?.shippoTrackingNumber === label.trackingNumber) return
      const lost = `label ${label.trackingNumber} (${label.labelUrl}) was bought for order ${number} but the order is ${now?.status ?? 'gone'}: void it with the carrier or attach it by hand`
      log.error('label bought but not recorded', { order: number, detail: errorMessage(lost) })
      throw new Error(lost)
    },

    /**
     * Staff Retry on a failed order: back to processing and a fresh label job, in one batch; false if it was
     * not failed. Of two Retries at once only one moves the order, so only one job buys a label.
     */
    async retry(orderId: number, actor: string = SYSTEM_ACTOR): Promise<boolean> {
      return move(
        orderId,
        'failed',
        'processing',
        { actor, reason: 'Retry: buying the label again' },
        { labelReference },
        (moved) => jobs.enqueueQuery(ORDER_JOBS.purchaseLabel, { orderId }, { when: moved }),
      )
    },

    /**
     * label_created → shipped (staff handed the parcel to the carrier), with the customer's shipping e-mail
     * queued in the same batch under a key of its own: pressed twice, or by two people, it moves the order
     * once and sends one e-mail. False if the order had no label yet or was shipped already.
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

    async sendShippedEmail(orderId: number): Promise<void> {
      const order = await service.get(orderId)
      if (!order) throw new Error(`order ${orderId} not found`)
      if (customerForgotten(order)) return
      await deps.mailer.send(orderShippedEmail(order, deps.config))
    },

    /**
     * A label job whose worker died on its last attempt: the order goes to failed, as after a last attempt
     * that failed, so staff see it among the failed labels. A label may have been bought before the worker
     * died; Retry asks the carrier for it before buying (the order carries its reference from here on).
     */
    async abandonLabel(orderId: number, reason: string): Promise<void> {
      await move(
        orderId,
        'pending',
        'processing',
        { actor: SYSTEM_ACTOR, reason: 'Buying the shipping label' },
        { labelReference },
      )
      const order = await service.get(orderId)
      if (order?.status === 'processing') await failLabel(orderId, reason)
    },

    /** What this module does with its jobs given up after their worker died on the last attempt. */
    abandonedJobHandlers(): Record<string, AbandonedJobHandler> {
      return {
        [ORDER_JOBS.purchaseLabel]: (payload, reason) =>
          service.abandonLabel(orderIdPayload(payload), reason),
      }
    },

    /** The job handlers this module owns, for the job runner. */
    jobHandlers(): Record<string, JobHandler> {
      return {
        [ORDER_JOBS.confirmationEmail]: (payload) => service.sendConfirmation(orderIdPayload(payload)),
        [ORDER_JOBS.purchaseLabel]: (payload, context) =>
          service.purchaseLabel(orderIdPayload(payload), context),
        [ORDER_JOBS.shippedEmail]: (payload) => service.sendShippedEmail(orderIdPayload(payload)),
      }
    },
  }
  return service
}

export type OrdersService = ReturnType<typeof createOrdersService>
