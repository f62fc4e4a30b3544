// `npm run db:backup` while the shop takes orders: the copy is consistent (SQLite's integrity check, every
// migration, every order acknowledged before the copy began), the writers are not held up, and a libSQL
// server is refused with the advice to use its own backups.
import { afterAll, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createClient } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import { pendingMigrations } from '../../db/client'
import * as schema from '../../db/schema'
import { recordDrill } from './support/counts'
import { cleanUpShops, createShop, deliver, inParallel, paidSessions } from './support/shop'

const ROOT = resolve(import.meta.dir, '../..')
const PAYMENTS = 300

afterAll(() => cleanUpShops())

function backup(env: Record<string, string>, ...args: string[]) {
  return Bun.spawn([process.execPath, 'scripts/db-backup.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
}

test('a backup taken while orders are written is whole and holds every order made before it', async () => {
  const shop = createShop('backup')
  await shop.start()
  const sessions = await paidSessions(shop, PAYMENTS, 'backup')
  const target = join(shop.dir, 'copies', 'shop-copy.db')

  const acknowledged: number[] = []
  const statuses: number[] = []
  let backupStartedAt = 0
  let run: ReturnType<typeof backup> | undefined
  await inParallel(sessions, 8, async (session, index) => {
    const status = await deliver(shop.base, session.payload)
    statuses.push(typeof status === 'number' ? status : 0)
    if (status === 200) acknowledged.push(Date.now())
    // A third of the way in, the operator runs the backup while the webhooks keep coming.
    if (index === PAYMENTS / 3) {
      backupStartedAt = Date.now()
      run = backup({ DATABASE_URL: `file:${join(shop.dir, 'shop.db')}` }, target)
    }
  })
  if (!run) throw new Error('the backup never started')
  const [out, err, exitCode] = await Promise.all([
    new Response(run.stdout).text(),
    new Response(run.stderr).text(),
    run.exited,
  ])
  expect(err).toBe('')
  expect(exitCode).toBe(0)
  expect(out).toContain(`Backup written: ${target} (`)
  expect(out).toContain('integrity ok, all migrations applied')
  // The writers were never held up by the copy.
  expect(statuses.every((status) => status === 200)).toBe(true)

  // Restore check: the copy opens on its own (no WAL beside it) as a database the shop can start on.
  expect(existsSync(`${target}-wal`)).toBe(false)
  const copy = createClient({ url: `file:${target}` })
  try {
    expect((await copy.execute('PRAGMA integrity_check')).rows[0]?.[0]).toBe('ok')
    expect(await pendingMigrations(drizzle(copy, { schema }))).toEqual([])
    const orders = Number((await copy.execute('select count(*) from orders')).rows[0]?.[0])
    const lines = Number(
      (await copy.execute('select count(distinct order_id) from order_lines')).rows[0]?.[0],
    )
    const before = acknowledged.filter((at) => at < backupStartedAt).length
    const line = `drill backup: ${PAYMENTS} payments arriving, backup started after ${before} orders were acknowledged, copy holds ${orders} orders (all with their lines: ${lines === orders}), integrity ok, migrations applied, writers answered 200 throughout`
    console.log(line)
    recordDrill('backup', line)
    expect(orders).toBeGreaterThanOrEqual(before)
    expect(orders).toBeLessThanOrEqual(PAYMENTS)
    expect(lines).toBe(orders)
    expect(Number((await shop.db().execute('select count(*) from orders')).rows[0]?.[0])).toBe(PAYMENTS)
  } finally {
    copy.close()
  }

  // A second backup to the same file is refused rather than overwriting the first.
  const again = backup({ DATABASE_URL: `file:${join(shop.dir, 'shop.db')}` }, target)
  expect(await again.exited).toBe(2)
  expect(await new Response(again.stderr).text()).toContain('exists already')
}, 90_000)

test('a libSQL server is refused: its own backups are the way', async () => {
  const run = backup({
    DATABASE_URL: 'libsql://shop-db.example.turso.io',
    DATABASE_AUTH_TOKEN: 'secret-token',
  })
  expect(await run.exited).toBe(2)
  const err = await new Response(run.stderr).text()
  expect(err).toContain('Backup refused: DATABASE_URL points at a libSQL server (shop-db.example.turso.io)')
  expect(err).toContain("server's own backups")
  expect(err).not.toContain('secret-token')
})
