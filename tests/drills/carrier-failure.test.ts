// Fault drill: the carrier (the real Shippo SDK against a local fake of Shippo's API) refuses every label.
// Each order ends failed with the carrier's reason; staff press Retry on the dashboard, twice at once as two
// people might, and once more later: one label is bought per order, never a second. One retry's answer is
// lost on the way back after Shippo sold the label; the next attempt finds that label instead of buying.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { createShippoShipping } from '../../api/adapters/shippo'
import { orders } from '../../db/schema/orders'
import { staffMember } from '../api/dashboard/helpers'
import type { Customer } from '../api/support/accounts'
import { paidOrder } from '../api/support/orders'
import { createTestApp, type TestApp } from '../api/support/test-app'
import { type FakeShippo, startFakeShippo } from '../fakes/shippo'
import { recordDrill } from './support/counts'

const ORDERS = 6

// Signing two staff members in hashes their passwords: slow on a busy machine.
setDefaultTimeout(60_000)

let shippo: FakeShippo
let shop: TestApp
let staff: Customer[]
beforeAll(async () => {
  shippo = startFakeShippo()
  shop = await createTestApp(
    { TRUST_PROXY: 'true' },
    { shipping: createShippoShipping({ apiKey: shippo.apiKey, serverURL: shippo.url }) },
  )
  staff = [await staffMember(shop), await staffMember(shop)]
})
afterAll(() => {
  shop.close()
  shippo.stop()
})

/** Runs due jobs, moving the clock past each backoff, until nothing is left to run. */
async function drainJobs(): Promise<void> {
  for (let round = 0; round < 12; round++) {
    const { ran } = await shop.runDueJobs()
    shop.clock.advance(2 * 60 * 60 * 1000)
    if (ran === 0 && round > 0) return
  }
}

/** Labels Shippo sold, per order reference (from its own records). */
function labelsSold(): Map<string, number> {
  const sold = new Map<string, number>()
  for (const transaction of shippo.transactions) {
    if (transaction.status !== 'SUCCESS') continue
    const reference = String(transaction.metadata)
    sold.set(reference, (sold.get(reference) ?? 0) + 1)
  }
  return sold
}

const retry = (id: number, member: Customer) =>
  shop.call('POST', `/api/orders/${id}/retry`, undefined, { cookie: member.cookie })

async function order(id: number) {
  const [row] = await shop.deps.db.select().from(orders).where(eq(orders.id, id))
  if (!row) throw new Error(`order ${id} missing`)
  return row
}

test('the carrier failing: orders marked failed with the reason, one Retry buys one label, a second none', async () => {
  shippo.failLabels = 'Address not found'
  const ids: number[] = []
  for (let i = 0; i < ORDERS; i++) ids.push(await paidOrder(shop, { email: `carrier.${i}@example.com` }))
  await drainJobs()
  for (const id of ids) {
    const row = await order(id)
    expect(row.status).toBe('failed')
    expect(row.failureReason).toContain('Address not found')
  }
  expect(labelsSold().size).toBe(0)

  // The carrier is back. Two staff press Retry on the same order at the same moment.
  shippo.failLabels = null
  const [lostAnswerOrder] = ids
  const retried: number[][] = []
  for (const id of ids) {
    const answers = await Promise.all([retry(id, staff[0] as Customer), retry(id, staff[1] as Customer)])
    retried.push(answers.map((res) => res.status).sort())
    // The first order's label is sold, but the answer never reaches the shop.
    if (id === lostAnswerOrder) shippo.loseLabelAnswers = 1
    await drainJobs()
  }
  expect(retried).toEqual(ids.map(() => [200, 409]))
  // The lost answer did happen: Shippo sold that label and the shop never heard of it.
  expect(shippo.loseLabelAnswers).toBe(0)

  // Later, someone presses Retry again on every order: refused, nothing bought.
  const again = await Promise.all(ids.map((id) => retry(id, staff[0] as Customer)))
  await drainJobs()
  expect(again.map((res) => res.status)).toEqual(ids.map(() => 409))

  const sold = labelsSold()
  const rows = await Promise.all(ids.map(order))
  const labelled = rows.filter((row) => row.status === 'label_created' && row.labelUrl).length
  const lost = ORDERS - labelled
  const doubled = [...sold.values()].reduce((sum, n) => sum + n - 1, 0)
  const line = `drill carrier-failure: ${ORDERS} orders, ${ORDERS} failed with the carrier's reason, ${retried.length * 2 + again.length} Retry presses, ${[...sold.values()].reduce((a, b) => a + b, 0)} labels bought (1 answer lost on the way), lost ${lost}, doubled ${doubled}`
  console.log(line)
  recordDrill('carrier-failure', line)
  expect(sold.size).toBe(ORDERS)
  expect(lost).toBe(0)
  expect(doubled).toBe(0)
  for (const row of rows) expect(row.failureReason).toBeNull()
}, 60_000)
