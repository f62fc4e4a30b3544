// The job runner beside requests (api/modules/jobs/pace.ts): while requests keep arriving it claims one
// job per gap, and still gets through every job; a paid order's e-mail and label are never starved.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { REQUESTS_FIRST_GAP_MS } from '../../../api/modules/jobs/pace'
import { createJobRunner } from '../../../api/modules/jobs/runner'
import { createSession, getRates, payDemo, rateFor } from '../checkout/helpers'
import { createTestApp, type TestApp } from '../support/test-app'

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
})
afterAll(() => shop.close())

const waiting = async () =>
  Number(
    (
      await shop.deps.db.all<{ n: number }>(
        sql`select count(*) as n from jobs where status in ('queued', 'running')`,
      )
    )[0]?.n ?? 0,
  )

test('while requests keep arriving, every job still runs, one per gap', async () => {
  const items = [{ id: 4, quantity: 1 }]
  for (let i = 0; i < 3; i++) {
    const from = { 'x-forwarded-for': `203.0.113.${i + 1}` }
    const rate = rateFor(await getRates(shop, items, undefined, {}, from), 'USPS Ground Advantage')
    const { sessionId } = await createSession(
      shop,
      items,
      rate,
      { customer_email: `rush.${i}@example.com` },
      from,
    )
    expect((await payDemo(shop, sessionId, from)).status).toBe(200)
  }
  // Three paid orders: a confirmation e-mail and a label each.
  const queued = await waiting()
  expect(queued).toBe(6)

  const started = performance.now()
  const stop = createJobRunner(shop.services).start({ intervalMs: 10, busy: () => true })
  const until = performance.now() + 10_000
  while ((await waiting()) > 0 && performance.now() < until) await Bun.sleep(10)
  const elapsed = performance.now() - started
  await stop()

  expect(await waiting()).toBe(0)
  // Six claims, the first after the runner's first interval, then a gap before each of the other five.
  expect(elapsed).toBeGreaterThanOrEqual(5 * REQUESTS_FIRST_GAP_MS)
})

test('a job due now runs when it is queued, not at the runner’s next look', async () => {
  const stop = createJobRunner(shop.services).start({ intervalMs: 60_000, busy: () => false })
  try {
    const items = [{ id: 4, quantity: 1 }]
    const from = { 'x-forwarded-for': '203.0.113.20' }
    const rate = rateFor(await getRates(shop, items, undefined, {}, from), 'USPS Ground Advantage')
    const { sessionId } = await createSession(
      shop,
      items,
      rate,
      { customer_email: 'at.once@example.com' },
      from,
    )
    expect((await payDemo(shop, sessionId, from)).status).toBe(200)

    // The runner's next look is a minute away: the paid order's e-mail and label run well before it.
    const until = performance.now() + 5_000
    while ((await waiting()) > 0 && performance.now() < until) await Bun.sleep(10)
    expect(await waiting()).toBe(0)
  } finally {
    await stop()
  }
})
