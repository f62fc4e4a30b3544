// The server's WAL is checkpointed by a thread of its own (db/checkpoints.ts): what commits write reaches
// the database file without any commit on the server's thread copying it there.
import { afterAll, afterEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BACKSTOP_PAGES } from '../../../db/checkpoints'
import { type DatabaseHandle, openDatabase, WAL_AUTOCHECKPOINT_PAGES } from '../../../db/client'
import { newsletterSubscribers } from '../../../db/schema'

const dir = mkdtempSync(join(tmpdir(), 'shop-checkpoints-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const opened: DatabaseHandle[] = []
afterEach(() => {
  for (const handle of opened.splice(0)) handle.close()
})

let files = 0
async function freshDatabase(backgroundCheckpoints: boolean) {
  files += 1
  const file = join(dir, `shop-${files}.db`)
  const handle = await openDatabase(`file:${file}`, undefined, { backgroundCheckpoints })
  opened.push(handle)
  return { handle, file }
}

/**
 * 400 rows of 4 KB, their e-mail index entries as large (about 3.3 MB in the file, 850 pages), in ten
 * commits: below every threshold the server's own connections keep.
 */
async function writeSomeMegabytes(handle: DatabaseHandle) {
  for (let batch = 0; batch < 10; batch++) {
    const rows = Array.from({ length: 40 }, (_, i) => ({
      email: `${batch}.${i}.${'x'.repeat(4_000)}@example.com`,
      source: 'footer',
      createdAt: new Date(1_000),
    }))
    await handle.db.insert(newsletterSubscribers).values(rows)
  }
}

async function fileSizeAfter(file: string, waitMs: number, enough: number): Promise<number> {
  const until = Date.now() + waitMs
  while (Date.now() < until && statSync(file).size < enough) await Bun.sleep(20)
  return statSync(file).size
}

test('the thread copies the WAL into the file while the server checkpoints nothing itself', async () => {
  const { handle, file } = await freshDatabase(true)
  const answer = await handle.db.$client.execute('PRAGMA wal_autocheckpoint')
  expect(answer.rows.map((row) => Number(row[0]))).toEqual([BACKSTOP_PAGES])
  await writeSomeMegabytes(handle)
  expect(await fileSizeAfter(file, 5_000, 3_000_000)).toBeGreaterThan(3_000_000)
})

test('without the thread (commands, tests) the same writes stay in the WAL below the threshold', async () => {
  const { handle, file } = await freshDatabase(false)
  expect(WAL_AUTOCHECKPOINT_PAGES).toBeGreaterThan(1_000)
  await writeSomeMegabytes(handle)
  expect(await fileSizeAfter(file, 300, 3_000_000)).toBeLessThan(1_000_000)
  expect(statSync(`${file}-wal`).size).toBeGreaterThan(3_000_000)
})
