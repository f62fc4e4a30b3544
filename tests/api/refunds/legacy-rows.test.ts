// Refunds recorded before the shop kept which units a refund took over (migration 0031): the upgrade reads
// them the way that puts the fewest units back later, so no sequence of failures and refunds made after it
// puts a unit on the shelf that is not there; and a row saying more units than its order line has never
// puts back more than the line (docs/decisions/027-cancel-and-refund.md).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { migrationsFolder } from '../../../db/client'
import { onHand } from '../stock/helpers'
import { payForOrder } from '../support/orders'
import { createRefundShop, json, type RefundShop, refundRows } from './helpers'

setDefaultTimeout(120_000)

let r: RefundShop
let orders = 0
const SHELF = 20
const REPAIR = 4 // Workforce Repair Original Grit: no scents

beforeAll(async () => {
  r = await createRefundShop()
})
afterAll(() => {
  r.events.held = true
  r.shop.close()
})

/** A paid order of `quantity` balms off a shelf of 20, its label bought; `shelf()`: its units back on it. */
async function order(quantity: number) {
  r.shop.clock.advance(61 * 60_000)
  await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: SHELF }), 200)
  orders += 1
  const { id } = await payForOrder(r.shop, {
    items: [{ id: REPAIR, quantity }],
    email: `legacy${orders}@example.com`,
  })
  await r.shop.runDueJobs()
  const detail = await json<{ lines: { id: number }[] }>(await r.asStaff('GET', `/api/orders/${id}`), 200)
  const lineId = detail.lines[0]?.id ?? 0
  const shelf = async () => ((await onHand(r.shop, REPAIR, '')) ?? Number.NaN) - (SHELF - quantity)
  return { id, lineId, shelf }
}

const refund = (id: number, lineId: number, quantity: number, restock: boolean) =>
  r.asStaff('POST', `/api/orders/${id}/refunds`, { lines: [{ lineId, quantity }], restock })

async function fail(orderId: number, refundId: string) {
  const row = (await refundRows(r.shop, orderId)).find((each) => each.id === refundId)
  await r.demo.failRefund(row?.providerRefundId ?? '', 'expired_or_canceled_card')
  await r.events.deliver()
}

/** The provider cannot be reached while `ask` runs: the refund stays asked, made later by its job. */
async function withProviderDown<T>(ask: () => Promise<T>): Promise<T> {
  const refundAtProvider = r.demo.refund
  r.demo.refund = async () => {
    throw new Error('socket hang up')
  }
  try {
    return await ask()
  } finally {
    r.demo.refund = refundAtProvider
  }
}

/** The rows as the upgrade leaves them: what refunds took over not recorded, then migration 0031's reading. */
async function asUpgraded() {
  const db = r.shop.deps.db
  await db.run(sql`update order_refund_lines set settles_on_shelf = 0, settles_out = 0, settles_off = 0`)
  await db.run(sql`update order_lines set unsettled_on_shelf = 0, unsettled_out = 0, unsettled_off = 0`)
  const migration = readFileSync(join(migrationsFolder, '0031_refund_units_taken_over.sql'), 'utf8')
  for (const statement of migration.split('--> statement-breakpoint').map((text) => text.trim())) {
    if (statement && !statement.startsWith('ALTER')) await db.run(sql.raw(statement))
  }
}

for (const upgraded of [false, true]) {
  const when = upgraded ? 'across the upgrade' : 'all after it'
  test(`a returned unit whose refund failed, refunded again without restock, that failing too, then with restock: one on the shelf (${when})`, async () => {
    const { id, lineId, shelf } = await order(1)
    await json(await r.asStaff('POST', `/api/orders/${id}/ship`), 200)
    const first = await json<{ refund: { id: string } }>(await refund(id, lineId, 1, true), 201)
    await r.events.deliver()
    await fail(id, first.refund.id)
    const again = await json<{ refund: { id: string } }>(await refund(id, lineId, 1, false), 201)
    await r.events.deliver()
    if (upgraded) await asUpgraded()
    await fail(id, again.refund.id)
    await json(await refund(id, lineId, 1, true), 201)
    await r.events.deliver()
    expect(await shelf()).toBe(1)
  })

  test(`a returned unit whose refund failed, refunded again with restock while the provider was down: one on the shelf (${when})`, async () => {
    const { id, lineId, shelf } = await order(1)
    await json(await r.asStaff('POST', `/api/orders/${id}/ship`), 200)
    const first = await json<{ refund: { id: string } }>(await refund(id, lineId, 1, true), 201)
    await r.events.deliver()
    await fail(id, first.refund.id)
    await withProviderDown(async () => json(await refund(id, lineId, 1, true), 201))
    if (upgraded) await asUpgraded()
    r.shop.clock.advance(10 * 60_000)
    await r.shop.runDueJobs()
    await r.events.deliver()
    expect(await shelf()).toBe(1)
  })
}

for (const then of ['made', 'cancelled'] as const) {
  test(`a refund row saying more units than its line has puts back no more than the line (${then})`, async () => {
    const { id, lineId, shelf } = await order(1)
    const asked = await withProviderDown(async () =>
      json<{ refund: { id: string } }>(await refund(id, lineId, 1, true), 201),
    )
    await r.shop.deps.db.run(
      sql`update order_refund_lines set quantity = 2 where refund_id = ${asked.refund.id}`,
    )
    if (then === 'made') {
      r.shop.clock.advance(10 * 60_000)
      await r.shop.runDueJobs()
      await r.events.deliver()
    } else {
      await json(await r.asStaff('POST', `/api/orders/${id}/cancel`, {}), 200)
    }
    expect(await shelf()).toBe(1)
  })
}
