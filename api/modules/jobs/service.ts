import { and, count, desc, eq, inArray, is, ne, SQL, sql } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Database } from '../../../db/client'
import { jobs } from '../../../db/schema/jobs'
import type { Clock } from '../../lib/clock'
import { whileBusy } from '../../lib/database-busy'
import { errorMessage, log } from '../../lib/log'
import { builtOnce, runTogether } from '../../lib/statements'
import { noteIfStorageFull } from '../../lib/storage-full'

export type Job = typeof jobs.$inferSelect

export interface EnqueueOptions {
  /** Work that must happen once per thing (one e-mail per order): a second enqueue with the key is dropped. */
  dedupeKey?: string | SQL
  /**
   * Queue the job only if this SQL condition holds when the INSERT runs, e.g. that the statement before it
   * in the same batch changed a row. For enqueueQuery only.
   */
  when?: SQL
  /**
   * The values of the placeholders in `when`, which is then the same SQL object on every call (one per
   * shape): the statement is built once for it, as a busy path's should be (api/lib/statements.ts).
   */
  whenValues?: Record<string, unknown>
  runAt?: Date
  maxAttempts?: number
}

export interface JobContext {
  job: Job
  /** 1 on the first run. */
  attempt: number
  /** True when a failure now is final: the job will not run again. */
  lastAttempt: boolean
}

export type JobHandler = (payload: unknown, context: JobContext) => Promise<void>

/**
 * What a job type does when its job ends failed without its last attempt having said so: the worker
 * stopped (crashed, was killed) during that attempt and its lease ran out. A handler's own last attempt
 * marks its work failed for staff; this does the same for the attempt that never came back.
 */
export type AbandonedJobHandler = (payload: unknown, reason: string) => Promise<void>

/** Kept as the job's last error (and the order's failure reason for a label) when its last attempt never came back. */
export const ABANDONED_ON_LAST_ATTEMPT =
  'the worker stopped during the last attempt (its lease ran out); not run again'

export const DEFAULT_MAX_ATTEMPTS = 8
/**
 * A claimed job is presumed dead (its worker crashed) once this lease has passed without an answer. Long
 * enough for a slow carrier call (20 s timeouts, retried); configurable as JOB_LEASE_SECONDS.
 */
export const JOB_LEASE_MS = 5 * 60 * 1000

/**
 * How long a job's outcome (done, or failed for now) waits to be written while another writer holds the
 * database or the disk is full; past that the lease running out brings the job back.
 */
const OUTCOME_WAIT_MS = 60_000

/** The first retry's wait unless JOB_RETRY_SECONDS says otherwise. */
export const FIRST_RETRY_MS = 30_000

/** 30 s, 1 min, 2 min … capped at an hour: carriers and mail servers get time to recover. */
export function backoffMs(attempt: number, firstRetryMs = FIRST_RETRY_MS): number {
  return Math.min(firstRetryMs * 2 ** Math.max(0, attempt - 1), 60 * 60 * 1000)
}

/** Kept in the job row and the log: the message only, without e-mail addresses. */
const errorText = errorMessage

/** A job whose JSON payload has `field` = `value` (an order's jobs: `{ orderId: 42 }`). */
function payloadHas(match: { field: string; value: number }): SQL {
  return sql`(case when json_valid(${jobs.payload}) then json_extract(${jobs.payload}, ${`$.${match.field}`}) end) = ${match.value}`
}

/** The values of a new job's INSERT (times in ms); its payload when it is JSON text. */
type JobValues = {
  type: string
  maxAttempts: number
  runAt: number
  dedupeKey: string | null
  now: number
  payload?: string
}

/**
 * A job's INSERT, built once per kind of payload (api/lib/statements.ts): one for JSON text, and one for each
 * SQL payload, which is the same object every time (a new order's jobs name it by the order transaction's
 * SQL).
 */
function jobInsert(db: Database) {
  return builtOnce<JobValues, [SQL]>((sqlPayload) =>
    db
      .insert(jobs)
      .values({
        type: sql.placeholder('type'),
        payload: sqlPayload,
        status: 'queued',
        attempts: 0,
        maxAttempts: sql.placeholder('maxAttempts'),
        runAt: sql.placeholder('runAt'),
        dedupeKey: sql.placeholder('dedupeKey'),
        createdAt: sql.placeholder('now'),
        updatedAt: sql.placeholder('now'),
      })
      .onConflictDoNothing({ target: jobs.dedupeKey }),
  )
}

