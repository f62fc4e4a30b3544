import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { DEMO_WEBHOOK_SECRET } from '../../../api/adapters/demo-payments'
import type { ShippingProvider } from '../../../api/adapters/types'
import { captureLog, setLogLevel } from '../../../api/lib/log'
import { backoffMs, createJobQueue } from '../../../api/modules/jobs/service'
import { jobs } from '../../../db/schema/jobs'
import { orders } from '../../../db/schema/orders'
import { createSession, getRates, postWebhook, rateFor } from '../checkout/helpers'
import { memoryMailer, orderRow, paidOrder, payForOrder, switchableCarrier } from '../support/orders'
import { createTestApp, type TestApp } from '../support/test-app'

const outbox = memoryMailer()
const sent = outbox.sent

let shop: TestApp
let carrier: ReturnType<typeof switchableCarrier>

beforeAll(async () => {
  shop = await createTestApp({}, (base) => {
    carrier = switchableCarrier(base.shipping, { failing: true, reason: 'carrier is down' })
    return { shipping: carrier.provider, mailer: outbox }
  })
})
afterAll(() => shop.close())

describe('label purchase', () => {
  test('a failing carrier is retried with growing back-off, then the order is marked failed', async () => {
    const id = await paidOrder(shop)
    carrier.state.failing = true
    const waits: number[] = []
    for (let attempt = 1; attempt <= 8; attempt++) {
      await shop.runDueJobs()
      const [job] = await shop.deps.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `purchase-label:${(await orderRow(shop, id))?.checkoutSessionId}`))
      expect(job?.attempts).toBe(attempt)
      expect(job?.lastError).toBe('carrier is down')
      if (attempt < 8) {
        expect(job?.status).toBe('queued')
        expect((await orderRow(shop, id))?.status).toBe('processing')
        const wait = (job?.runAt ?? 0) - shop.clock.now().getTime()
        waits.push(wait)
        // Nothing runs before its time.
        expect((await shop.runDueJobs()).ran).toBe(0)
        shop.clock.advance(wait)
      } else {
        expect(job?.status).toBe('failed')
      }
    }
    expect(waits).toEqual([1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffMs(attempt)))
    expect(waits[0]).toBe(30_000)
    expect(await orderRow(shop, id)).toMatchObject({ status: 'failed', failureReason: 'carrier is down' })
    expect(carrier.state.bought).toHaveLength(0)

    // Staff retry: one label, however many times Retry is pressed.
    carrier.state.failing = false
    const orders = shop.services.orders
    expect(await Promise.all([orders.retry(id), orders.retry(id)])).toEqual(
      expect.arrayContaining([true, false]),
    )
    await shop.runDueJobs()
    await shop.runDueJobs()
    const reference = `${String(id).padStart(6, '0')}-${(await orderRow(shop, id))?.uid}`
    expect(carrier.state.bought.filter((label) => label.reference === reference)).toHaveLength(1)
    expect(await orderRow(shop, id)).toMatchObject({ status: 'label_created', failureReason: null })
    expect(await orders.retry(id)).toBe(false)
  })

  test('two workers running at once buy one label', async () => {
    carrier.state.failing = false
    const id = await paidOrder(shop)
    const before = carrier.state.bought.length
    await Promise.all([shop.runDueJobs(), shop.runDueJobs(), shop.runDueJobs()])
    expect(carrier.state.bought.length - before).toBe(1)
    expect((await orderRow(shop, id))?.status).toBe('label_created')
    const mails = sent.filter((mail) => mail.subject.endsWith(String(id).padStart(6, '0')))
    expect(mails).toHaveLength(1)
  })
})

