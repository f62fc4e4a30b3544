// A cart whose next checkout (naming its earlier session) is refused for stock is told the figure it can
// have: the shelf less what other checkouts hold, its own session's units counted as its own, also after
// staff counted the shelf below that session's hold (docs/decisions/032-one-open-session-per-cart.md).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { getRates, rateFor, sessionBody } from '../checkout/helpers'
import { createTestApp, type TestApp } from '../support/test-app'

const REPAIR = 4 // Workforce Repair Original Grit: no scents
let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp()
})
afterAll(() => shop.close())

async function open(quantity: number, extra: Record<string, unknown> = {}) {
  const lines = [{ id: REPAIR, quantity }]
  const rate = rateFor(await getRates(shop, lines), 'USPS Ground Advantage')
  const res = await shop.call('POST', '/api/create-checkout-session', sessionBody(lines, rate, extra))
  return { status: res.status, body: (await res.json()) as { sessionId?: string; error?: string } }
}

test('told "Only n left", the cart lowered to n gets its session', async () => {
  await shop.services.stock.setLevels(REPAIR, { stock: 2 })
  const first = await open(2)
  expect(first.status).toBe(200)
  await shop.services.stock.setLevels(REPAIR, { stock: 1 }) // one jar broken while the session holds both
  const more = await open(3, { open_session: first.body.sessionId })
  // Not 'Only 2 left' (the shelf's free units plus the session's 2), which lowered to 2 was refused again,
  // as 'just taken by other shoppers', every time.
  expect(more).toMatchObject({
    status: 409,
    body: { error: 'Only 1 left of Workforce Repair Original Grit. Please lower the quantity in your cart.' },
  })
  expect((await open(1, { open_session: first.body.sessionId })).status).toBe(200)
})
