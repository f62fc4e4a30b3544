// The first-order code (CREW10) without telling strangers who has ordered, without letting a stranger's
// unpaid session lock its owner out, and without a second paid order at the first-order price going
// unnoticed (docs/decisions/021).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { checkoutSessions } from '../../../db/schema/checkout'
import { discountCodes } from '../../../db/schema/discounts'
import { orders } from '../../../db/schema/orders'
import { staffMember } from '../dashboard/helpers'
import { reservationsOf } from '../stock/helpers'
import { signUp, uniqueAddress } from '../support/accounts'
import { createTestApp, type TestApp } from '../support/test-app'
import { getRates, HOME, type Items, payDemo, rateFor, sessionBody } from './helpers'

const ITEMS: Items = [{ id: 1, quantity: 2 }]

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
})
afterAll(() => shop.close())
beforeEach(() => shop.clock.advance(11 * 60_000))

let unit = 0
/** Opens a session; each call its own apartment line, so no two are one repeated request. */
async function open(email: string, code: string | null, headers: Record<string, string> = {}) {
  unit += 1
  const address = { ...HOME, street2: `Unit ${unit}` }
  const rate = rateFor(await getRates(shop, ITEMS, address), 'USPS Ground Advantage')
  return shop.call(
    'POST',
    '/api/create-checkout-session',
    sessionBody(ITEMS, rate, { customer_email: email, discount_code: code, shipping_address: address }),
    { ...uniqueAddress(), ...headers },
  )
}

async function opened(email: string, code: string | null, headers: Record<string, string> = {}) {
  const res = await open(email, code, headers)
  expect(res.status).toBe(200)
  return ((await res.json()) as { sessionId: string }).sessionId
}

async function orderOf(sessionId: string) {
  const [row] = await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId))
  return row
}

describe('a guest checkout tells nobody whether an e-mail has ordered', () => {
  test('CREW10 with an e-mail that has a paid order answers exactly as with a new one', async () => {
    const veteran = 'vera.veteran@example.com'
    expect((await payDemo(shop, await opened(veteran, null))).status).toBe(200)

    const withHistory = await open(veteran, 'CREW10')
    const without = await open('nina.newcomer@example.com', 'CREW10')
    expect(withHistory.status).toBe(200)
    expect(without.status).toBe(200)
    const keys = (body: unknown) => Object.keys(body as object).sort()
    expect(keys(await withHistory.json())).toEqual(keys(await without.json()))
  })

  test("a stranger's unpaid CREW10 session for someone's e-mail does not hold the owner's use", async () => {
    const owner = 'olive.owner@example.com'
    // Someone else opens a session with Olive's address and never pays it.
    await opened(owner, 'CREW10')
    // Olive's own CREW10 checkout goes through, and her order carries the code with nothing to flag.
    const mine = await opened(owner, 'CREW10')
    expect((await payDemo(shop, mine)).status).toBe(200)
    expect(await orderOf(mine)).toMatchObject({ discountCode: 'CREW10', discountWarning: null })
  })
})