describe('label purchase survives a crash at any point', () => {
  /** The built-in carrier, counting what it sells; `afterPurchase` runs once a label is bought. */
  function countingCarrier(real: ShippingProvider) {
    const state = {
      purchases: [] as string[],
      afterPurchase: null as null | ((reference: string) => Promise<void>),
    }
    const provider: ShippingProvider = {
      name: real.name,
      quoteRates: (parcel, address) => real.quoteRates(parcel, address),
      findLabel: (reference) => real.findLabel(reference),
      voidLabel: (label) => real.voidLabel(label),
      forgetAddress: (reference) => real.forgetAddress(reference),
      async buyLabel(request) {
        const label = await real.buyLabel(request)
        state.purchases.push(request.reference)
        const after = state.afterPurchase
        state.afterPurchase = null
        await after?.(request.reference)
        return label
      },
    }
    return { provider, state }
  }

  let crashy: TestApp
  let counting: ReturnType<typeof countingCarrier>
  beforeAll(async () => {
    crashy = await createTestApp({}, (base) => {
      counting = countingCarrier(base.shipping)
      return { shipping: counting.provider, mailer: outbox }
    })
  })
  afterAll(() => crashy.close())

  const paid = () =>
    payForOrder(crashy, { items: [{ id: 3, quantity: 2 }], service: 'USPS Ground Advantage' })

  test('the process dies right after the carrier sold the label: the next worker keeps that label', async () => {
    const { id, sessionId } = await paid()
    const reference = `${String(id).padStart(6, '0')}-${(await orderRow(crashy, id))?.uid}`
    const queue = createJobQueue(crashy.deps.db, crashy.clock)
    // Run the confirmation e-mail first, so the label job is the one a worker claims.
    crashy.clock.advance(1)
    const service = crashy.services.orders
    let job = await queue.claimNext()
    while (job && job.type !== 'purchase-label') {
      await service
        .jobHandlers()
        [job.type]?.(JSON.parse(job.payload), { job, attempt: 1, lastAttempt: false })
      await queue.complete(job)
      job = await queue.claimNext()
    }
    if (!job) throw new Error('no label job')

    // The worker buys the label, then its process dies before writing anything down: the job stays
    // claimed, the order stays in processing with the purchase reference recorded.
    counting.state.afterPurchase = async () => {
      throw new Error('killed')
    }
    await expect(service.purchaseLabel(id, { lastAttempt: false })).rejects.toThrow('killed')
    expect(counting.state.purchases.filter((r) => r === reference)).toHaveLength(1)
    expect(await crashy.deps.db.select().from(orders).where(eq(orders.id, id))).toMatchObject([
      { status: 'processing', labelReference: reference, shippoTrackingNumber: null },
    ])

    // Another worker takes the job once the dead one's lease has passed.
    crashy.clock.advance(5 * 60 * 1000 + 1)
    await crashy.runDueJobs()
    expect(counting.state.purchases.filter((r) => r === reference)).toHaveLength(1)
    const [order] = await crashy.deps.db.select().from(orders).where(eq(orders.id, id))
    expect(order?.status).toBe('label_created')
    const file = readdirSync(join(crashy.deps.config.dataDir, 'labels')).filter((name) =>
      name.startsWith(`order-${reference}-`),
    )
    expect(file).toEqual([`order-${reference}-${order?.shippoTrackingNumber}.pdf`])
    const [done] = await crashy.deps.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `purchase-label:${sessionId}`))
    expect(done).toMatchObject({ status: 'done', attempts: 2 })
  })

  test("the worker dies on the label job's last attempt: the job ends failed, the order waits for staff, Retry keeps the label", async () => {
    const { id, sessionId } = await paid()
    const reference = `${String(id).padStart(6, '0')}-${(await orderRow(crashy, id))?.uid}`
    const key = `purchase-label:${sessionId}`
    // One attempt left: the next claim is the last one.
    await crashy.deps.db.update(jobs).set({ attempts: 7 }).where(eq(jobs.dedupeKey, key))
    const queue = createJobQueue(crashy.deps.db, crashy.clock)
    crashy.clock.advance(1)
    let job = await queue.claimNext()
    while (job && job.type !== 'purchase-label') {
      await queue.complete(job)
      job = await queue.claimNext()
    }
    expect(job).toMatchObject({ type: 'purchase-label', attempts: 8, maxAttempts: 8 })
    // The last attempt buys the label, then its process dies before anything is written down.
    counting.state.afterPurchase = async () => {
      throw new Error('killed')
    }
    // (lastAttempt false: a killed process writes nothing, not even the failure a last attempt would.)
    await expect(crashy.services.orders.purchaseLabel(id, { lastAttempt: false })).rejects.toThrow('killed')
    const bought = counting.state.purchases.filter((r) => r === reference).length

    // The lease passes. The job does not run a ninth time: it ends failed, and says why.
    crashy.clock.advance(5 * 60 * 1000 + 1)
    const lines: string[] = []
    setLogLevel('warn')
    const restoreLog = captureLog((line) => lines.push(line))
    try {
      await crashy.runDueJobs()
    } finally {
      restoreLog()
      setLogLevel('silent')
    }
    expect(counting.state.purchases.filter((r) => r === reference)).toHaveLength(bought)
    const [row] = await crashy.deps.db.select().from(jobs).where(eq(jobs.dedupeKey, key))
    expect(row).toMatchObject({ status: 'failed', attempts: 8, lockedUntil: null })
    expect(row?.lastError).toMatch(/stopped .*last attempt/)
    const failedLine = lines.map((line) => JSON.parse(line)).find((line) => line.msg === 'job failed')
    expect(failedLine).toMatchObject({ job: row?.id, type: 'purchase-label', final: true })

    // Staff see it as a failed label, as after any last attempt that failed.
    const order = await orderRow(crashy, id)
    expect(order).toMatchObject({ status: 'failed' })
    expect(order?.failureReason).toMatch(/stopped .*last attempt/)

    // Retry finds the label the dead worker bought instead of buying another.
    expect(await crashy.services.orders.retry(id)).toBe(true)
    await crashy.runDueJobs()
    expect(counting.state.purchases.filter((r) => r === reference)).toHaveLength(bought)
    expect(await orderRow(crashy, id)).toMatchObject({ status: 'label_created', failureReason: null })
  })

  test('a label bought for an order that moved on meanwhile is reported, not dropped', async () => {
    const { id } = await paid()
    counting.state.afterPurchase = async () => {
      // Meanwhile the order left processing (another worker's last attempt marked it failed).
      await crashy.deps.db.update(orders).set({ status: 'failed' }).where(eq(orders.id, id))
    }
    const errors: string[] = []
    setLogLevel('error')
    const restoreLog = captureLog((line) => errors.push(line))
    try {
      await crashy.runDueJobs()
    } finally {
      restoreLog()
      setLogLevel('silent')
    }
    const [order] = await crashy.deps.db.select().from(orders).where(eq(orders.id, id))
    expect(order).toMatchObject({ status: 'failed', shippoTrackingNumber: null })
    const reference = String(id).padStart(6, '0')
    expect(errors.join('\n')).toMatch(
      new RegExp(`label 9400\\d{18} \\(file:.*\\) was bought for order ${reference} but the order is failed`),
    )
  })
})