/**
 * A job's INSERT queued only if `when` holds, built once per `when` SQL object: its values, and those of
 * `when`'s own placeholders, are given on each use.
 */
function guardedJobInsert(db: Database) {
  const value = (name: keyof JobValues) => sql.placeholder(name)
  return builtOnce<Record<string, unknown>, [SQL]>((when) =>
    db.run(sql`insert into ${jobs} (type, payload, status, attempts, max_attempts, run_at, dedupe_key, created_at, updated_at)
      select ${value('type')}, ${value('payload')}, 'queued', 0, ${value('maxAttempts')}, ${value('runAt')},
        ${value('dedupeKey')}, ${value('now')}, ${value('now')}
      where ${when}
      on conflict (dedupe_key) do nothing`),
  )
}

/**
 * Every job is claimed and completed: these two statements are built once (drizzle's prepared statements),
 * not on every call; building the claim's SQL cost more than SQLite answering it.
 */
function claimAndCompletion(db: Database) {
  const now = sql.placeholder('now')
  // A running job whose lease passed had a worker that died; it runs again only if it has an attempt
  // left. One that died on its last attempt is given up instead (giveUpAbandoned).
  const queuedDue = sql`${jobs.status} = 'queued' and ${jobs.runAt} <= ${now}`
  const abandoned = sql`${jobs.status} = 'running' and ${jobs.lockedUntil} < ${now} and ${jobs.attempts} < ${jobs.maxAttempts}`
  const due = sql`(${queuedDue}) or (${abandoned})`
  // The first due job of each kind, each found in jobs_due_idx in order, and the earlier of the two: asked
  // as one `where` with an OR, SQLite read every queued job and sorted them for each claim, so a backlog
  // of thousands made every claim slower (docs/architecture.md#background-jobs).
  const firstOf = (kind: SQL) =>
    sql`select * from (select ${jobs.id} as id, ${jobs.runAt} as run_at from ${jobs} where ${kind} order by ${jobs.runAt}, ${jobs.id} limit 1)`
  const firstDue = sql`(select id from (${firstOf(queuedDue)} union all ${firstOf(abandoned)}) order by run_at, id limit 1)`
  return {
    claimNextQuery: db
      .update(jobs)
      .set({
        status: 'running',
        attempts: sql`${jobs.attempts} + 1`,
        lockedUntil: sql`${sql.placeholder('lockedUntil')}`,
        updatedAt: sql`${now}`,
      })
      .where(and(eq(jobs.id, firstDue), sql`(${due})`))
      .returning()
      .prepare(),
    completeQuery: db
      .update(jobs)
      .set({ status: 'done', lockedUntil: null, lastError: null, updatedAt: sql`${now}` })
      .where(and(eq(jobs.id, sql.placeholder('id')), eq(jobs.attempts, sql.placeholder('attempts'))))
      .prepare(),
  }
}

