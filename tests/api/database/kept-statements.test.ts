// The database client keeps each connection's prepared statements and runs them again with new
// arguments, instead of preparing every statement on every call. A kept statement must behave exactly as
// a fresh one: new arguments each run, usable again after it failed, never holding a read snapshot (which
// would hide other writers' rows and stop the WAL from being checkpointed), and dropped with a connection
// that is closed.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { eq, sql } from 'drizzle-orm'
import Libsql from 'libsql'
import { type DatabaseHandle, openDatabase } from '../../../db/client'
import { newsletterSubscribers } from '../../../db/schema'

const dir = mkdtempSync(join(tmpdir(), 'shop-kept-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const opened: DatabaseHandle[] = []
afterEach(() => {
  for (const handle of opened.splice(0)) handle.close()
})

/** How often the native binding prepared each SQL text (every connection of every client here). */
const prepared = new Map<string, number>()
const nativePrepare = Libsql.prototype.prepare
beforeAll(() => {
  Libsql.prototype.prepare = function (this: Libsql.Database, source: string) {
    prepared.set(source, (prepared.get(source) ?? 0) + 1)
    return nativePrepare.call(this, source)
  } as typeof nativePrepare
})
afterAll(() => {
  Libsql.prototype.prepare = nativePrepare
})

let files = 0
async function freshDatabase(options?: { keptStatements?: number }) {
  files += 1
  const file = join(dir, `shop-${files}.db`)
  const handle = await openDatabase(`file:${file}`, undefined, options)
  opened.push(handle)
  return { handle, file }
}

function subscribe(handle: DatabaseHandle, email: string) {
  return handle.db
    .insert(newsletterSubscribers)
    .values({ email, source: 'footer', createdAt: new Date(1_000) })
}

const emailOf = (handle: DatabaseHandle, email: string) =>
  handle.db
    .select({ email: newsletterSubscribers.email })
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.email, email))

/** The SQL text drizzle sends for a query, as the binding sees it. */
const textOf = (query: { toSQL(): { sql: string } }) => query.toSQL().sql

describe('one connection for single calls', () => {
  test('calls made side by side share one connection, so its pages and statements stay warm', async () => {
    const { handle } = await freshDatabase()
    const text = textOf(emailOf(handle, 'side.by.side@example.com'))
    const before = prepared.get(text) ?? 0
    // Sixteen requests in flight each reach the database in the same turn of the event loop.
    await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        Promise.all([subscribe(handle, `side.${i}@example.com`), emailOf(handle, `side.${i}@example.com`)]),
      ),
    )
    // One connection, one preparation (the pool would have lent each call waiting a connection of its own).
    expect((prepared.get(text) ?? 0) - before).toBe(1)
    expect(await handle.db.$count(newsletterSubscribers)).toBe(16)
  })

  test('an interactive transaction takes a connection of its own, and single calls go on meanwhile', async () => {
    const { handle } = await freshDatabase()
    const transaction = await handle.db.$client.transaction('write')
    await transaction.execute({
      sql: 'insert into newsletter_subscribers (email, source, created_at) values (?, ?, ?)',
      args: ['inside@example.com', 'footer', 1_000],
    })
    // Not yet committed: the shared connection does not see it, and reads without waiting.
    expect(await emailOf(handle, 'inside@example.com')).toEqual([])
    await transaction.commit()
    expect(await emailOf(handle, 'inside@example.com')).toEqual([{ email: 'inside@example.com' }])
  })
})

