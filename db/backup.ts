import { existsSync, mkdirSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { createClient } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import { pendingMigrations } from './client'
import * as schema from './schema'

/** A backup that cannot be made from here, with what to do instead. */
export class BackupRefused extends Error {}

export interface BackupResult {
  path: string
  bytes: number
  /** The copy opened again: SQLite's integrity check, migrations it lacks, and how many orders it holds. */
  check: { integrity: string; pendingMigrations: string[]; orders: number }
}

/** The file behind a `file:` DATABASE_URL; anything else is a libSQL server, whose backups are its own. */
export function databaseFile(url: string): string {
  if (!url.startsWith('file:')) {
    const host = (() => {
      try {
        return new URL(url).host
      } catch {
        return 'a server'
      }
    })()
    throw new BackupRefused(
      `DATABASE_URL points at a libSQL server (${host}), not a file: back it up with the server's own backups (point-in-time restore on Turso, snapshots or bottomless backups on a self-hosted sqld).`,
    )
  }
  const path = url.slice('file:'.length).split('?')[0] ?? ''
  if (path === '' || path === ':memory:')
    throw new BackupRefused('An in-memory database has nothing to back up.')
  return resolve(path)
}

/** data/backups/shop-2026-11-23T12-19-09Z.db beside the database file. */
export function defaultBackupPath(file: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-')
  return join(dirname(file), 'backups', `${basename(file).replace(/\.db$/, '')}-${stamp}.db`)
}

/**
 * Copies the database while the shop keeps serving. `VACUUM INTO` reads one consistent snapshot (a read
 * transaction: writers carry on in the WAL meanwhile) and writes a compact, self-contained file without a
 * WAL beside it, so the copy is whole even if orders arrive during the copy. The copy is then opened and
 * checked, as a restore would.
 */
export async function backupDatabase(url: string, target?: string, now = new Date()): Promise<BackupResult> {
  const file = databaseFile(url)
  if (!existsSync(file)) throw new BackupRefused(`There is no database at ${file}.`)
  const path = resolve(target ?? defaultBackupPath(file, now))
  if (existsSync(path)) throw new BackupRefused(`${path} exists already: choose another file.`)
  mkdirSync(dirname(path), { recursive: true })

  // The shop may hold the write lock for a moment; the copy only reads, but waits rather than failing. The
  // client's `timeout` reaches every connection of its pool (a PRAGMA would reach only the one it ran on).
  const source = createClient({ url: `file:${file}`, timeout: 10_000 })
  try {
    await source.execute({ sql: 'VACUUM INTO ?', args: [path] })
  } finally {
    source.close()
  }

  const copy = createClient({ url: `file:${path}` })
  try {
    const integrity = String((await copy.execute('PRAGMA integrity_check')).rows[0]?.[0] ?? 'no answer')
    const pending = await pendingMigrations(drizzle(copy, { schema }))
    const orders = Number((await copy.execute('select count(*) from orders')).rows[0]?.[0] ?? 0)
    return { path, bytes: statSync(path).size, check: { integrity, pendingMigrations: pending, orders } }
  } finally {
    copy.close()
  }
}
