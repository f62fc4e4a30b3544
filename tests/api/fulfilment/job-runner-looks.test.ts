// When the job runner (api/modules/jobs/runner.ts) looks for jobs: at its interval, at once when a job due
// now is queued (or right after the look under way), and never more often than its interval after a look
// failed, however many jobs are queued meanwhile. The queue is a stand-in that counts the looks.
import { expect, test } from 'bun:test'
import { createJobRunner } from '../../../api/modules/jobs/runner'

type Services = Parameters<typeof createJobRunner>[0]

function runnerWithQueue(look: () => Promise<{ ran: number; failed: number }>) {
  let looks = 0
  let toldOfDueJob = () => {}
  const none = () => ({})
  const services = {
    jobs: {
      runDueJobs: () => {
        looks += 1
        return look()
      },
      onDueJob: (listener: () => void) => {
        toldOfDueJob = listener
        return () => {}
      },
    },
    orders: { jobHandlers: none, abandonedJobHandlers: none },
    auth: { jobHandlers: none },
    checkout: { jobHandlers: none, forgetStaleRequests: async () => 0 },
    fulfilment: { jobHandlers: none, abandonedJobHandlers: none },
    webhooks: { sweep: async () => 0 },
    stock: { releaseExpired: async () => 0 },
  } as unknown as Services
  return { runner: createJobRunner(services), looks: () => looks, queued: () => toldOfDueJob() }
}

const nothingDue = async () => ({ ran: 0, failed: 0 })

/** Waits until `looks` have been made: each rule's interval is a minute, so only its wake can bring them. */
async function untilLooks(shop: { looks: () => number }, looks: number): Promise<void> {
  const deadline = performance.now() + 5_000
  while (shop.looks() < looks && performance.now() < deadline) await Bun.sleep(5)
  expect(shop.looks()).toBe(looks)
}

test('a job due now is looked for at once, not at the next interval', async () => {
  const shop = runnerWithQueue(nothingDue)
  const stop = shop.runner.start({ intervalMs: 60_000 })
  try {
    await Bun.sleep(20)
    expect(shop.looks()).toBe(0)
    shop.queued()
    await untilLooks(shop, 1)
  } finally {
    await stop()
  }
})

test('a job queued while a look is under way gets a look right after it', async () => {
  let finishLook = () => {}
  const shop = runnerWithQueue(
    () =>
      new Promise((resolve) => {
        finishLook = () => resolve({ ran: 0, failed: 0 })
      }),
  )
  const stop = shop.runner.start({ intervalMs: 60_000 })
  try {
    shop.queued()
    await untilLooks(shop, 1)
    // Queued while that look runs (it may have passed the job already): told, the runner looks again.
    shop.queued()
    finishLook()
    await untilLooks(shop, 2)
    finishLook()
  } finally {
    await stop()
  }
})

test('after a failed look the next waits the interval, however many jobs are queued meanwhile', async () => {
  const lookedAt: number[] = []
  const shop = runnerWithQueue(async () => {
    lookedAt.push(performance.now())
    throw new Error('disk I/O error')
  })
  const intervalMs = 1_000
  const stop = shop.runner.start({ intervalMs })
  try {
    shop.queued()
    await untilLooks(shop, 1)
    // Jobs queued for a while after the failure: none of them brings a look sooner.
    for (let i = 0; i < 20; i++) {
      shop.queued()
      await Bun.sleep(10)
    }
    await untilLooks(shop, 2)
    // Timed by the looks themselves, so a machine slow to wake the test's sleeps cannot fail it.
    const [first = 0, second = 0] = lookedAt
    expect(second - first).toBeGreaterThanOrEqual(intervalMs - 5)
  } finally {
    await stop()
  }
})
