// A scent renamed or removed in a product file keeps its count under the old name, where units of orders
// sold from it come back (docs/editing.md): staff see that count on the dashboard as no longer sold, with
// its units, and move them (set it to 0, or stop counting it, and count the new scent).
import { afterAll, beforeAll, beforeEach, expect, setDefaultTimeout, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import {
  type ContentProduct,
  loadCatalogFromContent,
  PRODUCT_CONTENT_DIR,
} from '../../../api/modules/catalog/content'
import { syncCatalog } from '../../../api/modules/catalog/service'
import { orders } from '../../../db/schema/orders'
import { getRates, payDemo, rateFor, sessionBody } from '../checkout/helpers'
import { staffMember } from '../dashboard/helpers'
import type { Customer } from '../support/accounts'
import { holdCalls } from '../support/hold-calls'
import { createTestApp, type TestApp } from '../support/test-app'
import { onHand } from './helpers'

// Argon2id hashing takes a while on a busy machine.
setDefaultTimeout(60_000)

const OIL = 1 // Hammered Citrus: scents Hammered Citrus, Cedar Shop, Unscented
const REPAIR = 4 // Workforce Repair Original Grit: no scents

let shop: TestApp
let staff: Customer
let shopper = 0
const content = loadCatalogFromContent(PRODUCT_CONTENT_DIR)

beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
  staff = await staffMember(shop)
})
afterAll(() => shop.close())
beforeEach(async () => {
  await editContent((product) => product)
  await shop.deps.db.run(sql`delete from stock_levels`)
  await shop.deps.db.run(sql`delete from stock_reservations`)
  shop.clock.advance(2 * 60_000)
})

async function editContent(edit: (product: ContentProduct) => ContentProduct) {
  await syncCatalog(shop.deps.db, content.map(edit), new Date())
  await shop.services.catalog.reload()
}

const renameCedar = () =>
  editContent((p) =>
    p.id === OIL ? { ...p, variants: p.variants.map((v) => (v === 'Cedar Shop' ? 'Cedar Workshop' : v)) } : p,
  )

/** A paid order of one unit of the scent (or of a product without scents), and its id. */
async function paidOrder(productId: number, variant?: string) {
  const n = ++shopper
  const from = { 'x-forwarded-for': `198.51.100.${n % 250}`, 'x-test-shopper': String(n) }
  const lines = [{ id: productId, quantity: 1 }]
  const rate = rateFor(await getRates(shop, lines, undefined, {}, from), 'USPS Ground Advantage')
  const body = sessionBody(lines, rate, { customer_email: `former${n}@example.com` })
  if (variant) body.line_items = (body.line_items as object[]).map((item) => ({ ...item, variant }))
  const res = await shop.call('POST', '/api/create-checkout-session', body, from)
  const { sessionId } = (await res.json()) as { sessionId: string }
  expect((await payDemo(shop, sessionId)).status).toBe(200)
  const [order] = await shop.deps.db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.checkoutSessionId, sessionId))
  if (!order) throw new Error(`no order for ${sessionId}`)
  return order.id
}

async function dashboardProduct(id: number) {
  // The figures are read at most once a second: a second later, these are the database's.
  shop.clock.advance(1_000)
  const res = await shop.call('GET', '/api/products', undefined, { cookie: staff.cookie })
  expect(res.status).toBe(200)
  return ((await res.json()) as { id: number; formerVariants: unknown; variants: unknown }[]).find(
    (product) => product.id === id,
  )
}

const patchStock = (id: number, body: unknown) =>
  shop.call('PATCH', `/api/products/${id}/stock`, body, { cookie: staff.cookie })

test('a renamed scent: the units a cancel puts back are listed as no longer sold, and staff move them to the new name', async () => {
  await shop.services.stock.setLevels(OIL, { variants: { 'Cedar Shop': 2 } })
  const orderId = await paidOrder(OIL, 'Cedar Shop')
  await renameCedar()
  // Before anything comes back, the old count holds the unit left on the shelf: listed.
  expect((await dashboardProduct(OIL))?.formerVariants).toEqual([
    // Its paid order still has the unit to ship: left out of a count of the old scent's jars.
    { name: 'Cedar Shop', stock: { onHand: 1, available: 1 }, toShip: 1 },
  ])

  await shop.services.fulfilment.cancel(orderId, 'staff', 'Changed their mind')
  expect(await dashboardProduct(OIL)).toMatchObject({
    variants: expect.arrayContaining([{ name: 'Cedar Workshop', stock: null, toShip: 0 }]),
    // Cancelled: its unit is back on the old count, no longer to ship.
    formerVariants: [{ name: 'Cedar Shop', stock: { onHand: 2, available: 2 }, toShip: 0 }],
  })

  // Staff move the two units: the old count to 0, the new scent counted with them.
  const moved = await patchStock(OIL, { variants: { 'Cedar Shop': 0, 'Cedar Workshop': 2 } })
  expect(moved.status).toBe(200)
  const answer = (await moved.json()) as { message: string; product: { formerVariants: unknown } }
  expect(answer.message).toContain('Hammered Citrus (Cedar Workshop): 2 on the shelf, 2 free.')
  expect(answer.message).toContain('Hammered Citrus (Cedar Shop), no longer sold: 0 on the shelf, 0 free.')
  // At 0 there is nothing left to move: no longer listed.
  expect(answer.product.formerVariants).toEqual([])
  expect({
    old: await onHand(shop, OIL, 'Cedar Shop'),
    renamed: await onHand(shop, OIL, 'Cedar Workshop'),
  }).toEqual({ old: 0, renamed: 2 })

  // Stopping the old count tidies it away for good.
  const stopped = await patchStock(OIL, { variants: { 'Cedar Shop': null } })
  expect(stopped.status).toBe(200)
  expect(((await stopped.json()) as { message: string }).message).toContain(
    'Hammered Citrus (Cedar Shop), no longer sold: not counted.',
  )
  expect(await onHand(shop, OIL, 'Cedar Shop')).toBeNull()
})