describe('kept statements', () => {
  test('a statement is prepared once per connection and run again with each call’s arguments', async () => {
    const { handle } = await freshDatabase()
    for (let i = 0; i < 40; i++) await subscribe(handle, `kept.${i}@example.com`)
    const found: string[] = []
    for (let i = 0; i < 40; i += 7) {
      const rows = await emailOf(handle, `kept.${i}@example.com`)
      found.push(...rows.map((row) => row.email))
    }
    expect(found).toEqual([0, 7, 14, 21, 28, 35].map((i) => `kept.${i}@example.com`))
    // Sequential calls borrow one connection, so one preparation each would be plenty; allow a few more
    // for connections the pool opened meanwhile.
    expect(prepared.get(textOf(subscribe(handle, 'x@example.com'))) ?? 0).toBeLessThanOrEqual(3)
    expect(prepared.get(textOf(emailOf(handle, 'x@example.com'))) ?? 0).toBeLessThanOrEqual(3)
    expect(await handle.db.$count(newsletterSubscribers)).toBe(40)
  })

  test('a statement that failed runs again, and a batch that failed rolls back and the next commits', async () => {
    const { handle } = await freshDatabase()
    await subscribe(handle, 'twice@example.com')
    for (let attempt = 0; attempt < 3; attempt++) {
      const error = await subscribe(handle, 'twice@example.com').then(
        () => undefined,
        (caught: unknown) => caught,
      )
      expect(String((error as { cause?: unknown })?.cause ?? error)).toContain('UNIQUE')
      await subscribe(handle, `after.${attempt}@example.com`)
    }
    // The same transaction shape, failing halfway and then succeeding, on kept BEGIN/COMMIT statements.
    const batch = (first: string, second: string) =>
      handle.db.batch([subscribe(handle, first), subscribe(handle, second)])
    await expect(batch('in.batch@example.com', 'twice@example.com')).rejects.toThrow()
    await batch('in.batch@example.com', 'in.batch.2@example.com')
    const emails = (await handle.db.select().from(newsletterSubscribers)).map((row) => row.email)
    expect(emails.sort()).toEqual([
      'after.0@example.com',
      'after.1@example.com',
      'after.2@example.com',
      'in.batch.2@example.com',
      'in.batch@example.com',
      'twice@example.com',
    ])
  })

  test('a kept read holds no snapshot: it sees other writers, and the WAL checkpoints to nothing', async () => {
    const { handle, file } = await freshDatabase()
    await subscribe(handle, 'first@example.com')
    const count = () => handle.db.select({ n: sql<number>`count(*)` }).from(newsletterSubscribers)
    expect((await count())[0]?.n).toBe(1)

    const outside = createClient({ url: `file:${file}` })
    try {
      for (let i = 0; i < 3; i++) {
        await outside.execute({
          sql: 'insert into newsletter_subscribers (email, source, created_at) values (?, ?, 0)',
          args: [`outside.${i}@example.com`, 'footer'],
        })
        expect((await count())[0]?.n).toBe(2 + i)
      }
      // Every kept statement of the shop's connections has finished: a full checkpoint is not blocked.
      const result = await outside.execute('PRAGMA wal_checkpoint(TRUNCATE)')
      expect(result.rows[0]?.[0]).toBe(0)
      expect(statSync(`${file}-wal`).size).toBe(0)
    } finally {
      outside.close()
    }
  })

  test('each connection keeps a bounded number: the least recently used are dropped and prepared again', async () => {
    const { handle } = await freshDatabase({ keptStatements: 4 })
    const probe = (n: number) => handle.db.all(sql.raw(`select ${n} as n`))
    const probeText = (n: number) => `select ${n} as n`
    await probe(0)
    await probe(0)
    expect(prepared.get(probeText(0))).toBe(1)
    for (let n = 1; n <= 4; n++) await probe(n)
    // 0 was the least recently used of five: it was dropped, so it is prepared again.
    await probe(0)
    expect(prepared.get(probeText(0))).toBe(2)
    // 4 was used last before it, and is still kept.
    await probe(4)
    expect(prepared.get(probeText(4))).toBe(1)
  })

  test('with none kept, every call prepares again', async () => {
    const { handle } = await freshDatabase({ keptStatements: 0 })
    const text = 'select 12345 as n'
    for (let i = 0; i < 5; i++) await handle.db.all(sql.raw(text))
    expect(prepared.get(text)).toBe(5)
  })
})
