import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

/**
 * Slow or fallible work (e-mails, label purchases) waiting to run. Jobs live in the database so they
 * survive restarts and any server instance may claim one: a claim is one conditional UPDATE that moves
 * `lockedUntil` forward, so two workers never run the same job at once.
 */
export const jobs = sqliteTable(
  'jobs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    type: text('type').notNull(),
    /** JSON. */
    payload: text('payload').notNull(),
    status: text('status', { enum: JOB_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    /** Epoch milliseconds: not before. */
    runAt: integer('run_at').notNull(),
    /** Epoch milliseconds: a running job whose lock has passed is presumed dead and may be claimed again. */
    lockedUntil: integer('locked_until'),
    lastError: text('last_error'),
    /** Work that must happen once (one confirmation e-mail per order) carries a key; NULLs never clash. */
    dedupeKey: text('dedupe_key').unique(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [index('jobs_due_idx').on(table.status, table.runAt)],
)
