// Drill: the real server with WORKERS=2, two processes answering on one port over one database. Both
// answer; payments delivered (and delivered again) through either make exactly one order each; one worker
// killed with SIGKILL while payments arrive is started again by the supervisor and nothing is lost or
// doubled; SIGTERM to the supervisor drains both workers and it exits 0; and workers whose supervisor is
// killed stop by themselves.
import { afterAll, expect, setDefaultTimeout, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { recordDrill } from './support/counts'
import {
  cleanUpShops,
  createShop,
  deliver,
  inParallel,
  paidSessions,
  redeliverAll,
  type Shop,
  shopCounts,
  waitFor,
} from './support/shop'

// Two workers start one after the other on a machine others use too.
setDefaultTimeout(180_000)
afterAll(() => cleanUpShops())

const PAYMENTS = 300

const WORKER_ENV = {
  WORKERS: '2',
  // Each request's log line names its worker: the drill reads who answered.
  LOG_LEVEL: 'info',
  // A dead worker's leases run out quickly, so the drill does not wait a minute for them.
  EVENT_LEASE_SECONDS: '5',
  JOB_LEASE_SECONDS: '5',
  JOB_RETRY_SECONDS: '1',
}

interface LogLine {
  msg?: string
  worker?: number
  pid?: number
  pids?: string
  signal?: string
}

function logLines(shop: Shop): LogLine[] {
  return shop.output.flatMap((line) => {
    try {
      return [JSON.parse(line) as LogLine]
    } catch {
      return []
    }
  })
}

/** The pid each worker last said it was open with. */
function workerPids(shop: Shop): Map<number, number> {
  const pids = new Map<number, number>()
  for (const line of logLines(shop))
    if (line.msg?.startsWith('Grit & Whisker is open') && line.worker && line.pid)
      pids.set(line.worker, line.pid)
  return pids
}

/** Whether the process runs (a zombie, dead but not yet reaped by whoever adopted it, does not). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

test('two workers on one port: both answer, each payment makes one order, a killed worker comes back', async () => {
  const shop = createShop('workers', WORKER_ENV)
  const supervisor = await shop.start()
  expect(await waitFor(async () => workerPids(shop).size === 2, 10_000)).toBe(true)
  const firstPids = workerPids(shop)

  // Both answer: new connections are spread over the two listeners by the kernel.
  await inParallel(
    Array.from({ length: 60 }, (_, i) => i),
    6,
    async () => {
      const res = await fetch(`${shop.base}/api/health`, { headers: { connection: 'close' } })
      expect(res.status).toBe(200)
    },
  )
  const answeredBy = new Set(
    logLines(shop)
      .filter((line) => line.msg === 'request')
      .map((line) => line.worker),
  )
  expect(answeredBy).toEqual(new Set([1, 2]))

  // The provider delivers each payment's event twice at once, then once more, to whichever worker the
  // connection lands on; one of the workers is killed halfway through.
  const sessions = await paidSessions(shop, PAYMENTS, 'workers')
  const payloads = sessions.map((session) => session.payload)
  const doomed = firstPids.get(2) as number
  let answered = 0
  const outcomes = { ok: 0, other: 0 }
  await inParallel([...payloads, ...payloads], 16, async (payload) => {
    const status = await deliver(shop.base, payload)
    answered += 1
    if (answered === PAYMENTS) process.kill(doomed, 'SIGKILL')
    if (status === 200) outcomes.ok += 1
    else outcomes.other += 1
  })
  // The supervisor starts worker 2 again, with a new pid, while worker 1 went on serving.
  expect(await waitFor(async () => workerPids(shop).get(2) !== doomed, 15_000)).toBe(true)
  expect(alive(firstPids.get(1) as number)).toBe(true)
  expect(
    logLines(shop).some((line) => line.msg?.startsWith('a worker stopped unexpectedly') && line.worker === 2),
  ).toBe(true)

  const redelivery = await redeliverAll(shop.base, payloads, { deadlineMs: 60_000 })
  expect(redelivery.undelivered).toBe(0)
  const settled = await waitFor(async () => (await shopCounts(shop)).unfinishedJobs === 0, 60_000)
  const counts = await shopCounts(shop)
  const line = `drill workers: 2 workers, ${PAYMENTS} payments, each event delivered twice at once (${outcomes.ok} of ${PAYMENTS * 2} answered 200) with one worker killed halfway and restarted, then again until answered; ${counts.orders} orders, doubled ${counts.doubledOrders}, lost ${PAYMENTS - counts.orders}`
  console.log(line)
  recordDrill('workers', line)
  expect(settled).toBe(true)
  expect(counts).toMatchObject({
    orders: PAYMENTS,
    doubledOrders: 0,
    labelled: PAYMENTS,
    failedOrders: 0,
    unfinishedJobs: 0,
    labelFiles: PAYMENTS,
  })

  // SIGTERM to the supervisor: both workers drain (not ready, still answering), stop, and it exits 0.
  const pids = [...workerPids(shop).values()]
  supervisor.kill('SIGTERM')
  // Within the drain (a second in the drills), asked as soon as the workers have the signal: a fixed wait
  // could end before a busy machine delivered it, or after the drain.
  let readiness = 200
  for (const deadline = Date.now() + 1_000; readiness !== 503 && Date.now() < deadline; ) {
    readiness = (await fetch(`${shop.base}/api/ready`)).status
    if (readiness !== 503) await Bun.sleep(20)
  }
  expect(readiness).toBe(503)
  expect((await fetch(`${shop.base}/api/health`)).status).toBe(200)
  expect(await supervisor.exited).toBe(0)
  const stopped = logLines(shop).filter((line) => line.msg === 'stopped' && line.signal === 'SIGTERM')
  expect(new Set(stopped.map((line) => line.worker))).toEqual(new Set([1, 2]))
  for (const pid of pids) expect(alive(pid)).toBe(false)
})

test('workers whose supervisor was killed stop by themselves', async () => {
  const shop = createShop('workers-orphaned', WORKER_ENV)
  const supervisor = await shop.start()
  expect(await waitFor(async () => workerPids(shop).size === 2, 10_000)).toBe(true)
  const pids = [...workerPids(shop).values()]
  supervisor.kill('SIGKILL')
  await supervisor.exited
  // Each notices within a second, then drains as on SIGTERM (SHUTDOWN_DRAIN_SECONDS=1 in the drills).
  expect(await waitFor(async () => pids.every((pid) => !alive(pid)), 15_000)).toBe(true)
})