describe('a second paid order never carries the first-order price unnoticed', () => {
  test('CREW10 session open, a plain order paid: the CREW10 session is expired at the provider', async () => {
    const email = 'cal.twice@example.com'
    const crew = await opened(email, 'CREW10')
    expect((await payDemo(shop, await opened(email, null))).status).toBe(200)
    await shop.runDueJobs()
    const paying = await payDemo(shop, crew)
    expect(paying.status).toBe(409)
    expect((await paying.json()).error).toContain('expired')
    const [session] = await shop.deps.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, crew))
    expect(session?.status).toBe('expired')
    expect(await orderOf(crew)).toBeUndefined()
  })

  test("an account's CREW10 session under another e-mail: the account's plain order expires it too", async () => {
    const customer = await signUp(shop)
    const cookie = { cookie: customer.cookie }
    // The same account, a work address for the CREW10 checkout: matched by the account, not the e-mail.
    const crew = await opened('crew.at.work@example.com', 'CREW10', cookie)
    const plain = await opened(customer.email, null, cookie)
    // A guest's paid order with another e-mail leaves it alone (neither the address nor the account).
    expect((await payDemo(shop, await opened('stranger.paid@example.com', null))).status).toBe(200)
    await shop.runDueJobs()
    const [before] = await shop.deps.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, crew))
    expect(before?.status).toBe('open')
    expect((await payDemo(shop, plain)).status).toBe(200)
    await shop.runDueJobs()
    const [after] = await shop.deps.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, crew))
    expect(after?.status).toBe('expired')
  })

  test('the CREW10 session it ends gives its units back then, not when the provider reports it expired', async () => {
    await shop.services.stock.setLevels(4, { stock: 2 })
    const email = 'cal.units@example.com'
    const units: Items = [{ id: 4, quantity: 2 }]
    const openFor = async (buyer: string, code: string | null) => {
      const rate = rateFor(await getRates(shop, units, HOME), 'USPS Ground Advantage')
      const body = sessionBody(units, rate, { customer_email: buyer, discount_code: code })
      return shop.call('POST', '/api/create-checkout-session', body, uniqueAddress())
    }
    expect((await openFor(email, 'CREW10')).status).toBe(200)
    expect((await reservationsOf(shop, 4, '')).reserved?.units).toBe(2)
    expect((await openFor('someone.else@example.com', null)).status).toBe(409)
    expect((await payDemo(shop, await opened(email, null))).status).toBe(200)
    await shop.runDueJobs()
    expect((await reservationsOf(shop, 4, '')).reserved).toBeUndefined()
    expect((await openFor('someone.else@example.com', null)).status).toBe(200)
  })

  test('paid before it could be expired: the order is made (money was taken) and flagged for staff', async () => {
    const email = 'dee.race@example.com'
    const crew = await opened(email, 'CREW10')
    const plain = await opened(email, null)
    expect((await payDemo(shop, plain)).status).toBe(200)
    // The CREW10 session is paid before the background job expires it.
    expect((await payDemo(shop, crew)).status).toBe(200)
    const first = await orderOf(plain)
    const second = await orderOf(crew)
    expect(second).toMatchObject({ discountCode: 'CREW10' })
    expect(second?.discountWarning).toBe(
      `CREW10 is for a first order only: this customer's order ${String(first?.id).padStart(6, '0')} was paid first.`,
    )
    expect(first?.discountWarning).toBeNull()

    const staff = await staffMember(shop)
    const list = await shop.call('GET', '/api/orders', undefined, { cookie: staff.cookie })
    const listed = ((await list.json()) as { id: number; discountWarning: string | null }[]).find(
      (order) => order.id === second?.id,
    )
    expect(listed?.discountWarning).toBe(second?.discountWarning ?? 'missing')
  })

  test('two CREW10 orders of one customer (plus-address) paid one after the other: the second is flagged', async () => {
    const a = await opened('gus@example.com', 'CREW10')
    const b = await opened('Gus+again@example.com', 'CREW10')
    expect((await payDemo(shop, a)).status).toBe(200)
    expect((await payDemo(shop, b)).status).toBe(200)
    expect((await orderOf(a))?.discountWarning).toBeNull()
    expect((await orderOf(b))?.discountWarning).toContain('CREW10 is for a first order only')
  })
})

test('a code with a limit per customer, paid twice by one guest: the second order is marked for staff', async () => {
  await shop.deps.db.insert(discountCodes).values({
    code: 'ONCEEACH',
    type: 'percentage',
    amount: 5,
    maxPerCustomer: 1,
    createdAt: shop.clock.now(),
  })
  const first = await opened('hal@example.com', 'ONCEEACH')
  const second = await opened('HAL+2@example.com', 'ONCEEACH')
  expect((await payDemo(shop, first)).status).toBe(200)
  expect((await payDemo(shop, second)).status).toBe(200)
  expect((await orderOf(first))?.discountWarning).toBeNull()
  expect((await orderOf(second))?.discountWarning).toBe(
    'ONCEEACH allows 1 use(s) per customer: this customer had used them already.',
  )
})

describe('a signed-in customer is answered about their own account', () => {
  test("the account's own paid order: CREW10 is refused at checkout, whatever e-mail is given", async () => {
    const customer = await signUp(shop)
    const cookie = { cookie: customer.cookie }
    expect((await payDemo(shop, await opened(customer.email, null, cookie))).status).toBe(200)
    const again = await open('some.other@example.org', 'CREW10', cookie)
    expect(again.status).toBe(422)
    expect((await again.json()).error).toBe('This code is for your first order only.')
  })

  test("an account's parallel CREW10 sessions: one is opened, the others are told", async () => {
    const customer = await signUp(shop)
    const answers = await Promise.all(
      [1, 2, 3].map(() => open(customer.email, 'CREW10', { cookie: customer.cookie })),
    )
    expect(answers.map((res) => res.status).sort()).toEqual([200, 422, 422])
  })
})
