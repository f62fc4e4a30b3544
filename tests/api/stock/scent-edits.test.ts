// Content edits between a checkout and its payment, cancel or refund: the line keeps the stock its checkout
// named (`stockVariant` on the session's lines and `order_lines.stock_variant`), so scents added, removed,
// reordered or renamed by an editor, or the product taken off sale, move no units to another shelf and make
// none up (docs/decisions/026-stock-reserved-at-checkout.md).
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import {
  type ContentProduct,
  loadCatalogFromContent,
  PRODUCT_CONTENT_DIR,
} from '../../../api/modules/catalog/content'
import { syncCatalog } from '../../../api/modules/catalog/service'
import { orders } from '../../../db/schema/orders'
import { getRates, payDemo, rateFor, sessionBody } from '../checkout/helpers'
import { createTestApp, type TestApp } from '../support/test-app'
import { onHand, reservationsOf } from './helpers'

const OIL = 1 // Hammered Citrus: scents Hammered Citrus, Cedar Shop, Unscented
const REPAIR = 4 // Workforce Repair Original Grit: no scents

type Line = { id: number; quantity: number; variant?: string }

let shop: TestApp
let shopper = 0
const content = loadCatalogFromContent(PRODUCT_CONTENT_DIR)

beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
})
afterAll(() => shop.close())
beforeEach(async () => {
  await syncCatalog(shop.deps.db, content, new Date())
  await shop.services.catalog.reload()
  await shop.deps.db.run(sql`delete from stock_levels`)
  await shop.deps.db.run(sql`delete from stock_reservations`)
  shop.clock.advance(2 * 60_000)
})

async function openSession(lines: Line[]) {
  const n = ++shopper
  const from = { 'x-forwarded-for': `198.51.100.${n % 250}`, 'x-test-shopper': String(n) }
  const rate = rateFor(await getRates(shop, lines, undefined, {}, from), 'USPS Ground Advantage')
  const body = sessionBody(lines, rate, { customer_email: `edit${n}@example.com` })
  body.line_items = (body.line_items as Record<string, unknown>[]).map((item, index) => ({
    ...item,
    ...(lines[index]?.variant ? { variant: lines[index]?.variant } : {}),
  }))
  const res = await shop.call('POST', '/api/create-checkout-session', body, from)
  return { status: res.status, body: (await res.json()) as { sessionId?: string; error?: string } }
}

async function editContent(edit: (product: ContentProduct) => ContentProduct) {
  await syncCatalog(shop.deps.db, content.map(edit), new Date())
  await shop.services.catalog.reload()
}

async function orderIdOf(sessionId: string | undefined) {
  const [order] = await shop.deps.db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.checkoutSessionId, sessionId ?? ''))
  if (!order) throw new Error(`no order for ${sessionId}`)
  return order.id
}

test('a product that gains scents between checkout and payment: the payment sells the units its checkout held', async () => {
  await shop.services.stock.setLevels(REPAIR, { stock: 2 })
  const held = await openSession([{ id: REPAIR, quantity: 1 }])
  expect(held.status).toBe(200)
  expect(await reservationsOf(shop, REPAIR, '')).toEqual({ reserved: { units: 1, rows: 1 } })

  // The editor gives the product scents while the shopper pays; staff count the new scents at once.
  await editContent((p) => (p.id === REPAIR ? { ...p, variants: ['Original', 'Pine'] } : p))
  await shop.services.stock.setLevels(REPAIR, { variants: { Original: 5, Pine: 5 } })

  expect((await payDemo(shop, held.body.sessionId ?? '')).status).toBe(200)
  // The unit sold came off the shelf that held it ('') and its hold is sold; the new scent is untouched.
  expect({
    plain: await onHand(shop, REPAIR, ''),
    plainHolds: await reservationsOf(shop, REPAIR, ''),
    original: await onHand(shop, REPAIR, 'Original'),
  }).toEqual({ plain: 1, plainHolds: { sold: { units: 1, rows: 1 } }, original: 5 })
})

