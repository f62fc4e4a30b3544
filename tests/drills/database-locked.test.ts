// Fault drill: another process holds the database's write lock (BEGIN EXCLUSIVE) while checkouts and
// payment webhooks arrive, all at once, as a burst of shoppers would send them. A lock shorter than the
// shop's 5 s busy timeout is waited out by every request, however many arrive together (each of the pool's
// connections waits, not only the first); a longer one gets a clean 503 with Retry-After. No order is left
// half-written; the provider's redelivery then completes every order, and every customer who was asked to
// try again can.
import { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { recordDrill } from './support/counts'
import {
  cleanUpShops,
  createShop,
  deliver,
  paidSessions,
  post,
  redeliverAll,
  shopCounts,
  waitFor,
} from './support/shop'
import { doubledIn, onceEach, outboxMails, tallyShop } from './support/tally'

/**
 * Each phase: another writer holds the lock `lockMs` while `checkouts` new checkouts and `payments` paid
 * sessions' webhooks arrive at the same moment. The first two are shorter than the busy timeout (4, then
 * 20 parallel checkouts: every one must wait and succeed); the last is longer (requests are told to come
 * back).
 */
const PHASES = [
  { lockMs: 3000, checkouts: 4, payments: 10 },
  { lockMs: 3000, checkouts: 20, payments: 10 },
  { lockMs: 7000, checkouts: 10, payments: 10 },
]
const BUSY_TIMEOUT_MS = 5000
const PAYMENTS = PHASES.reduce((sum, phase) => sum + phase.payments, 0)
const CHECKOUTS = PHASES.reduce((sum, phase) => sum + phase.checkouts, 0)
const LEE = {
  name: 'Lee Ames',
  street1: '4 Oak St',
  city: 'Dayton',
  state: 'OH',
  zip: '45402',
  country: 'US',
}

afterAll(() => cleanUpShops())

test('the database locked by another writer: requests wait or answer 503, never a half-written order', async () => {
  const shop = createShop('database-locked', { EVENT_LEASE_SECONDS: '5', JOB_RETRY_SECONDS: '1' })
  await shop.start()
  // Opening the sessions 8 at a time is load: the shop's database client opens more connections for it.
  const sessions = await paidSessions(shop, PAYMENTS, 'locked')
  const rates = (await (
    await post(shop.base, '/api/shipping/rates', {
      address: LEE,
      items: [{ id: 2, quantity: 1, name: 'Beard balm', weight: '2.0' }],
      subtotal: '18.00',
    })
  ).json()) as { rates: { id: string }[] }
  const rateId = rates.rates[0]?.id ?? 'no rate'
  const checkout = (email: string) =>
    post(shop.base, '/api/create-checkout-session', {
      line_items: [{ product_id: 2, quantity: 1 }],
      customer_email: email,
      shipping_address: LEE,
      shipping_rate: { id: rateId },
    })

  type Answer = {
    kind: string
    email?: string
    status: number | string
    retryAfter: string | null
    ms: number
  }
  const answers: Answer[] = []
  const phases: { lockMs: number; heldMs: number; checkouts: number; answers: Answer[] }[] = []
  let paid = 0
  for (const [phase, { lockMs, checkouts, payments }] of PHASES.entries()) {
    // Another writer takes the lock and keeps it.
    const locker = new Database(join(shop.dir, 'shop.db'))
    // The shop may be writing (its jobs run beside the drill): wait for its commit, as any writer would.
    locker.exec('PRAGMA busy_timeout = 10000')
    locker.exec('BEGIN EXCLUSIVE')
    const lockedAt = Date.now()
    const release = Bun.sleep(lockMs).then(() => locker.exec('COMMIT'))
    const work = [
      ...sessions.slice(paid, paid + payments).map((session) => ({ session })),
      ...Array.from({ length: checkouts }, (_, i) => ({
        email: `locked.checkout.${phase}.${i}@example.com`,
      })),
    ]
    paid += payments
    // Every request of the phase at once.
    const seen = await Promise.all(
      work.map(async (item): Promise<Answer> => {
        const sent = Date.now()
        let retryAfter: string | null = null
        const status =
          'session' in item
            ? await deliver(shop.base, item.session.payload, (res) => {
                retryAfter = res.headers.get('retry-after')
              })
            : await checkout(item.email).then(async (res) => {
                await res.arrayBuffer()
                retryAfter = res.headers.get('retry-after')
                return res.status
              })
        return 'session' in item
          ? { kind: 'webhook', status, retryAfter, ms: Date.now() - sent }
          : { kind: 'checkout', email: item.email, status, retryAfter, ms: Date.now() - sent }
      }),
    )
    await release
    locker.close()
    phases.push({ lockMs, heldMs: Date.now() - lockedAt, checkouts, answers: seen })
    answers.push(...seen)
  }
  if (process.env.DRILL_DEBUG) console.log(JSON.stringify(phases))

  // Every answer is a success or a clean 503 that says when to come back.
  const statuses = answers.map((answer) => answer.status)
  expect(statuses.every((status) => status === 200 || status === 503)).toBe(true)
  for (const answer of answers.filter((a) => a.status === 503)) {
    expect(Number(answer.retryAfter)).toBeGreaterThan(0)
  }
  // No half-written order: each has its lines, its two jobs and a completed checkout session.
  const db = shop.db()
  const partial = await db.execute(`select o.id from orders o
    where not exists (select 1 from order_lines l where l.order_id = o.id)
       or (select count(*) from jobs j where j.dedupe_key in
            ('order-confirmation:' || o.checkout_session_id, 'purchase-label:' || o.checkout_session_id)) < 2
       or not exists (select 1 from checkout_sessions c where c.id = o.checkout_session_id and c.status = 'complete')`)
  expect(partial.rows).toEqual([])

  // The provider delivers again whatever was not acknowledged; customers told 503 press Pay again.
  const redelivery = await redeliverAll(
    shop.base,
    sessions.map((session) => session.payload),
  )
  expect(redelivery.undelivered).toBe(0)
  const askedAgain = answers.filter((a) => a.kind === 'checkout' && a.status !== 200)
  const again = await Promise.all(askedAgain.map(async (a) => (await checkout(a.email ?? '')).status))
  expect(again).toEqual(askedAgain.map(() => 200))
  const done = await waitFor(async () => (await shopCounts(shop)).unfinishedJobs === 0, 30_000)
  const counts = await shopCounts(shop)
  const describe = ({ heldMs, checkouts, answers: list }: (typeof phases)[number]) => {
    const ok = list.filter((a) => a.status === 200)
    const refused = list.filter((a) => a.status === 503).length
    const other = list.length - ok.length - refused
    return `${(heldMs / 1000).toFixed(1)} s lock, ${list.length} requests at once (${checkouts} checkouts): ${ok.length} answered 200 (${ok.filter((a) => a.ms > 1000).length} after waiting over 1 s), ${refused} answered 503 with Retry-After, ${other} other`
  }
  const lost = PAYMENTS - counts.orders
  // A second charge, e-mail or label for one payment, from the provider's, outbox's and carrier's records.
  const tally = await tallyShop(shop.db(), shop.dir, sessions, outboxMails(shop.dir))
  const doubled = doubledIn(tally)
  const line = `drill database-locked: ${PAYMENTS} payments and ${CHECKOUTS} checkouts under another writer's exclusive lock; ${phases.map(describe).join('; ')}; 0 half-written orders; ${counts.orders} orders after redelivery, lost ${lost}, doubled ${doubled}`
  console.log(line)
  recordDrill('database-locked', line)
  // A lock shorter than the busy timeout is waited out: every request then succeeds, however many came.
  for (const [phase, { lockMs, answers: list }] of phases.entries()) {
    if (lockMs >= BUSY_TIMEOUT_MS) continue
    expect({ phase, statuses: list.map((a) => a.status) }).toEqual({ phase, statuses: list.map(() => 200) })
  }
  // Jobs left unfinished are named (type, status, attempts, last error), so a failure says which and why.
  const unfinished = done
    ? []
    : (
        await shop
          .db()
          .execute("select type, status, attempts, last_error, run_at from jobs where status != 'done'")
      ).rows
  expect({ done, unfinished }).toEqual({ done: true, unfinished: [] })
  expect(counts).toMatchObject({ orders: PAYMENTS, doubledOrders: 0, labelled: PAYMENTS, unfinishedJobs: 0 })
  expect(doubled).toBe(0)
  expect(onceEach(tally)).toBe(PAYMENTS)
}, 120_000)
