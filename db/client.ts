import { mkdirSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { createClient } from '@libsql/client'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/libsql'
import { migrate } from 'drizzle-orm/libsql/migrator'
import * as schema from './schema'

export type Database = ReturnType<typeof drizzle<typeof schema>>

export interface DatabaseHandle {
  db: Database
  close(): void
}

export const migrationsFolder = resolve(import.meta.dir, 'migrations')

/**
 * Opens the database and brings its schema up to date. `file:` URLs get WAL and a busy timeout so the
 * server and a CLI command can share the file; `libsql://` URLs point at a libSQL server for scale-out.
 */
export async function openDatabase(url: string, authToken?: string): Promise<DatabaseHandle> {
  if (url.startsWith('file:')) {
    const path = url.slice('file:'.length)
    if (path && path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true })
  }
  const client = createClient({ url, authToken })
  if (url.startsWith('file:')) {
    await client.execute('PRAGMA journal_mode = WAL')
    // With WAL, NORMAL keeps the database consistent after a crash; only the last commits before a power
    // loss can be lost. FULL would sync on every commit and cap writes at a few hundred a second.
    await client.execute('PRAGMA synchronous = NORMAL')
    await client.execute('PRAGMA busy_timeout = 5000')
    await client.execute('PRAGMA foreign_keys = ON')
  }
  const db = drizzle(client, { schema })
  await migrate(db, { migrationsFolder })
  return { db, close: () => client.close() }
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
