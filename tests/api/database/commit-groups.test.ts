// Writes made in one turn of the event loop commit together (docs/decisions/029-group-commit.md): each
// answered only once its group is committed, a failing batch undone alone, reads never shown what is not
// committed, and an interactive transaction never stuck behind a group.
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import Libsql from 'libsql'
import { type DatabaseHandle, openDatabase, WAL_AUTOCHECKPOINT_PAGES } from '../../../db/client'
import { newsletterSubscribers } from '../../../db/schema'

const dir = mkdtempSync(join(tmpdir(), 'shop-groups-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const opened: DatabaseHandle[] = []
afterEach(() => {
  for (const handle of opened.splice(0)) handle.close()
})

let files = 0
async function freshDatabase() {
  files += 1
  const file = join(dir, `shop-${files}.db`)
  const handle = await openDatabase(`file:${file}`)
  opened.push(handle)
  return { handle, file }
}

const subscribe = (handle: DatabaseHandle, email: string) =>
  handle.db.insert(newsletterSubscribers).values({ email, source: 'footer', createdAt: new Date(1_000) })

const subscribed = async (handle: DatabaseHandle, email: string) =>
  (
    await handle.db
      .select({ email: newsletterSubscribers.email })
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, email))
  ).length > 0

/** What another process would see: a connection of its own, outside the shop's client. */
function seenFromOutside(file: string, email: string): boolean {
  const outside = new Libsql(file)
  try {
    return outside.prepare('select 1 from newsletter_subscribers where email = ?').all(email).length > 0
  } finally {
    outside.close()
  }
}

describe('group commit', () => {
  test('a write is answered only once it is committed: another connection sees it at once', async () => {
    const { handle, file } = await freshDatabase()
    await Promise.all(Array.from({ length: 10 }, (_, i) => subscribe(handle, `seen.${i}@example.com`)))
    for (let i = 0; i < 10; i++) expect(seenFromOutside(file, `seen.${i}@example.com`)).toBe(true)
  })

  test('writes in flight together write their shared pages to the WAL once, not once each', async () => {
    const walGrowth = async (together: boolean) => {
      const { handle, file } = await freshDatabase()
      // No checkpoint meanwhile: the WAL keeps every page each commit wrote.
      await handle.db.$client.execute('PRAGMA wal_autocheckpoint = 0')
      await subscribe(handle, 'first@example.com')
      const before = statSync(`${file}-wal`).size
      const emails = Array.from({ length: 40 }, (_, i) => `wal.${i}@example.com`)
      if (together) await Promise.all(emails.map((email) => subscribe(handle, email)))
      else for (const email of emails) await subscribe(handle, email)
      return statSync(`${file}-wal`).size - before
    }
    const oneByOne = await walGrowth(false)
    const together = await walGrowth(true)
    // Forty commits of the same table and index pages, against one commit of them.
    expect(together * 10).toBeLessThan(oneByOne)
  })

  test('the writer checkpoints after 4,000 WAL pages, not the 1,000 SQLite starts with', async () => {
    const { handle } = await freshDatabase()
    const answer = await handle.db.$client.execute('PRAGMA wal_autocheckpoint')
    expect(answer.rows.map((row) => Number(row[0]))).toEqual([WAL_AUTOCHECKPOINT_PAGES])
    expect(WAL_AUTOCHECKPOINT_PAGES).toBe(4000)
  })

  test('a batch that fails is undone alone; the others of its group commit', async () => {
    const { handle, file } = await freshDatabase()
    await subscribe(handle, 'taken@example.com')
    const [first, failing, last] = await Promise.allSettled([
      handle.db.batch([subscribe(handle, 'a@example.com'), subscribe(handle, 'b@example.com')]),
      // Its first insert succeeds, its second breaks the unique e-mail: neither may stay.
      handle.db.batch([subscribe(handle, 'half@example.com'), subscribe(handle, 'taken@example.com')]),
      subscribe(handle, 'c@example.com'),
    ])
    expect([first.status, failing.status, last.status]).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com'])
      expect(seenFromOutside(file, email)).toBe(true)
    expect(seenFromOutside(file, 'half@example.com')).toBe(false)
    expect(await handle.db.$count(newsletterSubscribers)).toBe(4)
  })

  test('a read sent while writes are in flight sees them, committed', async () => {
    const { handle } = await freshDatabase()
    // Sent (a query runs when it is awaited or `then` is called), not yet committed...
    const write = subscribe(handle, 'in.flight@example.com').then(() => 'written')
    // ...when the read is sent.
    const [written, found] = await Promise.all([write, subscribed(handle, 'in.flight@example.com')])
    expect([written, found]).toEqual(['written', true])
  })

  test('two claims of one row in one group: one gets it', async () => {
    const { handle } = await freshDatabase()
    await subscribe(handle, 'claimed@example.com')
    const claim = () =>
      handle.db
        .update(newsletterSubscribers)
        .set({ source: 'claimed' })
        .where(
          sql`${newsletterSubscribers.email} = 'claimed@example.com' and ${newsletterSubscribers.source} = 'footer'`,
        )
        .returning({ email: newsletterSubscribers.email })
    const claims = await Promise.all(Array.from({ length: 8 }, claim))
    expect(claims.filter((rows) => rows.length === 1)).toHaveLength(1)
  })

  test('an interactive transaction that writes is not stuck behind a group, nor a group behind it', async () => {
    const { handle, file } = await freshDatabase()
    const started = performance.now()
    await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => subscribe(handle, `before.${i}@example.com`)),
      handle.db.transaction(async (tx) => {
        await tx
          .insert(newsletterSubscribers)
          .values({ email: 'inside@example.com', source: 'footer', createdAt: new Date(1_000) })
      }),
      ...Array.from({ length: 5 }, (_, i) => subscribe(handle, `after.${i}@example.com`)),
    ])
    // Well within the busy timeout: nobody waited for a lock this thread held.
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(seenFromOutside(file, 'inside@example.com')).toBe(true)
    expect(await handle.db.$count(newsletterSubscribers)).toBe(11)
  })
})

describe('statements that cannot run in a transaction', () => {
  test('PRAGMA and VACUUM sent while writes are in flight run after their commit, outside any group', async () => {
    const { handle, file } = await freshDatabase()
    const copy = join(dir, `copy-${files}.db`)
    // Sent in this order (a query runs once `then` is called).
    const send = (email: string) => subscribe(handle, email).then(() => undefined)
    await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => send(`vacuum.${i}@example.com`)),
      handle.db.$client.execute({ sql: 'VACUUM INTO ?', args: [copy] }),
      handle.db.$client.execute('PRAGMA wal_checkpoint(PASSIVE)'),
      ...Array.from({ length: 5 }, (_, i) => send(`later.${i}@example.com`)),
    ])
    expect(seenFromOutside(file, 'later.4@example.com')).toBe(true)
    expect(seenFromOutside(copy, 'vacuum.4@example.com')).toBe(true)
  })
})
