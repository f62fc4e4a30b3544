/**
 * The libSQL client for a `file:` database, with one change to how its pool treats a connection: one whose
 * statement failed waiting for another writer's lock (SQLITE_BUSY) is closed when it comes back, never lent
 * again, and a fresh connection takes its place.
 *
 * Why: libSQL's binding resets a statement before it runs it, not after a step that failed, so a write
 * that gave up waiting stays "in progress" on its connection until the garbage collector finalizes it
 * (tursodatabase/libsql-client-ts#352, tursodatabase/libsql-js#238). Until then that connection is broken
 * in a way nothing reports: every COMMIT fails with "cannot commit transaction - SQL statements in
 * progress", and a single write (no BEGIN) answers that it changed its row while it stays uncommitted,
 * holding the write lock so every other connection waits, and is rolled back when the statement is
 * finalized. The pool hands the connection out again at once, so one lock held too long went on losing
 * writes that were reported done. tests/api/database/busy.test.ts shows both.
 */
import { ConnectionPool, Sqlite3Client } from '@libsql/client/sqlite3'
import { CommitGroups } from './commit-groups'

type Connection = ReturnType<ConnectionPool['acquireSync']>
type Statement = ReturnType<Connection['prepare']>

/** The client's own default: how many connections one client may hold. */
const MAX_CONNECTIONS = 20

/**
 * How many prepared statements each connection keeps, the least recently used dropped first. The shop
 * sends a few hundred distinct SQL texts at most; a kept statement costs a few KB of native memory.
 */
export const KEPT_STATEMENTS = 256

function failedBusy(error: unknown): boolean {
  return String((error as { code?: unknown } | null)?.code ?? '').startsWith('SQLITE_BUSY')
}

/** Connections with a statement that failed busy: closed when they come back to the pool. */
const spoiled = new WeakSet<Connection>()
/** Each connection's last failed statement's error: why SQLite may have ended its transaction. */
const failures = new WeakMap<Connection, unknown>()
/** Each connection's kept statements by SQL text, in order of use (the last used last). */
const keptBy = new WeakMap<Connection, Map<string, Statement>>()

/**
 * A prepared statement kept for the next call with the same SQL. The binding resets a statement before
 * each run and binds every argument anew, and the client runs every statement to its end (`run`, or `all`
 * reading every row), which finishes it: a kept statement holds no read snapshot or lock between calls.
 * The one exception is a statement that failed busy, which stays in progress: its connection is marked
 * spoiled and closed with every statement it kept (ReplacingPool.release).
 *
 * The client asks each call for `safeIntegers(true)`, `raw(true)` (which throws for a statement that
 * returns no rows) and `columns()` twice; those answers belong to the prepared statement, so they are
 * asked of the binding once and remembered.
 */
function keep(connection: Connection, statement: Statement): Statement {
  const native = {
    run: statement.run.bind(statement) as (...args: unknown[]) => unknown,
    all: statement.all.bind(statement) as (...args: unknown[]) => unknown,
  }
  const watched =
    (step: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      try {
        return step(...args)
      } catch (error) {
        failures.set(connection, error)
        if (failedBusy(error)) spoiled.add(connection)
        throw error
      }
    }
  const kept = statement as unknown as Record<string, unknown>
  kept.run = watched(native.run)
  kept.all = watched(native.all)

  let safe: boolean | undefined
  const safeIntegers = statement.safeIntegers.bind(statement)
  kept.safeIntegers = (on = true) => {
    if (safe !== on) safeIntegers(on)
    safe = on
    return statement
  }
  let raw: { on: boolean } | { refused: unknown } | undefined
  const setRaw = statement.raw.bind(statement)
  kept.raw = (on = true) => {
    if (raw && 'refused' in raw) throw raw.refused
    if (raw?.on !== on) {
      try {
        setRaw(on)
      } catch (error) {
        raw = { refused: error }
        throw error
      }
    }
    raw = { on }
    return statement
  }
  let columns: ReturnType<Statement['columns']> | undefined
  const readColumns = statement.columns.bind(statement)
  kept.columns = () => {
    columns ??= readColumns()
    return columns
  }
  return statement
}

/**
 * Lends the connection's kept statement for `source`, preparing and keeping it on first use (and then
 * dropping the least recently used beyond `limit`). With a limit of 0 nothing is kept: every call prepares
 * again, as the client does on its own.
 */
function watch(connection: Connection, limit: number): void {
  if (keptBy.has(connection)) return
  const kept = new Map<string, Statement>()
  keptBy.set(connection, kept)
  const prepare = connection.prepare.bind(connection)
  connection.prepare = ((source: string) => {
    const found = kept.get(source)
    if (found) {
      // Map keeps insertion order: moved to the end, it is the most recently used.
      kept.delete(source)
      kept.set(source, found)
      return found
    }
    const statement = keep(connection, prepare(source))
    if (limit > 0) {
      kept.set(source, statement)
      if (kept.size > limit) kept.delete(kept.keys().next().value as string)
    }
    return statement
  }) as Connection['prepare']
}

