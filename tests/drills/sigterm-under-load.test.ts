// Fault drill: SIGTERM while the server is under load: shoppers browsing and quoting, the provider
// delivering payment webhooks, the job runner sending e-mails and buying labels, a load balancer in front
// watching /api/ready, and clients that reach the server directly and never ask /api/ready. The server
// drains (not ready, connections closed after each answer),
// then tells whatever still arrives to come back (503, Retry-After) and stops listening at a quiet moment,
// so no connection is reset: every request is answered or, once the listener is gone, refused before it
// is sent. It exits 0 with no job left half-done; after the next start the provider's redelivery and the
// queued jobs finish everything.
import { afterAll, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { logLines } from '../api/support/log-lines'
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
import { doubledIn, onceEach, outboxMails, tallyShop } from './support/tally'

const PAYMENTS = 150
const WORKERS = 16
/** Clients that do not ask /api/ready: they send until the server refuses the connection. */
const DIRECT = 32

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

/**
 * One request from a client that reaches the server directly: a quote, on the client's kept-alive
 * connection (the way the attack that found the resets sent them). A 503's Retry-After is read.
 */
async function directRequest(base: string): Promise<{ outcome: Outcome; retryAfter: number }> {
  try {
    const res = await fetch(`${base}/api/shipping/rates`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: `http://localhost:${new URL(base).port}`,
        'x-forwarded-for': shopperAddress(),
      },
      body: JSON.stringify({
        address: HOME,
        items: [{ id: 1, quantity: 1, name: 'x', weight: '3.0' }],
        subtotal: '21.00',
      }),
    })
    await res.arrayBuffer()
    return { outcome: res.status, retryAfter: Number(res.headers.get('retry-after') ?? 0) }
  } catch (error) {
    return { outcome: connectionFailure(error), retryAfter: 0 }
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
  // The direct clients: each sends until the connection is refused, and waits as long as a 503 says.
  const direct: Outcome[] = []
  let directStopped = 0
  const directClients = Array.from({ length: DIRECT }, async () => {
    for (;;) {
      const { outcome, retryAfter } = await directRequest(shop.base)
      direct.push(outcome)
      if (outcome === 'refused' || outcome === 'cut') break
      if (outcome === 503) await Bun.sleep(retryAfter * 1000)
    }
    directStopped += 1
  })
  await Promise.all([...load, watcher, ...directClients])
  const exitCode = await server.exited
  const answered = outcomes.filter((o) => typeof o.outcome === 'number')
  const cut = outcomes.filter((o) => o.outcome === 'cut').length
  const refused = outcomes.filter((o) => o.outcome === 'refused').length
  const afterSignal = outcomes.length
  const errors = answered.filter((o) => (o.outcome as number) >= 500).length
  const directCut = direct.filter((o) => o === 'cut').length
  const directRefused = direct.filter((o) => o === 'refused').length
  const directOk = direct.filter((o) => o === 200).length
  const directTold = direct.filter((o) => o === 503).length

  const db = shop.db()
  const jobRows = await db.execute('select status, count(*) as n from jobs group by status')
  const jobsAtStop = Object.fromEntries(jobRows.rows.map((row) => [String(row.status), Number(row.n)]))
  const ordersAtStop = (await shopCounts(shop)).orders
  const log = logLines(shop.output)
  expect(log.some((line) => line.msg === 'stopped' && line.signal === 'SIGTERM')).toBe(true)

  // Next start: the provider delivers every event again, and the queued jobs run.
  await shop.start()
  const redelivery = await redeliverAll(shop.base, payloads)
  const done = await waitFor(async () => (await shopCounts(shop)).unfinishedJobs === 0, 60_000)
  const counts = await shopCounts(shop)
  const emails = readdirSync(join(shop.dir, 'outbox')).filter((name) => name.endsWith('.eml')).length
  // A second charge, e-mail or label for one payment, from the provider's, outbox's and carrier's records.
  const tally = await tallyShop(shop.db(), shop.dir, sessions, outboxMails(shop.dir))
  const doubled = doubledIn(tally)
  const line = `drill sigterm-under-load: ${outcomes.length} requests behind the balancer (${answered.length} answered, ${errors} with 5xx, ${refused} refused, ${cut} cut; the balancer saw 'not ready' ${notReadyAt - signalledAt} ms after SIGTERM); ${direct.length} direct requests (${directOk} answered 200, ${directTold} answered 503 with Retry-After, ${directRefused} refused once the listener closed, ${directCut} cut), exit ${exitCode}, jobs at stop ${JSON.stringify(jobsAtStop)}, ${ordersAtStop} orders at stop; after restart ${PAYMENTS} payments, ${counts.orders} orders, ${emails} e-mails, ${counts.labelFiles} labels, lost ${PAYMENTS - Math.min(counts.orders, counts.labelled, emails)}, doubled ${doubled}`
  console.log(line)
  recordDrill('sigterm-under-load', line)

  expect(exitCode).toBe(0)
  expect(cut).toBe(0)
  expect(directCut).toBe(0)
  expect(directStopped).toBe(DIRECT)
  expect(direct.every((o) => o === 200 || o === 503 || o === 'refused')).toBe(true)
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
  expect(doubled).toBe(0)
  expect(onceEach(tally)).toBe(PAYMENTS)
}, 120_000)
