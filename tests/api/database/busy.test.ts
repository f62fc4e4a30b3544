// The database client under another process's write lock. The client keeps a pool of connections to the
// file, and every one of them must wait for the lock (the busy timeout), not only the first; and a
// connection whose statement failed while the lock was held must commit again once the lock is free.
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { sql } from 'drizzle-orm'
import { type DatabaseHandle, openDatabase } from '../../../db/client'
import { newsletterSubscribers } from '../../../db/schema'
import { lockFor } from '../support/write-lock'

const dir = mkdtempSync(join(tmpdir(), 'shop-busy-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const opened: DatabaseHandle[] = []
afterEach(() => {
  for (const handle of opened.splice(0)) handle.close()
})

let files = 0
async function freshDatabase(options?: {
  busyTimeoutMs?: number
}): Promise<{ handle: DatabaseHandle; file: string }> {
  files += 1
  const file = join(dir, `shop-${files}.db`)
  const handle = await openDatabase(`file:${file}`, undefined, options)
  opened.push(handle)
  return { handle, file }
}

/** One subscriber row written in a transaction (a batch), as the shop writes an order. */
function write(handle: DatabaseHandle, email: string) {
  return handle.db.batch([
    handle.db.insert(newsletterSubscribers).values({ email, source: 'footer', createdAt: new Date() }),
    handle.db.run(sql`select 1`),
  ])
}

describe('a write under another process’s lock', () => {
  test('every connection of the pool waits for the lock, however many write at once', async () => {
    const { handle, file } = await freshDatabase()
    // Six transactions open together make the client open six connections; they go back to its pool.
    const held = await Promise.all(Array.from({ length: 6 }, () => handle.db.$client.transaction('read')))
    for (const transaction of held) transaction.close()

    const { released } = await lockFor(file, 1500)
    const writes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => write(handle, `parallel.${i}@example.com`)),
    )
    await released
    expect(
      writes.map((result) => (result.status === 'fulfilled' ? 'written' : String(result.reason))),
    ).toEqual(Array(6).fill('written'))
    const rows = await handle.db.select().from(newsletterSubscribers)
    expect(rows).toHaveLength(6)
  })

  test('after a write gave up waiting, the next writes are really written, and nobody waits for them', async () => {
    const { handle, file } = await freshDatabase({ busyTimeoutMs: 100 })
    const { released } = await lockFor(file, 800)
    const refused = await write(handle, 'refused@example.com').then(
      () => 'written',
      (error: unknown) => String((error as { code?: unknown }).code ?? error),
    )
    expect(refused).toStartWith('SQLITE_BUSY')
    await released

    // The lock is long gone. A single write (no BEGIN) must be committed, not only answered as done:
    // another connection, as another process would, must see it and be able to write after it.
    await handle.db.insert(newsletterSubscribers).values({
      email: 'single@example.com',
      source: 'footer',
      createdAt: new Date(),
    })
    const outside = createClient({ url: `file:${file}` })
    try {
      const seen = await outside.execute('select email from newsletter_subscribers')
      expect(seen.rows.map((row) => row.email)).toEqual(['single@example.com'])
      await outside.execute(
        "insert into newsletter_subscribers (email, source, created_at) values ('outside@example.com', 'footer', 0)",
      )
    } finally {
      outside.close()
    }
    // And transactions commit.
    for (const i of [1, 2, 3]) await write(handle, `after.${i}@example.com`)
    const rows = await handle.db.select().from(newsletterSubscribers)
    expect(rows.map((row) => row.email).sort()).toEqual([
      'after.1@example.com',
      'after.2@example.com',
      'after.3@example.com',
      'outside@example.com',
      'single@example.com',
    ])
  })

  test('a spoiled connection is replaced: writers waiting for a connection are still served', async () => {
    const { handle, file } = await freshDatabase({ busyTimeoutMs: 100 })
    const { released } = await lockFor(file, 600)
    // More writes at once than the pool has connections: some wait for one to come back.
    const writes = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => write(handle, `queued.${i}@example.com`)),
    )
    await released
    // Each waits up to 100 ms in turn, so the first ones give up and the later ones outlast the lock.
    const written = writes.filter((result) => result.status === 'fulfilled').length
    expect(written).toBeLessThan(30)
    const again = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => write(handle, `again.${i}@example.com`)),
    )
    expect(again.filter((result) => result.status === 'rejected')).toEqual([])
    expect(await handle.db.select().from(newsletterSubscribers)).toHaveLength(written + 30)
  })
})