describe('job queue', () => {
  test('a job left running by a dead worker is taken again after its lease', async () => {
    const queue = createJobQueue(shop.deps.db, shop.clock)
    await queue.enqueue('test-noop', { n: 1 }, { dedupeKey: 'lease-test' })
    const claimed = await queue.claimNext()
    expect(claimed?.type).toBe('test-noop')
    // The worker "dies": nothing completes the job. Before the lease ends nobody else gets it.
    expect(await queue.claimNext()).toBeNull()
    shop.clock.advance(5 * 60 * 1000 + 1)
    const again = await queue.claimNext()
    expect(again?.id).toBe(claimed?.id)
    expect(again?.attempts).toBe(2)
    if (!again) throw new Error('the job was not taken again')
    await queue.complete(again)
    expect(await queue.claimNext()).toBeNull()
  })

  test('a job whose worker dies on its last attempt ends failed, never runs beyond maxAttempts', async () => {
    const queue = createJobQueue(shop.deps.db, shop.clock, { leaseMs: 60_000 })
    await queue.enqueue('test-dies', { n: 1 }, { dedupeKey: 'dies-every-time', maxAttempts: 2 })
    // Two workers take it in turn and both die (nothing completes or fails the job).
    const first = await queue.claimNext()
    expect(first).toMatchObject({ type: 'test-dies', attempts: 1 })
    shop.clock.advance(60_001)
    const second = await queue.claimNext()
    expect(second).toMatchObject({ id: first?.id, attempts: 2 })
    // Its last lease passes: no third run, by claim or by the runner.
    shop.clock.advance(60_001)
    let runs = 0
    const result = await queue.runDueJobs({
      'test-dies': async () => {
        runs += 1
      },
    })
    expect(runs).toBe(0)
    expect(result.ran).toBe(0)
    expect(await queue.claimNext()).toBeNull()
    const [row] = await shop.deps.db.select().from(jobs).where(eq(jobs.dedupeKey, 'dies-every-time'))
    expect(row).toMatchObject({ status: 'failed', attempts: 2, lockedUntil: null })
    expect(row?.lastError).toMatch(/stopped .*last attempt/)
    shop.clock.advance(24 * 60 * 60 * 1000)
    expect(await queue.claimNext()).toBeNull()
  })

  test('a second enqueue with the same key is dropped', async () => {
    const queue = createJobQueue(shop.deps.db, shop.clock)
    await queue.enqueue('test-noop', { n: 1 }, { dedupeKey: 'once-only' })
    await queue.enqueue('test-noop', { n: 2 }, { dedupeKey: 'once-only' })
    const rows = await shop.deps.db.select().from(jobs).where(eq(jobs.dedupeKey, 'once-only'))
    expect(rows.map((row) => JSON.parse(row.payload))).toEqual([{ n: 1 }])
  })

  test('an unknown job type fails instead of spinning', async () => {
    const queue = createJobQueue(shop.deps.db, shop.clock)
    await queue.enqueue('no-such-type', {}, { dedupeKey: 'unknown-type', maxAttempts: 1 })
    const result = await queue.runDueJobs({})
    expect(result.failed).toBeGreaterThanOrEqual(1)
    const [row] = await shop.deps.db.select().from(jobs).where(eq(jobs.dedupeKey, 'unknown-type'))
    expect(row).toMatchObject({ status: 'failed', lastError: 'no handler for job type no-such-type' })
  })
})

test('the demo provider verifies webhooks with its development secret', async () => {
  const items = [{ id: 3, quantity: 1 }]
  const { sessionId } = await createSession(
    shop,
    items,
    rateFor(await getRates(shop, items), 'USPS Ground Advantage'),
  )
  const payload = JSON.stringify({
    id: 'evt_demo_expiry',
    object: 'event',
    type: 'checkout.session.expired',
    created: 1,
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        status: 'expired',
        payment_status: 'unpaid',
        amount_total: null,
        metadata: {},
      },
    },
  })
  expect((await postWebhook(shop, payload, 'whsec_wrong')).status).toBe(400)
  expect((await postWebhook(shop, payload, DEMO_WEBHOOK_SECRET)).status).toBe(200)
  const status = await shop.call('GET', `/api/checkout/session/${sessionId}/status`)
  expect(await status.json()).toEqual({ status: 'expired' })
})
