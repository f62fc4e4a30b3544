// A job that runs longer than its lease is still alive: its worker renews the lease, so no other worker
// takes it over and does the work a second time. Time is the test's clock: it moves past the lease while
// the job runs, and the renewals it brings are written before the second worker looks.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { fixedClock } from '../../../api/lib/clock'
import { createJobQueue } from '../../../api/modules/jobs/service'
import { createTestApp, type TestApp } from '../support/test-app'

let shop: TestApp
beforeEach(async () => {
  shop = await createTestApp()
})
afterEach(() => shop.close())

test('a slow job keeps its lease while it runs; a second worker never takes it', async () => {
  const clock = fixedClock(new Date('2026-03-02T15:00:00Z'))
  const queue = createJobQueue(shop.deps.db, clock, { leaseMs: 3000 })
  await queue.enqueue('slow-send', { n: 1 }, { dedupeKey: 'slow-lease-test' })
  let runs = 0
  let started = () => {}
  const running = new Promise<void>((resolve) => {
    started = resolve
  })
  let finish = () => {}
  const first = queue.runDueJobs({
    'slow-send': async () => {
      runs += 1
      started()
      await new Promise<void>((resolve) => {
        finish = resolve
      })
    },
  })
  await running

  // Past the lease: a dead worker's job would be taken now.
  clock.advance(3600)
  await clock.settle()
  expect(await queue.claimNext()).toBeNull()

  finish()
  expect(await first).toEqual({ ran: 1, failed: 0 })
  expect(runs).toBe(1)
})

test('without the renewals the same job is taken once its lease has passed', async () => {
  // The check above is worth something only if a lease that is not renewed does run out.
  const clock = fixedClock(new Date('2026-03-02T15:00:00Z'))
  const queue = createJobQueue(shop.deps.db, clock, { leaseMs: 3000 })
  await queue.enqueue('abandoned-send', { n: 2 }, { dedupeKey: 'abandoned-lease-test' })
  const claimed = await queue.claimNext()
  expect(claimed?.type).toBe('abandoned-send')
  clock.advance(3600)
  expect((await queue.claimNext())?.id).toBe(claimed?.id)
})
