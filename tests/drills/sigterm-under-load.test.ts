// Fault drill: SIGTERM while the server is under load: shoppers browsing and quoting, the provider
// delivering payment webhooks, the job runner sending e-mails and buying labels, a load balancer in front
// watching /api/ready. The server drains (not ready, connections closed after each answer) before it stops
// listening, so every request sent is answered in full; it exits 0 with no job left half-done; after the
// next start the provider's redelivery and the queued jobs finish everything.
import { afterAll, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { recordDrill } from './support/counts'
import {
  cleanUpShops,
  connectionFailure,
  createShop,
  deliver,
  HOME,
  paidSessions,
  redeliverAll,
  shopCounts,
  shopperAddress,
  waitFor,
} from './support/shop'

const PAYMENTS = 150
const WORKERS = 16

afterAll(() => cleanUpShops())

type Outcome = number | 'refused' | 'cut'

/** One shopper's request on a fresh connection, so a refusal and a cut request cannot be confused. */
async function browse(base: string, n: number): Promise<Outcome> {
  const port = new URL(base).port
  const init: RequestInit & { keepalive: boolean } =
    n % 2 === 0
      ? { method: 'GET', keepalive: false }
      : {
          method: 'POST',
          keepalive: false,
          headers: {
            'content-type': 'application/json',
            origin: `http://localhost:${port}`,
            'x-forwarded-for': shopperAddress(),
          },
          body: JSON.stringify({
            address: HOME,
            items: [{ id: 1 + (n % 3), quantity: 1, name: 'x', weight: '3.0' }],
            subtotal: '21.00',
          }),
        }
  try {
    const res = await fetch(`${base}${n % 2 === 0 ? '/api/products' : '/api/shipping/rates'}`, init)
    await res.arrayBuffer()
    return res.status
  } catch (error) {
    return connectionFailure(error)
  }
}

test('SIGTERM under load: no request cut, the job in hand finished, the rest done after restart', async () => {
  const shop = createShop('sigterm', { JOB_RETRY_SECONDS: '1', LOG_LEVEL: 'info' })
  const server = await shop.start()
  const sessions = await paidSessions(shop, PAYMENTS, 'sigterm')
  const payloads = sessions.map((session) => session.payload)

  // The load balancer in front: it asks /api/ready every 100 ms and sends no new request once the
  // instance says it is not ready (or stops answering). Requests already sent must all be answered.
  let routed = true
  let notReadyAt = 0
  const watcher = (async () => {
    while (routed) {
      try {
        const res = await fetch(`${shop.base}/api/ready`)
        await res.arrayBuffer()
        if (res.status !== 200) routed = false
      } catch {
        routed = false
      }
      if (!routed) notReadyAt = Date.now()
      await Bun.sleep(100)
    }
  })()

  const outcomes: { kind: string; outcome: Outcome }[] = []
  let signalled = false
  let signalledAt = 0
  let next = 0
  const load = Array.from({ length: WORKERS }, async (_, worker) => {
    while (routed) {
      const n = next++
      const webhook = worker < WORKERS / 2 && n < PAYMENTS * 4
      const payload = payloads[n % PAYMENTS] as string
      const outcome = webhook ? await deliver(shop.base, payload) : await browse(shop.base, n)
      outcomes.push({ kind: webhook ? 'webhook' : 'browse', outcome })
      if (!signalled && outcomes.length >= PAYMENTS) {
        signalled = true
        signalledAt = Date.now()
        server.kill('SIGTERM')
      }
    }
  })
  await Promise.all([...load, watcher])
  const exitCode = await server.exited
  const answered = outcomes.filter((o) => typeof o.outcome === 'number')
  const cut = outcomes.filter((o) => o.outcome === 'cut').length
  const refused = outcomes.filter((o) => o.outcome === 'refused').length
  const afterSignal = outcomes.length
  const errors = answered.filter((o) => (o.outcome as number) >= 500).length

  const db = shop.db()
  const jobRows = await db.execute('select status, count(*) as n from jobs group by status')
  const jobsAtStop = Object.fromEntries(jobRows.rows.map((row) => [String(row.status), Number(row.n)]))
  const ordersAtStop = (await shopCounts(shop)).orders
  const log = shop.output.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line))
  expect(log.some((line) => line.msg === 'stopped' && line.signal === 'SIGTERM')).toBe(true)

  // Next start: the provider delivers every event again, and the queued jobs run.
  await shop.start()
  const redelivery = await redeliverAll(shop.base, payloads)
  const done = await waitFor(async () => (await shopCounts(shop)).unfinishedJobs === 0, 60_000)
  const counts = await shopCounts(shop)
  const emails = readdirSync(join(shop.dir, 'outbox')).filter((name) => name.endsWith('.eml')).length
  const line = `drill sigterm-under-load: ${outcomes.length} requests (${answered.length} answered, ${errors} with 5xx, ${refused} refused, ${cut} cut; the balancer saw 'not ready' ${notReadyAt - signalledAt} ms after SIGTERM), exit ${exitCode}, jobs at stop ${JSON.stringify(jobsAtStop)}, ${ordersAtStop} orders at stop; after restart ${PAYMENTS} payments, ${counts.orders} orders, ${emails} e-mails, ${counts.labelFiles} labels, lost ${PAYMENTS - Math.min(counts.orders, counts.labelled, emails)}, doubled ${counts.doubledOrders + (counts.labelFiles - counts.labelled)}`
  console.log(line)
  recordDrill('sigterm-under-load', line)

  expect(exitCode).toBe(0)
  expect(cut).toBe(0)
  expect(errors).toBe(0)
  expect(refused).toBe(0)
  expect(answered.length).toBe(afterSignal)
  // The job in hand finished: nothing is left claimed by the process that stopped.
  expect(jobsAtStop.running ?? 0).toBe(0)
  expect(redelivery.undelivered).toBe(0)
  expect(done).toBe(true)
  expect(counts).toMatchObject({
    orders: PAYMENTS,
    doubledOrders: 0,
    labelled: PAYMENTS,
    labelFiles: PAYMENTS,
  })
  expect(emails).toBe(PAYMENTS)
}, 120_000)