test('a product that loses its scents between checkout and payment, then gets them back: no unit is made up', async () => {
  await shop.services.stock.setLevels(OIL, { variants: { 'Hammered Citrus': 2 } })
  // No scent chosen: checkout names the first and holds it.
  const held = await openSession([{ id: OIL, quantity: 1 }])
  expect(held.status).toBe(200)
  expect(await reservationsOf(shop, OIL, 'Hammered Citrus')).toEqual({ reserved: { units: 1, rows: 1 } })

  // An editor drops the scents list while the shopper pays ...
  await editContent((p) => (p.id === OIL ? { ...p, variants: [] } : p))
  expect((await payDemo(shop, held.body.sessionId ?? '')).status).toBe(200)
  const orderId = await orderIdOf(held.body.sessionId)
  const afterPayment = {
    onHand: await onHand(shop, OIL, 'Hammered Citrus'),
    holds: await reservationsOf(shop, OIL, 'Hammered Citrus'),
  }
  // ... and puts it back; the order is then cancelled.
  await editContent((p) => p)
  await shop.services.fulfilment.cancel(orderId, 'staff', 'Changed their mind')

  expect({ afterPayment, afterCancel: await onHand(shop, OIL, 'Hammered Citrus') }).toEqual({
    afterPayment: { onHand: 1, holds: { sold: { units: 1, rows: 1 } } },
    afterCancel: 2,
  })
})

test('a scent renamed after payment: the cancel puts the unit back on the shelf it was sold from', async () => {
  await shop.services.stock.setLevels(OIL, { variants: { 'Cedar Shop': 2 } })
  const held = await openSession([{ id: OIL, quantity: 1, variant: 'Cedar Shop' }])
  expect((await payDemo(shop, held.body.sessionId ?? '')).status).toBe(200)
  const orderId = await orderIdOf(held.body.sessionId)
  expect(await onHand(shop, OIL, 'Cedar Shop')).toBe(1)

  await editContent((p) =>
    p.id === OIL ? { ...p, variants: p.variants.map((v) => (v === 'Cedar Shop' ? 'Cedar Workshop' : v)) } : p,
  )
  await shop.services.fulfilment.cancel(orderId, 'staff', 'Changed their mind')
  // Units sold from 'Cedar Shop' are back on some shelf: 2 in all, as before the sale.
  const cedar = (await onHand(shop, OIL, 'Cedar Shop')) ?? 0
  const workshop = (await onHand(shop, OIL, 'Cedar Workshop')) ?? 0
  expect(cedar + workshop).toBe(2)
})

// A product taken off sale (its file removed or made a draft) while a shopper pays: the money is taken, so
// the payment sells the units its checkout held, and the order line keeps the stock its checkout named.
test('a product unlisted between checkout and payment: the payment sells the units its checkout held', async () => {
  await shop.services.stock.setLevels(OIL, { variants: { 'Cedar Shop': 2 } })
  const held = await openSession([{ id: OIL, quantity: 1, variant: 'Cedar Shop' }])
  expect(held.status).toBe(200)
  expect(await reservationsOf(shop, OIL, 'Cedar Shop')).toEqual({ reserved: { units: 1, rows: 1 } })

  // The editor removes the product's file (docs/editing.md: "to stop selling one, make it a draft or remove
  // its file") while the shopper pays.
  await syncCatalog(
    shop.deps.db,
    content.filter((p) => p.id !== OIL),
    new Date(),
  )
  await shop.services.catalog.reload()
  expect((await payDemo(shop, held.body.sessionId ?? '')).status).toBe(200)
  const orderId = await orderIdOf(held.body.sessionId)
  const [line] = await shop.deps.db.all<{ stock_variant: string | null }>(
    sql`select stock_variant from order_lines where order_id = ${orderId}`,
  )
  expect({
    onHand: await onHand(shop, OIL, 'Cedar Shop'),
    holds: await reservationsOf(shop, OIL, 'Cedar Shop'),
    lineStock: line?.stock_variant,
  }).toEqual({ onHand: 1, holds: { sold: { units: 1, rows: 1 } }, lineStock: 'Cedar Shop' })
})

test('an order whose product is unlisted after payment: a cancel puts its units back', async () => {
  await shop.services.stock.setLevels(OIL, { variants: { 'Cedar Shop': 2 } })
  const held = await openSession([{ id: OIL, quantity: 1, variant: 'Cedar Shop' }])
  expect((await payDemo(shop, held.body.sessionId ?? '')).status).toBe(200)
  const orderId = await orderIdOf(held.body.sessionId)
  expect(await onHand(shop, OIL, 'Cedar Shop')).toBe(1)
  await syncCatalog(
    shop.deps.db,
    content.filter((p) => p.id !== OIL),
    new Date(),
  )
  await shop.services.catalog.reload()
  await shop.services.fulfilment.cancel(orderId, 'staff', 'Changed their mind')
  expect(await onHand(shop, OIL, 'Cedar Shop')).toBe(2)
})