export function createJobQueue(
  db: Database,
  clock: Clock,
  options: { leaseMs?: number; firstRetryMs?: number } = {},
) {
  const leaseMs = options.leaseMs ?? JOB_LEASE_MS
  const firstRetryMs = options.firstRetryMs ?? FIRST_RETRY_MS

  const JSON_PAYLOAD = sql`${sql.placeholder('payload')}`
  const insertJsonJob = jobInsert(db)
  const insertSqlJob = new WeakMap<SQL, ReturnType<typeof jobInsert>>()
  const insertGuardedJob = new WeakMap<SQL, ReturnType<typeof guardedJobInsert>>()

  const { claimNextQuery, completeQuery } = claimAndCompletion(db)

  /** Who wants to know that a job due now was queued: the runner (runner.ts), to run it without waiting. */
  const dueListeners = new Set<() => void>()
  let dueSignal: ReturnType<typeof setTimeout> | undefined
  function toldOfDueJob(runAt: number, now: number): void {
    if (runAt > now || dueListeners.size === 0 || dueSignal) return
    // Told after this turn, when the batch that holds the job has been sent: a claim sent after it goes to
    // the same writer and sees the job (db/connection-pool.ts). A batch sent later still, after an await,
    // is found by the runner's next look instead.
    dueSignal = setTimeout(() => {
      dueSignal = undefined
      for (const listener of dueListeners) listener()
    }, 0)
  }

  const queue = {
    /**
     * The INSERT for a job, unexecuted, so callers can put it in the same batch (transaction) as the row
     * the job is about. `payload` may be an SQL expression evaluated inside that batch.
     */
    enqueueQuery(
      type: string,
      payload: Record<string, unknown> | SQL,
      options: EnqueueOptions = {},
    ): BatchItem<'sqlite'> {
      const now = clock.now().getTime()
      const payloadValue = is(payload, SQL) ? payload : JSON.stringify(payload)
      const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS
      const runAt = options.runAt?.getTime() ?? now
      const dedupeKey = options.dedupeKey ?? null
      toldOfDueJob(runAt, now)
      if (options.when && options.whenValues && typeof payloadValue === 'string' && !is(dedupeKey, SQL)) {
        let insert = insertGuardedJob.get(options.when)
        if (!insert) {
          insert = guardedJobInsert(db)
          insertGuardedJob.set(options.when, insert)
        }
        const values = { type, payload: payloadValue, maxAttempts, runAt, dedupeKey, now }
        // A condition's placeholder named like one of the job's own would take the job's value unnoticed.
        for (const name in options.whenValues)
          if (name in values) throw new Error(`the condition's placeholder "${name}" is the job's own`)
        return insert.with({ ...options.whenValues, ...values }, options.when)
      }
      // Placeholders in `when` are filled only by the statement built once: anything else is a mistake.
      if (options.whenValues) throw new Error('whenValues go with a JSON payload and a text dedupe key')
      if (options.when) {
        // INSERT … SELECT … WHERE: SQLite needs the WHERE before ON CONFLICT to parse it, and it is the point.
        return db.run(sql`insert into ${jobs} (type, payload, status, attempts, max_attempts, run_at, dedupe_key, created_at, updated_at)
          select ${type}, ${payloadValue}, 'queued', 0, ${maxAttempts}, ${runAt}, ${dedupeKey}, ${now}, ${now}
          where ${options.when}
          on conflict (dedupe_key) do nothing`)
      }
      if (is(dedupeKey, SQL)) {
        return db
          .insert(jobs)
          .values({
            type,
            payload: payloadValue,
            status: 'queued',
            attempts: 0,
            maxAttempts,
            runAt,
            dedupeKey,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing({ target: jobs.dedupeKey })
      }
      const values = { type, maxAttempts, runAt, dedupeKey, now }
      if (!is(payload, SQL))
        return insertJsonJob.with({ ...values, payload: JSON.stringify(payload) }, JSON_PAYLOAD)
      let insert = insertSqlJob.get(payload)
      if (!insert) {
        insert = jobInsert(db)
        insertSqlJob.set(payload, insert)
      }
      return insert.with(values, payload)
    },

    /** Calls `listener` soon after a job due now was queued; the function returned stops that. */
    onDueJob(listener: () => void): () => void {
      dueListeners.add(listener)
      return () => dueListeners.delete(listener)
    },

    async enqueue(
      type: string,
      payload: Record<string, unknown>,
      options: EnqueueOptions = {},
    ): Promise<void> {
      // A statement built once is run by a batch, not by awaiting it.
      await runTogether(db, [queue.enqueueQuery(type, payload, options)])
    },

    /**
     * Removes the jobs whose payload names this e-mail (a reset or account e-mail, sent or waiting), for an
     * account deletion's batch; unexecuted. A job running right now is left to finish.
     */
    forgetEmailQuery(email: string): BatchItem<'sqlite'> {
      return db
        .delete(jobs)
        .where(
          and(
            ne(jobs.status, 'running'),
            sql`(case when json_valid(${jobs.payload}) then json_extract(${jobs.payload}, '$.email') end) = ${email}`,
          ),
        )
    },

    /**
     * Jobs of these types that ended failed for good (their last attempt failed, or their worker died
     * during it), newest failure first: the status index holds them apart from the many that succeeded.
     */
    async failed(types: readonly string[], limit: number): Promise<Job[]> {
      return db
        .select()
        .from(jobs)
        .where(and(eq(jobs.status, 'failed'), inArray(jobs.type, [...types])))
        .orderBy(desc(jobs.updatedAt), desc(jobs.id))
        .limit(limit)
    },

    /**
     * Staff's Retry: the failed jobs of these types whose payload has `field` = `value` go back to the
     * queue with every attempt again, due now, in one UPDATE. The same rows run again (their dedupe keys
     * stay theirs), so pressing Retry twice, or two people at once, queues each job once: the second
     * UPDATE finds nothing failed. Returns the jobs it queued.
     */
    async retryFailed(types: readonly string[], match: { field: string; value: number }): Promise<Job[]> {
      const now = clock.now().getTime()
      return db
        .update(jobs)
        .set({
          status: 'queued',
          attempts: 0,
          runAt: now,
          lockedUntil: null,
          lastError: null,
          updatedAt: now,
        })
        .where(and(eq(jobs.status, 'failed'), inArray(jobs.type, [...types]), payloadHas(match)))
        .returning()
    },

    /** How many jobs of these types, with `field` = `value` in their payload, are queued or running. */
    async waiting(types: readonly string[], match: { field: string; value: number }): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(jobs)
        .where(
          and(inArray(jobs.status, ['queued', 'running']), inArray(jobs.type, [...types]), payloadHas(match)),
        )
      return row?.n ?? 0
    },

    /**
     * Claims the next due job with one UPDATE: the row moves to running with a lease only if it is still
     * due, so of several workers (or instances) exactly one gets it.
     */
    async claimNext(): Promise<Job | null> {
      const now = clock.now().getTime()
      const [job] = await claimNextQuery.all({ now, lockedUntil: now + leaseMs })
      return job ?? null
    },

    /**
     * Claims the job queued under `dedupeKey` if it is due and nobody holds it, with the same conditional
     * UPDATE as claimNext: for the request that queued it and runs it at once, while the runner may reach
     * for it too.
     */
    async claimByKey(dedupeKey: string): Promise<Job | null> {
      const now = clock.now().getTime()
      const [job] = await db
        .update(jobs)
        .set({
          status: 'running',
          attempts: sql`${jobs.attempts} + 1`,
          lockedUntil: now + leaseMs,
          updatedAt: now,
        })
        .where(and(eq(jobs.dedupeKey, dedupeKey), eq(jobs.status, 'queued'), sql`${jobs.runAt} <= ${now}`))
        .returning()
      return job ?? null
    },

    /**
     * Runs a job this caller claimed, renewing its lease while it runs, and writes down that it is done or
     * failed (retried later, or failed for good on its last attempt). True when it succeeded.
     */
    async runClaimed(job: Job, handlers: Readonly<Record<string, JobHandler>>): Promise<boolean> {
      let outcome: { ok: true } | { ok: false; error: unknown }
      const started = performance.now()
      const stopRenewing = clock.every(Math.max(1000, Math.floor(leaseMs / 3)), () =>
        queue.renewLease(job).catch(() => undefined),
      )
      try {
        const handler = handlers[job.type]
        if (!handler) throw new Error(`no handler for job type ${job.type}`)
        await handler(JSON.parse(job.payload), {
          job,
          attempt: job.attempts,
          lastAttempt: job.attempts >= job.maxAttempts,
        })
        outcome = { ok: true }
      } catch (error) {
        outcome = { ok: false, error }
      } finally {
        stopRenewing()
      }
      // The job's work is done (an e-mail sent, a label bought) or it failed: that is written down even
      // while another writer holds the database, or the lease would run out and the work be done twice.
      if (outcome.ok) {
        await whileBusy(() => queue.complete(job), OUTCOME_WAIT_MS, { orFull: true })
        log.info('job done', {
          job: job.id,
          type: job.type,
          attempt: job.attempts,
          ms: Math.round(performance.now() - started),
        })
        return true
      }
      // A label or an e-mail that could not be written for want of room: /api/ready says so.
      noteIfStorageFull(outcome.error)
      log.warn('job failed', {
        job: job.id,
        type: job.type,
        attempt: job.attempts,
        final: job.attempts >= job.maxAttempts,
        error: errorText(outcome.error),
      })
      await whileBusy(() => queue.fail(job, outcome.error), OUTCOME_WAIT_MS, { orFull: true })
      return false
    },

    /**
     * Ends the jobs whose worker died on their last attempt: failed, as a last attempt that failed would
     * have left them, in one UPDATE (of several instances, one gives up each job). Returns them.
     */
    async giveUpAbandoned(): Promise<Job[]> {
      const now = clock.now().getTime()
      return db
        .update(jobs)
        .set({
          status: 'failed',
          lockedUntil: null,
          lastError: ABANDONED_ON_LAST_ATTEMPT,
          updatedAt: now,
        })
        .where(
          and(
            eq(jobs.status, 'running'),
            sql`${jobs.lockedUntil} < ${now}`,
            sql`${jobs.attempts} >= ${jobs.maxAttempts}`,
          ),
        )
        .returning()
    },

    /**
     * Extends the lease of a job its worker is still running, so a slow mail server or carrier never makes
     * a live job look dead (and run twice). Only a worker that stops renewing, a dead one, loses its jobs.
     */
    async renewLease(job: Job): Promise<void> {
      const now = clock.now().getTime()
      await db
        .update(jobs)
        .set({ lockedUntil: now + leaseMs, updatedAt: now })
        .where(and(eq(jobs.id, job.id), eq(jobs.attempts, job.attempts), eq(jobs.status, 'running')))
    },

    async complete(job: Job): Promise<void> {
      await completeQuery.run({ id: job.id, attempts: job.attempts, now: clock.now().getTime() })
    },

    async fail(job: Job, error: unknown): Promise<void> {
      const now = clock.now().getTime()
      const final = job.attempts >= job.maxAttempts
      await db
        .update(jobs)
        .set({
          status: final ? 'failed' : 'queued',
          runAt: final ? job.runAt : now + backoffMs(job.attempts, firstRetryMs),
          lockedUntil: null,
          lastError: errorText(error),
          updatedAt: now,
        })
        .where(and(eq(jobs.id, job.id), eq(jobs.attempts, job.attempts)))
    },

    /**
     * Runs every job that is due now, one at a time, until none is left (or `limit` ran, or `stopping` says
     * so). A job of an unknown type fails like any other error, so a missing handler shows up instead of
     * spinning.
     */
    async runDueJobs(
      handlers: Readonly<Record<string, JobHandler>>,
      options: {
        limit?: number
        stopping?: () => boolean
        /** Per job type: what to do when a job is given up after its worker died on the last attempt. */
        abandoned?: Readonly<Record<string, AbandonedJobHandler>>
        /** Awaited before each job is claimed: the runner's way to let requests go first (runner.ts). */
        pace?: () => Promise<void>
      } = {},
    ): Promise<{ ran: number; failed: number }> {
      const limit = options.limit ?? 100
      let ran = 0
      let failed = 0
      for (const job of await queue.giveUpAbandoned()) {
        failed += 1
        log.warn('job failed', {
          job: job.id,
          type: job.type,
          attempt: job.attempts,
          final: true,
          error: ABANDONED_ON_LAST_ATTEMPT,
        })
        try {
          await options.abandoned?.[job.type]?.(JSON.parse(job.payload), ABANDONED_ON_LAST_ATTEMPT)
        } catch (error) {
          log.error('giving up a job failed', { job: job.id, type: job.type, error: errorText(error) })
        }
      }
      // A shutdown lets the job in hand finish and claims no other: the rest wait, queued, for the next start.
      while (ran < limit && !options.stopping?.()) {
        await options.pace?.()
        if (options.stopping?.()) break
        const job = await queue.claimNext()
        if (!job) break
        ran += 1
        if (!(await queue.runClaimed(job, handlers))) failed += 1
      }
      return { ran, failed }
    },
  }
  return queue
}

export type JobQueue = ReturnType<typeof createJobQueue>
