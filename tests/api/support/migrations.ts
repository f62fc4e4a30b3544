/** For tests of one migration: the shop's migrations up to it, to fill a database as it stood before. */
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { migrationsFolder } from '../../../db/client'

/**
 * A copy of the migrations folder in `dir` holding those before the first whose SQL contains `sqlText`:
 * found by what it does, not by its name or number.
 */
export function migrationsBefore(dir: string, sqlText: string): string {
  const folder = join(dir, 'migrations')
  cpSync(migrationsFolder, folder, { recursive: true })
  const journalPath = join(folder, 'meta', '_journal.json')
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] }
  const at = journal.entries.findIndex((entry) =>
    readFileSync(join(folder, `${entry.tag}.sql`), 'utf8').includes(sqlText),
  )
  if (at < 1) throw new Error(`no migration after the first adds ${sqlText}`)
  journal.entries = journal.entries.slice(0, at)
  writeFileSync(journalPath, JSON.stringify(journal))
  return folder
}

/** An address as orders stored it before the upgrade under test. */
export const OLD_ADDRESS = JSON.stringify({
  name: 'Old Customer',
  street1: '12 Mill Rd',
  city: 'San Francisco',
  state: 'CA',
  zip: '94107',
  country: 'US',
})
