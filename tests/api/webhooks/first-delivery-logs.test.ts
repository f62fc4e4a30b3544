// What the log says of a paid event's first delivery (docs/decisions/014, amendment): what goes wrong is
// said once, though the event is then handled the usual way (one wrong charge, one error line, one alert),
// and a failure of the first attempt alone, which the usual way then gets past, is said too (else the
// first attempt could fail for every paid event, each costing both ways, without a word).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { captureLog, setLogLevel } from '../../../api/lib/log'
import { webhookEvents } from '../../../db/schema/webhooks'
import { type FakeStripe, startFakeStripe } from '../../fakes/stripe'
import { createSession, fakeStripePayments, getRates, postWebhook, rateFor } from '../checkout/helpers'
import { createTestApp, type TestApp } from '../support/test-app'

const SECRET = 'whsec_first_delivery_logs'
let stripe: FakeStripe
let shop: TestApp

beforeAll(async () => {
  stripe = startFakeStripe()
  shop = await createTestApp({}, (base) => ({
    payments: fakeStripePayments(stripe, base, { publishableKey: 'pk_test_logs', webhookSecret: SECRET }),
  }))
})
afterAll(() => {
  shop.close()
  stripe.stop()
})

async function openSession(email: string): Promise<string> {
  const items = [{ id: 1, quantity: 1 }]
  const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
  return (await createSession(shop, items, rate, { customer_email: email })).sessionId
}

/** The log lines written while `work` runs, parsed. */
async function linesOf(work: () => Promise<unknown>): Promise<{ level: string; msg: string }[]> {
  const lines: string[] = []
  setLogLevel('warn')
  const restore = captureLog((line) => lines.push(line))
  try {
    await work()
  } finally {
    restore()
    setLogLevel('silent')
  }
  return lines.map((line) => JSON.parse(line) as { level: string; msg: string })
}

test('a paid event charged another amount than asked is logged as an error once, not once per attempt', async () => {
  const sessionId = await openSession('amount@example.com')
  const tampered = { ...stripe.complete(sessionId), amount_total: 1 }
  const payload = stripe.event('checkout.session.completed', tampered, 'evt_log_amount')
  const lines = await linesOf(() => postWebhook(shop, payload, SECRET))
  const [row] = await shop.deps.db.select().from(webhookEvents).where(eq(webhookEvents.id, 'evt_log_amount'))
  expect(row).toMatchObject({ status: 'failed', note: 'amount does not match the checkout session' })
  expect(lines.filter((line) => line.level === 'error').map((line) => line.msg)).toEqual([
    'payment amount differs from the checkout session',
  ])
})

test('a first attempt that fails when the usual way does not is said somewhere', async () => {
  // Anything only the first attempt's statement meets (here a trigger refusing an event stored already
  // processed; in life a constraint, a schema drift, a bug in the built-once INSERT).
  await shop.deps.db.run(
    sql.raw(`create trigger refuse_processed_insert before insert on webhook_events when new.status = 'processed'
      begin select raise(abort, 'first attempt refused for this test'); end`),
  )
  try {
    const sessionId = await openSession('silent@example.com')
    const payload = stripe.event('checkout.session.completed', stripe.complete(sessionId), 'evt_log_silent')
    const lines = await linesOf(async () => {
      const res = await postWebhook(shop, payload, SECRET)
      expect(res.status).toBe(200)
    })
    const [row] = await shop.deps.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.id, 'evt_log_silent'))
    expect(row).toMatchObject({ status: 'processed', note: null })
    // The failure of the first attempt is reported: a warning or an error line naming it.
    expect(
      lines.filter(
        (line) => line.level !== 'info' && /refused for this test|first deliver/i.test(JSON.stringify(line)),
      ),
    ).not.toEqual([])
  } finally {
    await shop.deps.db.run(sql.raw('drop trigger refuse_processed_insert'))
  }
})
