// `npm run db:backup [-- <target file>]`: a consistent copy of the shop's SQLite database, taken while the
// shop serves (VACUUM INTO), then opened and checked. Uses the shop's DATABASE_URL; the copy goes to
// data/backups/ by default. A libSQL server is backed up with the server's own tools instead.
import { BackupRefused, backupDatabase } from '../db/backup'

const target = process.argv[2]
if (target === '--help' || target === '-h') {
  console.log('Usage: npm run db:backup [-- <target file>]   (DATABASE_URL names the database)')
  process.exit(0)
}

function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

try {
  const url = process.env.DATABASE_URL?.trim() || 'file:./data/shop.db'
  const started = performance.now()
  const result = await backupDatabase(url, target)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(`Backup written: ${result.path} (${size(result.bytes)}, ${result.bytes} bytes, ${seconds} s)`)
  const { integrity, pendingMigrations, orders } = result.check
  console.log(
    `Checked: integrity ${integrity}, ${pendingMigrations.length === 0 ? 'all migrations applied' : `missing migrations ${pendingMigrations.join(', ')}`}, ${orders} orders`,
  )
  if (integrity !== 'ok') {
    console.error('The copy failed its integrity check: do not rely on it.')
    process.exit(1)
  }
} catch (error) {
  if (error instanceof BackupRefused) {
    console.error(`Backup refused: ${error.message}`)
    process.exit(2)
  }
  throw error
}
