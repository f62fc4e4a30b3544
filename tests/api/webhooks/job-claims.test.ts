// Which job a worker claims next: the earliest due of all, whether queued or left running by a worker that
// died, found through the jobs_due_idx index in order, so a backlog of thousands does not make each claim
// read and sort them all (docs/architecture.md#background-jobs).

import { afterEach, beforeEach, expect, test } from 'bun:test'
import { fixedClock } from '../../../api/lib/clock'
import { createJobQueue } from '../../../api/modules/jobs/service'
import { planOfSent } from '../support/query-plan'
import { createTestApp, type TestApp } from '../support/test-app'

let shop: TestApp
beforeEach(async () => {
  shop = await createTestApp()
})
afterEach(() => shop.close())

test('jobs are claimed by when they were due, a dead worker’s among the queued ones', async () => {
  const clock = fixedClock(new Date('2026-03-02T15:00:00Z'))
  const queue = createJobQueue(shop.deps.db, clock, { leaseMs: 60_000 })
  await queue.enqueue('first', {}, { dedupeKey: 'claims-first' })
  // Its worker dies: nothing completes it.
  expect((await queue.claimNext())?.type).toBe('first')
  clock.advance(10_000)
  await queue.enqueue('second', {}, { dedupeKey: 'claims-second' })
  await queue.enqueue(
    'later',
    {},
    { dedupeKey: 'claims-later', runAt: new Date(clock.now().getTime() + 120_000) },
  )
  clock.advance(10_000)
  await queue.enqueue('third', {}, { dedupeKey: 'claims-third' })
  // The dead worker's job is still leased: the queued ones come first, in order.
  const done = async (type: string, attempts = 1) => {
    const job = await queue.claimNext()
    expect(job).toMatchObject({ type, attempts })
    if (job) await queue.complete(job)
  }
  await done('second')
  // Past its lease, the abandoned job was due before the third.
  clock.advance(50_000)
  await done('first', 2)
  await done('third')
  // 'later' is due 130 s after the first.
  expect(await queue.claimNext()).toBeNull()
  clock.advance(60_000)
  await done('later')
  expect(await queue.claimNext()).toBeNull()
})

test('a claim finds the first due job of each kind in jobs_due_idx and sorts at most those two', async () => {
  const plan = await planOfSent(shop, 'update "jobs"', async () => {
    expect(await createJobQueue(shop.deps.db, shop.clock).claimNext()).toBeNull()
  })
  expect(plan).not.toContain('MULTI-INDEX OR')
  expect(plan.filter((line) => line.startsWith('SEARCH "jobs"') || line.startsWith('SEARCH jobs'))).toEqual([
    'SEARCH jobs USING INTEGER PRIMARY KEY (rowid=?)',
    'SEARCH jobs USING COVERING INDEX jobs_due_idx (status=? AND run_at<?)',
    'SEARCH jobs USING INDEX jobs_due_idx (status=?)',
  ])
  // The one sort is of the two candidates, outside both searches.
  expect(plan.filter((line) => line.includes('TEMP B-TREE'))).toEqual(['USE TEMP B-TREE FOR ORDER BY'])
  expect(plan.at(-1)).toBe('USE TEMP B-TREE FOR ORDER BY')
})
