// A job that runs longer than its lease is still alive: its worker renews the lease, so no other worker
// takes it over and does the work a second time.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { systemClock } from '../../../api/lib/clock'
import { createJobQueue } from '../../../api/modules/jobs/service'
import { createTestApp, type TestApp } from '../support/test-app'

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp()
})
afterAll(() => shop.close())

test('a slow job keeps its lease while it runs; a second worker never takes it', async () => {
  const queue = createJobQueue(shop.deps.db, systemClock, { leaseMs: 3000 })
  await queue.enqueue('slow-send', { n: 1 }, { dedupeKey: 'slow-lease-test' })
  let runs = 0
  const first = queue.runDueJobs({
    'slow-send': async () => {
      runs += 1
      await Bun.sleep(4500)
    },
  })
  // Past the lease: a dead worker's job would be taken now.
  await Bun.sleep(3600)
  const second = await queue.claimNext()
  expect(second).toBeNull()
  expect(await first).toEqual({ ran: 1, failed: 0 })
  expect(runs).toBe(1)
}, 15_000)
