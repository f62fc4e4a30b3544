/**
 * The stored payment events: each verified event kept once by its id, leased to the one handler that
 * handles it, and its outcome written down (db/schema/webhooks.ts).
 */
import type { WebhookEventStatus } from '@core/rules/webhook-event-status'
import { and, desc, eq, gt, isNull, lt, or, type SQL, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { webhookEvents } from '../../../db/schema/webhooks'
import type { PaymentEvent } from '../../adapters/types'
import type { Clock } from '../../lib/clock'
import { builtOnce, placeholders, type Statement } from '../../lib/statements'

/** The sweep leaves events this young to the request that stored them. */
const SWEEP_GRACE_MS = 30 * 1000
/** Events older than this are past any payment session's life: the sweep stops looking at them. */
const SWEEP_HORIZON_MS = 48 * 60 * 60 * 1000

/** What is written down when an event is finished: SQL evaluated in a transaction, or plain values. */
export interface EventOutcome {
  status: WebhookEventStatus
  orderId: number | SQL | null
  note: string | SQL | null
}

/** The event as stored for the sweep: what the shop reads of it, without the customer's e-mail. */
function storedPayload(event: PaymentEvent): string {
  const session = event.session ? { ...event.session, customerEmail: null, clientSecret: null } : null
  return JSON.stringify({ ...event, session })
}

/** An unfinished event nobody holds: the lease ran out, or there never was one. */
function unleased(now: number): SQL {
  return or(isNull(webhookEvents.claimedUntil), lt(webhookEvents.claimedUntil, now)) as SQL
}

/**
 * One page of events, newest first: those older than the event `before` when it is given (an unknown id
 * gives an empty page). Keyset paging on (created_at, id), one index, flat cost however many events.
 */
function pageOfEvents(db: Database, options: { limit: number; before?: string }) {
  const cursor =
    options.before === undefined
      ? undefined
      : sql`(${webhookEvents.createdAt}, ${webhookEvents.id}) < (select ${webhookEvents.createdAt}, ${webhookEvents.id} from ${webhookEvents} where ${webhookEvents.id} = ${options.before})`
  return db
    .select({
      id: webhookEvents.id,
      eventType: webhookEvents.eventType,
      orderId: webhookEvents.orderId,
      status: webhookEvents.status,
      processingTimeMs: webhookEvents.processingTimeMs,
      createdAt: webhookEvents.createdAt,
    })
    .from(webhookEvents)
    .where(cursor)
    .orderBy(desc(webhookEvents.createdAt), desc(webhookEvents.id))
    .limit(Math.min(Math.max(options.limit, 1), 500))
}

/** The sweep's read: unfinished events nobody holds, old enough to take over (`stale`). */
async function staleEvents(db: Database, now: number): Promise<PaymentEvent[]> {
  const rows = await db
    .select({ payload: webhookEvents.payload })
    .from(webhookEvents)
    .where(
      and(
        // The partial index of unfinished events has this very term (webhook_events_unfinished_idx).
        sql`${webhookEvents.status} = 'received'`,
        unleased(now),
        lt(webhookEvents.createdAt, new Date(now - SWEEP_GRACE_MS)),
        gt(webhookEvents.createdAt, new Date(now - SWEEP_HORIZON_MS)),
      ),
    )
    .orderBy(webhookEvents.createdAt)
    .limit(100)
  return rows.flatMap((row) => (row.payload ? [JSON.parse(row.payload) as PaymentEvent] : []))
}

/** The columns a new event is stored with. */
const STORED_COLUMNS = [
  'id',
  'eventType',
  'sessionId',
  'status',
  'payload',
  'claimedUntil',
  'createdAt',
] as const satisfies readonly (keyof typeof webhookEvents.$inferInsert)[]

export function createEventStore({ db, clock, leaseMs }: { db: Database; clock: Clock; leaseMs: number }) {
  // Every delivery stores its event first: built once (api/lib/statements.ts).
  const storeEvent = builtOnce<Pick<typeof webhookEvents.$inferInsert, (typeof STORED_COLUMNS)[number]>>(() =>
    db
      .insert(webhookEvents)
      .values(placeholders(STORED_COLUMNS))
      .onConflictDoNothing({ target: webhookEvents.id }),
  )
  const paidOutcome = builtOnce<{ eventId: string; existed: string; ms: number }, [SQL<number>, SQL<number>]>(
    (orderId, created) =>
      db
        .update(webhookEvents)
        .set({
          status: 'processed',
          orderId: sql`${orderId}`,
          note: sql`case when ${created} then null else ${sql.placeholder('existed')} end`,
          claimedUntil: null,
          processingTimeMs: sql`${sql.placeholder('ms')}`,
        })
        .where(eq(webhookEvents.id, sql.placeholder('eventId'))),
  )

  // A first delivery's event, stored with its order and already processed (`firstPaidStatement`).
  const firstPaid = builtOnce<
    Pick<typeof webhookEvents.$inferInsert, (typeof STORED_COLUMNS)[number]> & {
      existed: string
      startedAt: number
    },
    [SQL<number>, SQL<number>]
  >((orderId, created) =>
    db.insert(webhookEvents).values({
      ...placeholders(STORED_COLUMNS),
      orderId: sql`${orderId}`,
      note: sql`case when ${created} then null else ${sql.placeholder('existed')} end`,
      // Read when the INSERT runs (epoch ms on SQLite's clock), so a wait for another writer's lock counts.
      processingTimeMs: sql`max(0, cast(round((julianday('now') - 2440587.5) * 86400000) as integer) - ${sql.placeholder('startedAt')})`,
    }),
  )

  return {
    /**
     * A paid event delivered for the first time, stored in its order's transaction as processed, with the
     * order `orderId` names and `existed` as its note when `created` says an earlier event had made the
     * order. A plain INSERT: an event stored already (a redelivery, the demo provider's own) fails the
     * whole transaction, and the caller handles it as usual. Built once, as `paidOutcomeStatement`.
     */
    firstPaidStatement(
      event: PaymentEvent,
      order: { orderId: SQL<number>; created: SQL<number> },
      existed: string,
      started: number,
    ): Statement {
      return firstPaid.with(
        {
          id: event.id,
          eventType: event.type,
          sessionId: event.session?.id ?? null,
          status: 'processed',
          // Only an unfinished event is read back (by the sweep, `staleEvents`): this one is finished.
          payload: null,
          claimedUntil: null,
          createdAt: clock.now(),
          existed,
          // `started` (a performance.now() reading) on the wall clock, which SQLite's is read against.
          startedAt: Math.round(performance.timeOrigin + started),
        },
        order.orderId,
        order.created,
      )
    },

    /**
     * Keeps the verified event before anything is done about it, so a crash never loses it. With `claim`,
     * a new event is stored already leased to the caller (one write instead of two); true means it was new.
     */
    async store(event: PaymentEvent, options: { claim?: boolean } = {}): Promise<boolean> {
      const now = clock.now()
      const stored = await storeEvent.run({
        id: event.id,
        eventType: event.type,
        sessionId: event.session?.id ?? null,
        status: 'received',
        payload: storedPayload(event),
        claimedUntil: options.claim ? now.getTime() + leaseMs : null,
        createdAt: now,
      })
      // Nothing changed: the event was stored before (a redelivery).
      return stored.rowsAffected > 0
    },

    /**
     * Takes the lease on an unfinished (or failed) event with one conditional UPDATE: of several handlers,
     * processes or instances, exactly one gets it.
     */
    async claim(id: string): Promise<boolean> {
      const now = clock.now().getTime()
      const taken = await db
        .update(webhookEvents)
        .set({ status: 'received', note: null, claimedUntil: now + leaseMs })
        .where(
          and(
            eq(webhookEvents.id, id),
            or(eq(webhookEvents.status, 'failed'), and(eq(webhookEvents.status, 'received'), unleased(now))),
          ),
        )
        .returning({ id: webhookEvents.id })
      return taken.length > 0
    },

    /** An event's status and order as they stand, for a delivery that could not take the lease. */
    async current(id: string) {
      const [row] = await db
        .select({ status: webhookEvents.status, orderId: webhookEvents.orderId })
        .from(webhookEvents)
        .where(eq(webhookEvents.id, id))
        .limit(1)
      return row
    },

    /**
     * The event's outcome, releasing its lease, as a statement: run on its own once the event is handled,
     * or inside the transaction fulfilment composes, where the order and the note are SQL evaluated there.
     */
    /**
     * A paid event's outcome, in its order's transaction: processed, with the order `orderId` names, and
     * `existed` as its note when `created` says an earlier event had made the order. Built once: `orderId`
     * and `created` are the order transaction's SQL, the same objects for every order.
     */
    paidOutcomeStatement(
      eventId: string,
      order: { orderId: SQL<number>; created: SQL<number> },
      existed: string,
      started: number,
    ): Statement {
      return paidOutcome.with(
        { eventId, existed, ms: Math.round(performance.now() - started) },
        order.orderId,
        order.created,
      )
    },

    outcomeStatement(eventId: string, outcome: EventOutcome, started: number) {
      return db
        .update(webhookEvents)
        .set({
          status: outcome.status,
          orderId: outcome.orderId,
          note: outcome.note,
          claimedUntil: null,
          processingTimeMs: Math.round(performance.now() - started),
        })
        .where(eq(webhookEvents.id, eventId))
    },

    page: (options: { limit: number; before?: string }) => pageOfEvents(db, options),

    /** Unfinished events nobody holds, old enough that the request that stored them has given up on them. */
    stale: () => staleEvents(db, clock.now().getTime()),
  }
}

export type EventStore = ReturnType<typeof createEventStore>
