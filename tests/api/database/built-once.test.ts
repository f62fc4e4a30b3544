// Statements whose SQL drizzle builds once (api/lib/statements.ts, builtOnce): each use fills the prepared
// statement's placeholders, alone or in a batch beside statements built as usual, and reads its result as
// drizzle would.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq, type SQL, sql } from 'drizzle-orm'
import { systemClock } from '../../../api/lib/clock'
import {
  builtOnce,
  commitTogether,
  perSql,
  perSqlPair,
  placeholders,
  runTogether,
} from '../../../api/lib/statements'
import { createJobQueue } from '../../../api/modules/jobs/service'
import { openDatabase } from '../../../db/client'
import { jobs as jobTable, newsletterSubscribers } from '../../../db/schema'

const dir = mkdtempSync(join(tmpdir(), 'shop-built-once-'))
const handle = await openDatabase(`file:${join(dir, 'shop.db')}`)
const { db } = handle
afterAll(() => {
  handle.close()
  rmSync(dir, { recursive: true, force: true })
})

let builds = 0
const subscribe = builtOnce<{ email: string; source: string; createdAt: Date }>(() => {
  builds += 1
  return db
    .insert(newsletterSubscribers)
    .values(placeholders(['email', 'source', 'createdAt'] as const))
    .onConflictDoNothing()
})
const renamed = builtOnce<{ from: string; to: string }>(() =>
  db
    .update(newsletterSubscribers)
    .set({ email: sql`${sql.placeholder('to')}` })
    .where(eq(newsletterSubscribers.email, sql.placeholder('from')))
    .returning({ id: newsletterSubscribers.id, email: newsletterSubscribers.email }),
)

const rowOf = async (email: string) =>
  (await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)))[0]

describe('a statement built once', () => {
  test('is built on first use only, and each use carries its own values (dates as the column stores them)', async () => {
    await runTogether(db, [
      subscribe.with({ email: 'one@example.com', source: 'footer', createdAt: new Date(1_000) }),
      subscribe.with({ email: 'two@example.com', source: 'home', createdAt: new Date(2_000) }),
    ])
    await subscribe.run({ email: 'three@example.com', source: 'shop', createdAt: new Date(3_000) })
    expect(builds).toBe(1)
    expect(await rowOf('two@example.com')).toMatchObject({ source: 'home', createdAt: new Date(2_000) })
    expect(await rowOf('three@example.com')).toMatchObject({ source: 'shop', createdAt: new Date(3_000) })
  })

  test('runs in one transaction with statements built as usual, and its result reads as drizzle reads it', async () => {
    const moved = await commitTogether(
      db,
      [
        db
          .insert(newsletterSubscribers)
          .values({ email: 'four@example.com', source: 'footer', createdAt: new Date(4_000) }),
      ],
      renamed.with({ from: 'four@example.com', to: 'four.b@example.com' }),
    )
    expect(moved as unknown).toEqual([{ id: expect.any(Number), email: 'four.b@example.com' }])
    expect(await rowOf('four@example.com')).toBeUndefined()
  })

  test('a failing statement undoes the whole batch it ran in', async () => {
    await expect(
      runTogether(db, [
        subscribe.with({ email: 'five@example.com', source: 'footer', createdAt: new Date(5_000) }),
        renamed.with({ from: 'one@example.com', to: 'two@example.com' }),
      ]),
    ).rejects.toThrow()
    expect(await rowOf('five@example.com')).toBeUndefined()
    expect(await rowOf('one@example.com')).toBeDefined()
  })

  test('awaited on its own instead of run in a batch, it fails: nothing passes for a write done', async () => {
    const statement = subscribe.with({
      email: 'eight@example.com',
      source: 'footer',
      createdAt: new Date(8_000),
    })
    await expect((async () => await statement)()).rejects.toThrow('runs in one (runTogether, commitTogether)')
    expect(await rowOf('eight@example.com')).toBeUndefined()
  })

  test('a value left out is an error when it runs, not a NULL written', async () => {
    const incomplete = subscribe.with({ email: 'six@example.com', source: 'footer' } as never)
    await expect(runTogether(db, [incomplete])).rejects.toThrow(
      'No value for placeholder "createdAt" was provided',
    )
    expect(await rowOf('six@example.com')).toBeUndefined()
  })

  test("the transaction's shared values fill what each statement left, in statements built as usual too", async () => {
    const subscriber = sql<number>`(select ${newsletterSubscribers.id} from ${newsletterSubscribers}
      where ${newsletterSubscribers.email} = ${sql.placeholder('subscriber')})`
    const renamedById = builtOnce<{ to: string }, [SQL<number>]>((id) =>
      db
        .update(newsletterSubscribers)
        .set({ email: sql`${sql.placeholder('to')}` })
        .where(sql`${newsletterSubscribers.id} = ${id}`),
    )
    await runTogether(
      db,
      [
        db
          .insert(newsletterSubscribers)
          .values({ email: 'seven@example.com', source: 'footer', createdAt: new Date(7_000) }),
        renamedById.with({ to: 'seven.b@example.com' }, subscriber),
        db
          .update(newsletterSubscribers)
          .set({ source: 'home' })
          .where(sql`${newsletterSubscribers.email} = ${sql.placeholder('renamed')}`),
      ],
      { subscriber: 'seven@example.com', renamed: 'seven.b@example.com' },
    )
    expect(await rowOf('seven.b@example.com')).toMatchObject({ source: 'home' })
    // Other SQL than it was built with is refused, not silently replaced by the first.
    expect(() => renamedById.with({ to: 'x@example.com' }, sql<number>`1`)).toThrow(
      'a statement built once was given other SQL than it was built with',
    )
  })
})