/** A call's place in line for the writer: the commit it waits for, known once it gave the connection back. */
interface Ticket {
  committed?: Promise<void>
}

class ReplacingPool extends ConnectionPool {
  readonly #keptStatements: number
  /** The connection every single call that writes shares (see `acquire`), its commits grouped. */
  #writer: Connection | null = null
  /** The connection every single read shares: it sees committed data only. */
  #reader: Connection | null = null
  readonly groups = new CommitGroups((connection) => failures.get(connection as Connection))
  /** Set just before a read is sent: the next borrow is the reader's. */
  nextIsRead = false
  /** Set just before a write is sent: the next borrow of the writer is this call's. */
  nextTicket: Ticket | null = null
  /** The writer's calls in the order they borrowed it, which is the order they run in. */
  readonly #inLine: Ticket[] = []

  constructor(path: string, options: { timeout: number }, keptStatements: number) {
    super(path, options, MAX_CONNECTIONS)
    this.#keptStatements = keptStatements
  }

  /**
   * A single call (`execute`, `batch`, `executeMultiple`) runs synchronously from the moment it holds its
   * connection until it gives it back, so two of them never use one connection at once: writes all share
   * one connection (whose commits are grouped, db/commit-groups.ts) and reads another. The pool would lend
   * each call waiting in the same turn of the event loop a connection of its own, and SQLite drops a
   * connection's page cache whenever another connection wrote since its last use, so with 16 requests in
   * flight nearly every transaction began by reading its pages again (checkout: 1.13 ms of CPU each with 16
   * in flight, 0.83 ms one at a time). Interactive transactions, which hold a connection across awaits,
   * still take their own from the pool.
   */
  override acquire(forTransaction = false): Promise<Connection> {
    if (forTransaction) return super.acquire(true)
    const read = this.nextIsRead
    const ticket = this.nextTicket
    this.nextIsRead = false
    this.nextTicket = null
    try {
      if (read) {
        if (!this.#reader?.open) this.#reader = this.acquireSync()
        return Promise.resolve(this.#reader)
      }
      if (!this.#writer?.open) {
        this.#writer = this.acquireSync()
        this.groups.adopt(this.#writer)
      }
      // Borrows resolve in the order they were made, so the writer's calls run in this order.
      this.#inLine.push(ticket ?? {})
      return Promise.resolve(this.#writer)
    } catch (error) {
      return Promise.reject(error)
    }
  }

  override acquireSync(forTransaction = false): Connection {
    const connection = super.acquireSync(forTransaction)
    watch(connection, this.#keptStatements)
    return connection
  }

  override close(): void {
    // Closing rolls back what the writer holds: the calls waiting for its group's commit are told.
    if (this.#writer) this.groups.lost(this.#writer, new Error('The database client was closed'))
    this.#writer = null
    this.#inLine.length = 0
    this.#reader = null
    super.close()
  }

  override release(connection: Connection): void {
    const writer = connection === this.#writer
    if (writer) {
      this.groups.released(connection)
      const ticket = this.#inLine.shift()
      if (ticket) ticket.committed = this.groups.current()
    }
    if ((writer || connection === this.#reader) && !spoiled.has(connection)) {
      // Stays lent. A read left nothing open; a write that failed midway was undone above.
      return
    }
    if (writer) {
      this.groups.lost(connection, new Error('The database connection was replaced'))
      this.#writer = null
      // The calls still in line hold the old connection: they fail on it (it is closed) and give it back
      // as a stranger, so their places are dropped here; the next writer's calls queue afresh.
      this.#inLine.length = 0
    }
    if (connection === this.#reader) this.#reader = null
    if (!spoiled.has(connection)) {
      super.release(connection)
      return
    }
    spoiled.delete(connection)
    // The stuck statement and every other one go with the connection (each holds it open until dropped).
    keptBy.get(connection)?.clear()
    try {
      // Closing rolls back what the connection holds and frees the lock its stuck statement kept.
      connection.close()
    } catch {
      // Already closed: the pool drops it all the same.
    }
    super.release(connection)
    // The pool drops a closed connection without serving whoever waits for one: a fresh one, lent and
    // given back at once, goes to the first in line (or stays idle).
    try {
      super.release(this.acquireSync())
    } catch {
      // The pool is closed: nobody waits any more.
    }
  }
}

/** A statement that only reads: sent on the reader, which sees committed data only. */
const READS = /^\s*(select|with)\b/i
/** Statements that change the connection or the file, some of which refuse to run inside a transaction. */
const OUTSIDE_GROUPS = /^\s*(pragma|vacuum|attach|detach)\b/i

type Client = Sqlite3Client
type Sql = Parameters<Client['execute']>[0]

/**
 * Routes each call of the client: reads to the reader; writes and batches to the writer, each answered
 * once its group has committed (db/commit-groups.ts); PRAGMAs, migrations, multi-statement texts and
 * interactive transactions that may write after the open group has committed, with none opening meanwhile.
 */
function routeCalls(client: Client, pool: ReplacingPool): Client {
  const execute = client.execute.bind(client) as (sql: Sql, args?: unknown) => ReturnType<Client['execute']>
  const batch = client.batch.bind(client)
  const executeMultiple = client.executeMultiple.bind(client)
  const migrate = client.migrate.bind(client)
  const transaction = client.transaction.bind(client)

  /**
   * Interactive transactions that may write, open now. One holds the write lock across awaits, so a write
   * sent meanwhile from this thread would wait for the lock on the thread that must release it: writes and
   * other such transactions wait for them to end instead.
   */
  const writing = new Set<Promise<void>>()
  async function noTransactionWriting(): Promise<void> {
    while (writing.size > 0) await Promise.all(writing)
  }

  /** The last write sent: a read sent after it waits for it to be committed (or to fail). */
  let lastWrite: Promise<unknown> = Promise.resolve()

  function written<T>(call: () => Promise<T>): Promise<T> {
    const done = sendWrite(call)
    lastWrite = done.catch(() => {})
    return done
  }

  async function sendWrite<T>(call: () => Promise<T>): Promise<T> {
    if (writing.size > 0) await noTransactionWriting()
    const ticket: Ticket = {}
    pool.nextTicket = ticket
    // The call borrows the writer at once (before its first await), taking the ticket with it.
    const answer = call()
    pool.nextTicket = null
    const result = await answer
    await ticket.committed
    return result
  }

  /**
   * A read waits for the writes sent before it and for the open group to commit (whether they do or not),
   * so it sees every write made before it, as a read on the writer would, and never one not committed.
   */
  async function read<T>(call: () => Promise<T>): Promise<T> {
    await lastWrite
    await pool.groups.current().catch(() => {})
    pool.nextIsRead = true
    const answer = call()
    pool.nextIsRead = false
    return answer
  }

  async function paused<T>(call: () => Promise<T>): Promise<T> {
    const resume = pool.groups.pause()
    try {
      return await call()
    } finally {
      resume()
    }
  }

  const routed = client as unknown as Record<string, unknown>
  routed.execute = (sql: Sql, args?: unknown) => {
    const text = typeof sql === 'string' ? sql : sql.sql
    if (READS.test(text)) return read(() => execute(sql, args))
    if (OUTSIDE_GROUPS.test(text)) return paused(() => execute(sql, args))
    return written(() => execute(sql, args))
  }
  routed.batch = (statements: Parameters<Client['batch']>[0], mode?: Parameters<Client['batch']>[1]) =>
    written(() => batch(statements, mode))
  routed.executeMultiple = (sql: string) => paused(() => executeMultiple(sql))
  routed.migrate = (statements: Parameters<Client['migrate']>[0]) => paused(() => migrate(statements))
  routed.transaction = async (mode?: Parameters<Client['transaction']>[0]) => {
    // A read holds no lock a group needs; one that may write would wait on this thread for the group's
    // lock while the group waits for this thread to commit.
    if (mode === 'read') return transaction(mode)
    await noTransactionWriting()
    let ended = () => {}
    const open = new Promise<void>((resolve) => {
      ended = resolve
    })
    writing.add(open)
    const paused = pool.groups.pause()
    const resume = () => {
      paused()
      writing.delete(open)
      ended()
    }
    try {
      const opened = await transaction(mode)
      for (const end of ['commit', 'rollback', 'close'] as const) {
        const original = opened[end].bind(opened) as () => unknown
        ;(opened as unknown as Record<string, unknown>)[end] = () => {
          try {
            const ended = original()
            if (ended instanceof Promise) return ended.finally(resume)
            resume()
            return ended
          } catch (error) {
            resume()
            throw error
          }
        }
      }
      return opened
    } catch (error) {
      resume()
      throw error
    }
  }
  return client
}

/**
 * A client for the database file at `path` whose every connection waits `timeout` ms for a lock and keeps
 * up to `keptStatements` prepared statements (KEPT_STATEMENTS by default; 0 prepares on every call).
 */
export function createFileClient(
  path: string,
  options: { timeout: number; keptStatements?: number },
): Sqlite3Client {
  const pool = new ReplacingPool(
    path,
    { timeout: options.timeout },
    options.keptStatements ?? KEPT_STATEMENTS,
  )
  return routeCalls(new Sqlite3Client(pool, 'number'), pool)
}
