/**
 * Group commit for the connection that every single call shares (db/connection-pool.ts): the calls made in
 * one turn of the event loop run in one transaction, each batch under a savepoint of its own, and that
 * transaction commits once, when the turn ends. No call's answer is given before the transaction it ran in
 * has committed: a batch, a write and a read all wait for that commit, and all fail if it fails, so nothing
 * anyone was told can be lost, and nothing uncommitted is ever shown.
 *
 * Why: each commit writes every page it changed to the WAL, and 16 requests in flight touch the same few
 * pages (the last leaf of each table and index), so committing them together writes each page once, not
 * once per request. docs/decisions/029-group-commit.md has the numbers.
 *
 * How: the client runs `BEGIN`, `COMMIT` and `ROLLBACK` around a batch; on the shared connection these
 * become `SAVEPOINT`, `RELEASE` and `ROLLBACK TO` inside the group's transaction, which the first statement
 * of a turn opens (`BEGIN IMMEDIATE`: it takes the write lock at once, so another process's writer waits
 * for the lock instead of finding its snapshot stale). A batch that fails is undone alone. A failure that
 * ends the whole transaction (SQLite gives up on it when the disk is full, for example) fails every call
 * of the group. Migrations, several statements sent as one text, and interactive transactions (on their
 * own connections) first wait for the group to commit, and no group opens while they run.
 */
type Connection = {
  prepare(source: string): Runnable
  readonly inTransaction: boolean
  readonly open: boolean
}
type Runnable = { run(...args: unknown[]): unknown }

/**
 * What `raw()` throws for a statement that returns no rows, as the binding does: the client learns from it
 * that there is nothing to read. One error for every such answer, since a new one (and its stack) for each
 * batch's BEGIN and COMMIT is wasted work.
 */
const RETURNS_NO_DATA = new TypeError('The statement does not return data')

/** What the client's statement helper asks of a statement that returns no rows. */
function noRows(run: () => void) {
  const statement = {
    safeIntegers: () => statement,
    raw: () => {
      throw RETURNS_NO_DATA
    },
    columns: () => [],
    run: () => {
      run()
      return { changes: 0, lastInsertRowid: 0 }
    },
    all: () => {
      run()
      return []
    },
  }
  return statement
}

interface Group {
  committed: Promise<void>
  resolve: () => void
  reject: (error: unknown) => void
}

function newGroup(): Group {
  let resolve = () => {}
  let reject: (error: unknown) => void = () => {}
  const committed = new Promise<void>((yes, no) => {
    resolve = yes
    reject = no
  })
  // Nobody may be waiting (the calls of a group that failed already know): never an unhandled rejection.
  committed.catch(() => {})
  return { committed, resolve, reject }
}

export class CommitGroups {
  /** The connection's last statement error (the pool watches every statement). */
  readonly #lastFailure: (connection: Connection) => unknown

  constructor(lastFailure: (connection: Connection) => unknown) {
    this.#lastFailure = lastFailure
  }

  #group: Group | null = null
  /** A batch's savepoint is open on the shared connection. */
  #inBatch = false
  /** Interactive transactions, migrations, PRAGMAs and multi-statement texts under way: no group opens. */
  #paused = 0
  #connection: Connection | null = null
  #prepare: ((source: string) => Runnable) | null = null

  /**
   * Takes over `connection`'s `prepare` (the pool's shared connection, already keeping its statements) so
   * that the client's own transaction statements become savepoints of the group.
   */
  adopt(connection: Connection): void {
    const prepare = connection.prepare.bind(connection)
    this.#connection = connection
    this.#prepare = prepare
    connection.prepare = (source: string) => {
      if (this.#paused > 0) return prepare(source)
      if (source === 'COMMIT') return noRows(() => this.#endBatch('RELEASE batch'))
      if (source === 'ROLLBACK') return noRows(() => this.#endBatch('ROLLBACK TO batch'))
      if (/^BEGIN\b/.test(source)) {
        return noRows(() => {
          this.#openGroup()
          prepare('SAVEPOINT batch').run()
          this.#inBatch = true
        })
      }
      this.#openGroup()
      return prepare(source)
    }
  }

  /**
   * What a call that just ran on the shared connection waits for: its group's commit (nothing outside a
   * group). Asked by the pool when the call gives the connection back, before any other call can run.
   */
  current(): Promise<void> {
    return this.#group?.committed ?? Promise.resolve()
  }

  /**
   * The shared connection is given back after a call. A batch that failed midway leaves its savepoint open:
   * it is undone here, alone (or, if that fails, its whole group).
   */
  released(connection: Connection): void {
    if (connection !== this.#connection || !this.#inBatch) return
    try {
      this.#endBatch('ROLLBACK TO batch')
    } catch (error) {
      this.#fail(error)
    }
  }

  /** The shared connection is closed or replaced: its open group is lost, and every call in it fails. */
  lost(connection: Connection, why: unknown): void {
    if (connection !== this.#connection) return
    this.#fail(why)
    this.#connection = null
    this.#prepare = null
    this.#inBatch = false
  }

  /**
   * For a migration, a multi-statement text, a PRAGMA or an interactive transaction: the open group commits
   * now, and no group opens until the returned function is called.
   */
  pause(): () => void {
    this.#paused += 1
    this.#commit()
    let resumed = false
    return () => {
      if (resumed) return
      resumed = true
      this.#paused -= 1
    }
  }

  #openGroup(): void {
    // SQLite ended the group's transaction after a statement failed (a full disk): its calls are told now,
    // and this statement starts a new group instead of running, and committing, on its own.
    if (this.#group && !this.#connection?.inTransaction) this.#fail(this.#ended())
    if (this.#group || !this.#prepare) return
    this.#prepare('BEGIN IMMEDIATE').run()
    this.#group = newGroup()
    setImmediate(() => this.#commit())
  }

  #endBatch(statement: 'RELEASE batch' | 'ROLLBACK TO batch'): void {
    this.#inBatch = false
    if (!this.#prepare) return
    if (!this.#connection?.inTransaction) {
      // SQLite ended the whole transaction (a full disk, an I/O error): the group is lost.
      const lost = this.#ended()
      this.#fail(lost)
      throw lost
    }
    if (statement === 'ROLLBACK TO batch') this.#prepare('ROLLBACK TO batch').run()
    this.#prepare('RELEASE batch').run()
  }

  /** Commits the open group and answers every call in it. */
  #commit(): void {
    const group = this.#group
    if (!group) return
    this.#group = null
    try {
      if (!this.#connection?.inTransaction) throw this.#ended()
      this.#prepare?.('COMMIT').run()
      group.resolve()
    } catch (error) {
      this.#rollBack()
      group.reject(error)
    }
  }

  /**
   * The open group cannot commit: what it wrote is rolled back at once (a later group must not commit it),
   * and every call in it is told. The next statement opens a new group.
   */
  #fail(error: unknown): void {
    const group = this.#group
    if (!group) return
    this.#group = null
    this.#inBatch = false
    this.#rollBack()
    group.reject(error)
  }

  /** The error for calls whose transaction SQLite ended: caused by the statement that made it end. */
  #ended(): Error {
    const cause = this.#connection ? this.#lastFailure(this.#connection) : undefined
    return new Error('The database ended the transaction before it could commit', { cause })
  }

  #rollBack(): void {
    try {
      if (this.#connection?.open && this.#connection.inTransaction) this.#prepare?.('ROLLBACK').run()
    } catch {
      // The connection is lost as well; the pool replaces it.
    }
  }
}