describe('a job queued on a condition with placeholders (`whenValues`)', () => {
  const jobs = createJobQueue(db, systemClock)
  // One SQL object, as the first-order expiry's condition is: whether a subscriber with this e-mail exists.
  const subscribed = sql`exists (select 1 from ${newsletterSubscribers}
    where ${newsletterSubscribers.email} = ${sql.placeholder('subscriber')})`
  const queued = async (dedupeKey: string) =>
    (await db.select().from(jobTable).where(eq(jobTable.dedupeKey, dedupeKey)))[0]

  test('is queued only where its condition holds, each use with its own values', async () => {
    await runTogether(db, [
      subscribe.with({ email: 'kept@example.com', source: 'footer', createdAt: new Date() }),
    ])
    const enqueue = (subscriber: string, dedupeKey: string) =>
      jobs.enqueueQuery(
        'test-job',
        { subscriber },
        { dedupeKey, when: subscribed, whenValues: { subscriber } },
      )
    await runTogether(db, [enqueue('kept@example.com', 'job-kept'), enqueue('gone@example.com', 'job-gone')])
    expect(await queued('job-kept')).toMatchObject({
      type: 'test-job',
      payload: JSON.stringify({ subscriber: 'kept@example.com' }),
      status: 'queued',
    })
    expect(await queued('job-gone')).toBeUndefined()
  })

  test("is refused where the condition's placeholders could not be filled", () => {
    expect(() =>
      jobs.enqueueQuery('test-job', sql`'{}'`, {
        when: subscribed,
        whenValues: { subscriber: 'x@example.com' },
      }),
    ).toThrow('whenValues go with a JSON payload and a text dedupe key')
    // A placeholder named like one of the job's own values would be filled with the job's.
    const named = sql`exists (select 1 from ${newsletterSubscribers} where ${newsletterSubscribers.email} = ${sql.placeholder('type')})`
    expect(() =>
      jobs.enqueueQuery('test-job', {}, { when: named, whenValues: { type: 'x@example.com' } }),
    ).toThrow('the condition\'s placeholder "type" is the job\'s own')
  })
})

describe('perSql and perSqlPair', () => {
  test('make once per SQL object (or pair), and again for another object of the same text', () => {
    let made = 0
    const one = perSql((fragment) => ({ fragment, n: ++made }))
    const order = sql`(select 1)`
    expect(one(order)).toBe(one(order))
    expect(one(sql`(select 1)`)).not.toBe(one(order))
    expect(made).toBe(2)

    const pair = perSqlPair((first, second) => [first, second])
    const when = sql`1`
    expect(pair(order, when)).toBe(pair(order, when))
    expect(pair(order, sql`1`)).not.toBe(pair(order, when))
    expect(pair(order, when)).toEqual([order, when])
  })
})