test('a product that gained scents: its own old figure is listed, and staff set it without naming a scent', async () => {
  await shop.services.stock.setLevels(REPAIR, { stock: 3 })
  await editContent((p) => (p.id === REPAIR ? { ...p, variants: ['Original', 'Pine'] } : p))
  expect((await dashboardProduct(REPAIR))?.formerVariants).toEqual([
    { name: '', stock: { onHand: 3, available: 3 }, toShip: 0 },
  ])
  const res = await patchStock(REPAIR, { variants: { '': 0, Original: 3 } })
  expect(res.status).toBe(200)
  expect(((await res.json()) as { message: string }).message).toContain(
    'Workforce Repair Original Grit (no scent), no longer sold: 0 on the shelf, 0 free.',
  )
  expect(await onHand(shop, REPAIR, '')).toBe(0)
})

test('a product that lost its scents: a scent it had is set beside its own figure', async () => {
  await shop.services.stock.setLevels(OIL, { variants: { Unscented: 4 } })
  await editContent((p) => (p.id === OIL ? { ...p, variants: [] } : p))
  expect((await dashboardProduct(OIL))?.formerVariants).toEqual([
    { name: 'Unscented', stock: { onHand: 4, available: 4 }, toShip: 0 },
  ])
  const res = await patchStock(OIL, { stock: 4, variants: { Unscented: 0 } })
  expect(res.status).toBe(200)
  expect({ own: await onHand(shop, OIL, ''), old: await onHand(shop, OIL, 'Unscented') }).toEqual({
    own: 4,
    old: 0,
  })
  // Only a former scent of its own: the product itself still goes under `stock`.
  const own = await patchStock(OIL, { variants: { '': 2 } })
  expect(own.status).toBe(422)
  expect(await onHand(shop, OIL, '')).toBe(4)
})

test('a name that was never counted stays refused, and nothing changes', async () => {
  await shop.services.stock.setLevels(OIL, { variants: { 'Cedar Shop': 2 } })
  await renameCedar()
  for (const body of [{ variants: { Lavender: 1 } }, { variants: { 'Cedar Shop': 0, Lavender: 1 } }]) {
    const res = await patchStock(OIL, body)
    expect(res.status).toBe(422)
    expect(((await res.json()) as { error: string }).error).toBe(
      'Hammered Citrus has no scent "Lavender": use one of Hammered Citrus, Cedar Workshop, Unscented.',
    )
  }
  expect(await onHand(shop, OIL, 'Cedar Shop')).toBe(2)
  // A product without scents that never had any: `variants` is refused as before.
  const plain = await patchStock(REPAIR, { variants: { Pine: 1 } })
  expect(plain.status).toBe(422)
  expect(((await plain.json()) as { error: string }).error).toBe(
    'Workforce Repair Original Grit has no scents: send { "stock": units }.',
  )
})

test('an empty `variants` on a product without scents is told it has none', async () => {
  const res = await patchStock(REPAIR, { variants: {} })
  expect(res.status).toBe(422)
  expect(((await res.json()) as { error: string }).error).toBe(
    'Workforce Repair Original Grit has no scents: send { "stock": units }.',
  )
})

test("the product's own old figure and a former scent named like the product are told apart", async () => {
  // Counted under the scent named like the product, then as its own figure while it had no scents.
  await shop.services.stock.setLevels(OIL, { variants: { 'Hammered Citrus': 5 } })
  await editContent((p) => (p.id === OIL ? { ...p, variants: [] } : p))
  await shop.services.stock.setLevels(OIL, { stock: 3 })
  await editContent((p) => (p.id === OIL ? { ...p, variants: ['Cedar Shop', 'Unscented'] } : p))
  expect((await dashboardProduct(OIL))?.formerVariants).toEqual([
    { name: '', stock: { onHand: 3, available: 3 }, toShip: 0 },
    { name: 'Hammered Citrus', stock: { onHand: 5, available: 5 }, toShip: 0 },
  ])
  const res = await patchStock(OIL, { variants: { 'Cedar Shop': 1 } })
  expect(res.status).toBe(200)
  expect(((await res.json()) as { message: string }).message).toBe(
    'Hammered Citrus (Cedar Shop): 1 on the shelf, 1 free. Hammered Citrus (Unscented): not counted. ' +
      'Hammered Citrus (no scent), no longer sold: 3 on the shelf, 3 free. ' +
      'Hammered Citrus (Hammered Citrus), no longer sold: 5 on the shelf, 5 free.',
  )
})

test('a former count stopped while another save sets it is not counted again', async () => {
  await shop.services.stock.setLevels(OIL, { variants: { 'Cedar Shop': 2 } })
  await renameCedar()
  // The set has found 'Cedar Shop' counted (so it may name it) and waits to write; the stop goes first.
  const gate = holdCalls(shop.deps.db, 'batch', { onlyFirst: true })
  const set = patchStock(OIL, { variants: { 'Cedar Shop': 5 } })
  await gate.entered
  gate.restore()
  expect((await patchStock(OIL, { variants: { 'Cedar Shop': null } })).status).toBe(200)
  gate.release()
  const answer = await set
  expect(answer.status).toBe(200)
  expect(((await answer.json()) as { message: string }).message).toContain(
    'Hammered Citrus (Cedar Shop), no longer sold: not counted.',
  )
  expect(await onHand(shop, OIL, 'Cedar Shop')).toBeNull()
})
