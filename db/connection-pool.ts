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

class ReplacingPool extends ConnectionPool {
  readonly #keptStatements: number
  /** The connection every call outside an interactive transaction uses (see `acquire`). */
  #shared: Connection | null = null

  constructor(path: string, options: { timeout: number }, keptStatements: number) {
    super(path, options, MAX_CONNECTIONS)
    this.#keptStatements = keptStatements
  }

  /**
   * A single call (`execute`, `batch`, `executeMultiple`) runs synchronously from the moment it holds its
   * connection until it gives it back, so two of them never use one connection at once: they all share one.
   * The pool would lend each call waiting in the same turn of the event loop a connection of its own, and
   * SQLite drops a connection's page cache whenever another connection wrote since its last use, so with
   * 16 requests in flight nearly every transaction began by reading its pages again (checkout: 1.13 ms of
   * CPU each with 16 in flight, 0.83 ms one at a time). Interactive transactions, which hold a connection
   * across awaits, still take their own from the pool.
   */
  override acquire(forTransaction = false): Promise<Connection> {
    if (forTransaction) return super.acquire(true)
    try {
      if (!this.#shared?.open) this.#shared = this.acquireSync()
      return Promise.resolve(this.#shared)
    } catch (error) {
      return Promise.reject(error)
    }
  }

  override acquireSync(forTransaction = false): Connection {
    const connection = super.acquireSync(forTransaction)
    watch(connection, this.#keptStatements)
    return connection
  }

  override release(connection: Connection): void {
    if (connection === this.#shared && !spoiled.has(connection)) {
      // Stays lent: only a call that failed midway can leave a transaction open, and it ends here, as the
      // pool ends one on any connection given back.
      if (connection.open && connection.inTransaction) {
        try {
          connection.prepare('ROLLBACK').run()
        } catch {
          this.#shared = null
          super.release(connection)
        }
      }
      return
    }
    if (connection === this.#shared) this.#shared = null
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
  return new Sqlite3Client(pool, 'number')
}
