import { mkdirSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { Client } from '@libsql/client'
import { sql } from 'drizzle-orm'
import { migrate } from 'drizzle-orm/libsql/migrator'
// The sqlite3 entry of drizzle's libSQL driver, and the client for a libSQL server imported only when the
// URL names one: a server on a `file:` database never loads the remote client (about 50 modules).
import { drizzle } from 'drizzle-orm/libsql/sqlite3'
import { BACKSTOP_PAGES, startBackgroundCheckpoints } from './checkpoints'
import { createFileClient } from './connection-pool'
import * as schema from './schema'

export type Database = ReturnType<typeof drizzle<typeof schema>>

export interface DatabaseHandle {
  db: Database
  close(): void
}

export const migrationsFolder = resolve(import.meta.dir, 'migrations')

/** How long a write waits for another writer's lock before it fails with SQLITE_BUSY (then a 503). */
export const BUSY_TIMEOUT_MS = 5000

export interface DatabaseOptions {
  /** BUSY_TIMEOUT_MS unless a test needs a lock to be given up sooner. */
  busyTimeoutMs?: number
  /** Prepared statements each connection to a file keeps (db/connection-pool.ts); 0 keeps none. */
  keptStatements?: number
  /**
   * The server: a file's WAL is checkpointed by a thread of its own (db/checkpoints.ts), so requests
   * never wait for its syncs. Short-lived users (commands, tests) checkpoint as SQLite does.
   */
  backgroundCheckpoints?: boolean
}

/**
 * Opens the database and brings its schema up to date. `file:` URLs get WAL and a busy timeout so the
 * server and a CLI command can share the file; `libsql://` URLs point at a libSQL server for scale-out.
 *
 * The client keeps a pool of connections to a file: every single call shares one, and each interactive
 * transaction takes one of its own (db/connection-pool.ts). A PRAGMA sent through the client reaches only
 * the shared connection. So the busy timeout is the client's `timeout` option, which it sets on every
 * connection it opens: set by PRAGMA, only one connection waited and every other one failed at once.
 * journal_mode is kept in the file itself and foreign keys are on in every libSQL connection by default;
 * `synchronous = NORMAL` reaches the shared connection, which makes nearly every commit, and interactive
 * transactions commit with FULL, which is slower per commit, never less safe.
 */
/** WAL pages after which a commit checkpoints (SQLite's default: 1,000). */
export const WAL_AUTOCHECKPOINT_PAGES = 4000

export async function openDatabase(
  url: string,
  authToken?: string,
  options: DatabaseOptions = {},
): Promise<DatabaseHandle> {
  const local = url.startsWith('file:')
  const path = local ? filePath(url) : ''
  if (local && path && path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true })
  const timeout = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS
  // A file gets the pool that replaces a connection spoiled by a failed wait (db/connection-pool.ts).
  const client: Client =
    local && path !== ':memory:'
      ? createFileClient(path, { timeout, keptStatements: options.keptStatements })
      : (await import('@libsql/client')).createClient({ url, authToken, timeout })
  if (local) {
    await client.execute('PRAGMA journal_mode = WAL')
    // With WAL, NORMAL keeps the database consistent after a crash; only the last commits before a power
    // loss can be lost. FULL would sync on every commit and cap writes at a few hundred a second.
    await client.execute('PRAGMA synchronous = NORMAL')
    await client.execute('PRAGMA foreign_keys = ON')
    // The writer's commits copy the WAL back into the file (a checkpoint, with a sync of each file) once
    // the WAL passes this many pages: 4,000 (16 MB) instead of SQLite's 1,000 syncs a quarter as often;
    // with a checkpoint thread, only when it falls behind. docs/decisions/029-group-commit.md.
    const pages = options.backgroundCheckpoints ? BACKSTOP_PAGES : WAL_AUTOCHECKPOINT_PAGES
    await client.execute(`PRAGMA wal_autocheckpoint = ${pages}`)
  }
  const db = drizzle(client, { schema })
  await migrate(db, { migrationsFolder })
  const checkpoints =
    local && path !== ':memory:' && options.backgroundCheckpoints
      ? await startBackgroundCheckpoints(path)
      : null
  return {
    db,
    close: () => {
      void checkpoints?.stop()
      client.close()
    },
  }
}

/** The file a `file:` URL names: `file:./data/shop.db`, `file:/abs/shop.db` or `file:///abs/shop.db`. */
function filePath(url: string): string {
  const path = url.slice('file:'.length).replace(/[?#].*$/, '')
  return path.startsWith('///') ? path.slice(2) : path
}

interface JournalEntry {
  tag: string
  when: number
}

/** The migrations this code expects, from drizzle's journal (read once: it changes only with the code). */
let journal: JournalEntry[] | undefined
export function expectedMigrations(): JournalEntry[] {
  journal ??= (
    JSON.parse(readFileSync(resolve(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
      entries: JournalEntry[]
    }
  ).entries
  return journal
}

/**
 * The journal's migrations the database has not recorded as applied, by tag. drizzle records each applied
 * migration in __drizzle_migrations with the journal's `when` as created_at; a database never migrated has
 * no such table, and then every migration is pending.
 */
export async function pendingMigrations(db: Database): Promise<string[]> {
  let applied: Set<number>
  try {
    const rows = await db.all<{ created_at: number | string }>(
      sql`select created_at from __drizzle_migrations`,
    )
    applied = new Set(rows.map((row) => Number(row.created_at)))
  } catch (error) {
    if (/no such table/i.test(error instanceof Error ? `${error.message} ${String(error.cause)}` : '')) {
      applied = new Set()
    } else {
      throw error
    }
  }
  return expectedMigrations()
    .filter((entry) => !applied.has(entry.when))
    .map((entry) => entry.tag)
}
