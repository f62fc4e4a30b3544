import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { createClient } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import { migrate } from 'drizzle-orm/libsql/migrator'
import * as schema from './schema'

export type Database = ReturnType<typeof drizzle<typeof schema>>

export interface DatabaseHandle {
  db: Database
  close(): void
}

const migrationsFolder = resolve(import.meta.dir, 'migrations')

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
