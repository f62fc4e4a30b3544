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

/** The client's own default: how many connections one client may hold. */
const MAX_CONNECTIONS = 20

function failedBusy(error: unknown): boolean {
  return String((error as { code?: unknown } | null)?.code ?? '').startsWith('SQLITE_BUSY')
}

/** Connections with a statement that failed busy: closed when they come back to the pool. */
const spoiled = new WeakSet<Connection>()
const watched = new WeakSet<Connection>()

/**
 * Marks the connection spoiled when one of its statements fails busy. The client runs every statement
 * through `prepare(…).run()` or `.all()`, so those two are watched.
 */
function watch(connection: Connection): void {
  if (watched.has(connection)) return
  watched.add(connection)
  const prepare = connection.prepare.bind(connection)
  connection.prepare = ((source: string) => {
    const statement = prepare(source)
    for (const method of ['run', 'all'] as const) {
      const step = statement[method].bind(statement) as (...args: unknown[]) => unknown
      ;(statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        try {
          return step(...args)
        } catch (error) {
          if (failedBusy(error)) spoiled.add(connection)
          throw error
        }
      }
    }
    return statement
  }) as Connection['prepare']
}

class ReplacingPool extends ConnectionPool {
  override acquireSync(forTransaction = false): Connection {
    const connection = super.acquireSync(forTransaction)
    watch(connection)
    return connection
  }

  override release(connection: Connection): void {
    if (!spoiled.has(connection)) {
      super.release(connection)
      return
    }
    spoiled.delete(connection)
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

/** A client for the database file at `path` whose every connection waits `timeout` ms for a lock. */
export function createFileClient(path: string, options: { timeout: number }): Sqlite3Client {
  const pool = new ReplacingPool(path, { timeout: options.timeout }, MAX_CONNECTIONS)
  return new Sqlite3Client(pool, 'number')
}
