// A paid event's first delivery under another process's write lock (docs/decisions/014, amendment): a write
// waits the busy timeout for the lock, then the request is answered 503 (db/client.ts), once, not once per
// attempt; the wait is on the process's one thread, so nothing else is served meanwhile. An event stored
// after such a wait records the time it took, the wait included.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { webhookEvents } from '../../../db/schema/webhooks'
import { type FakeStripe, startFakeStripe } from '../../fakes/stripe'
import { createSession, fakeStripePayments, getRates, postWebhook, rateFor } from '../checkout/helpers'
import { createTestApp, type TestApp } from '../support/test-app'
import { lockFor } from '../support/write-lock'

const SECRET = 'whsec_first_delivery_busy'
const BUSY_MS = 400

let stripe: FakeStripe
let shop: TestApp

beforeAll(async () => {
  stripe = startFakeStripe()
  shop = await createTestApp(
    {},
    (base) => ({
      payments: fakeStripePayments(stripe, base, {
        publishableKey: 'pk_test_first_delivery',
        webhookSecret: SECRET,
      }),
    }),
    { busyTimeoutMs: BUSY_MS },
  )
})
afterAll(() => {
  shop.close()
  stripe.stop()
})

async function paidSession(): Promise<string> {
  const items = [{ id: 1, quantity: 1 }]
  const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
  const { sessionId } = await createSession(shop, items, rate, { customer_email: 'busy@example.com' })
  return sessionId
}

/** The longest time the event loop went without running a timer while `work` ran. */
async function longestStall<T>(
  work: () => Promise<T>,
): Promise<{ result: T; stallMs: number; tookMs: number }> {
  let last = performance.now()
  let stallMs = 0
  const timer = setInterval(() => {
    const now = performance.now()
    stallMs = Math.max(stallMs, now - last)
    last = now
  }, 5)
  const started = performance.now()
  try {
    const result = await work()
    const now = performance.now()
    stallMs = Math.max(stallMs, now - last)
    return { result, stallMs, tookMs: now - started }
  } finally {
    clearInterval(timer)
  }
}

test('a paid first delivery under a lock longer than the busy timeout is answered 503 after one busy timeout, not two', async () => {
  const sessionId = await paidSession()
  const payload = stripe.event('checkout.session.completed', stripe.complete(sessionId), 'evt_busy_long')
  const file = shop.deps.config.databaseUrl.slice('file:'.length)
  const { released } = await lockFor(file, BUSY_MS * 5)
  const { result: res, stallMs, tookMs } = await longestStall(() => postWebhook(shop, payload, SECRET))
  await released
  expect(res.status).toBe(503)
  // One busy timeout (plus slack), as every other write waits: the thread is not held for two in a row.
  const limit = BUSY_MS * 1.6
  const measured = { tookMs: Math.round(tookMs), stallMs: Math.round(stallMs) }
  expect({ ...measured, within: tookMs < limit && stallMs < limit }).toEqual({ ...measured, within: true })
})

test('an event whose delivery waited for a lock records the time it took, as before', async () => {
  const sessionId = await paidSession()
  const payload = stripe.event('checkout.session.completed', stripe.complete(sessionId), 'evt_busy_short')
  const file = shop.deps.config.databaseUrl.slice('file:'.length)
  // Shorter than the busy timeout: the delivery waits for the lock and then succeeds.
  const { released } = await lockFor(file, Math.round(BUSY_MS / 2))
  const started = performance.now()
  const res = await postWebhook(shop, payload, SECRET)
  const tookMs = performance.now() - started
  await released
  expect(res.status).toBe(200)
  const [row] = await shop.deps.db.select().from(webhookEvents).where(eq(webhookEvents.id, 'evt_busy_short'))
  // The dashboard's processing time (GET /api/webhooks) is how long the event was being handled, the wait
  // for the database included.
  expect({ tookMs: Math.round(tookMs), processingTimeMs: row?.processingTimeMs }).toMatchObject({
    processingTimeMs: expect.any(Number),
  })
  expect(row?.processingTimeMs ?? 0).toBeGreaterThanOrEqual(Math.round(tookMs * 0.5))
})
