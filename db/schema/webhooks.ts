import { WEBHOOK_EVENT_STATUSES } from '@core/rules/webhook-event-status'
import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Every verified event from the payment provider, stored once by its own id, with how it was handled.
 * 'received' means not finished: the event is kept whole so a sweep can finish it if the process handling
 * it died, and `claimedUntil` is the lease of whoever is handling it now.
 */
export const webhookEvents = sqliteTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    eventType: text('event_type').notNull(),
    /** The checkout session the event is about, when it is about one. */
    sessionId: text('session_id'),
    orderId: integer('order_id'),
    status: text('status', { enum: WEBHOOK_EVENT_STATUSES }).notNull(),
    processingTimeMs: integer('processing_time_ms'),
    /** Short reason when ignored or failed. */
    note: text('note'),
    /** JSON: the verified event as the shop reads it (no customer e-mail). */
    payload: text('payload'),
    /** Epoch milliseconds: a handler's lease; past it, another may take the event over. */
    claimedUntil: integer('claimed_until'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    // The sweep's read, of unfinished events by age: only those, so an event stored finished (the first
    // delivery of a paid one, with its order) writes no entry, and one finished later leaves it.
    index('webhook_events_unfinished_idx').on(table.createdAt).where(sql`${table.status} = 'received'`),
    // The dashboard pages through events newest first by (created_at, id): both in one index, which also
    // serves every other read by time.
    index('webhook_events_recent_idx').on(table.createdAt, table.id),
  ],
)
