// One open payment session per cart (docs/decisions/032-one-open-session-per-cart.md): a shopper who went
// back from the payment page to change the cart is not refused by what their own earlier session holds.
// The real Stripe SDK against the fake Stripe API, so ending the earlier session is a real expire call.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import { PaymentProviderError } from '../../../api/adapters/types'
import { EARLIER_PAID_MESSAGE, SESSION_REFUSED_MESSAGE } from '../../../api/modules/checkout/service'
import { checkoutSessions } from '../../../db/schema/checkout'
import { discountCodes, discountRedemptions } from '../../../db/schema/discounts'
import { type FakeStripe, startFakeStripe } from '../../fakes/stripe'
import { reservationsOf } from '../stock/helpers'
import { createTestApp, type TestApp } from '../support/test-app'
import {
  fakeStripePayments,
  getRates,
  HOME,
  type Items,
  type RateAnswer,
  rateFor,
  sessionBody,
} from './helpers'

const OIL = 1 // Hammered Citrus, $21.00
const REPAIR = 4 // Workforce Repair Original Grit, $13.00: no scents
/** $10 off, one use in all: two oils ($42.00) come to $32.00, under free shipping's $35.00. */
const LAST_USE = 'LASTTEN'
const USED_UP = 'This discount code has been used up.'

let stripe: FakeStripe
let shop: TestApp
let codes = 0
/** While set, the provider cannot be reached to end a session. */
let expireDown = false
/** Run while the provider is being asked to end a session: what others do in that moment. */
let duringExpire: (() => Promise<void>) | null = null
/** Run just before the provider is asked to open a session. */
let beforeCreate: (() => Promise<void>) | null = null

beforeAll(async () => {
  stripe = startFakeStripe()
  shop = await createTestApp({}, (base) => {
    const payments = fakeStripePayments(stripe, base, {
      publishableKey: 'pk_test_open_session',
      webhookSecret: 'whsec_test_open_session',
    })
    return {
      payments: {
        ...payments,
        createCheckoutSession: async (request: Parameters<typeof payments.createCheckoutSession>[0]) => {
          await beforeCreate?.()
          return payments.createCheckoutSession(request)
        },
        expireSession: async (id: string) => {
          await duringExpire?.()
          if (expireDown) throw new PaymentProviderError('connection reset')
          return payments.expireSession(id)
        },
      },
    }
  })
})
afterAll(() => {
  shop.close()
  stripe.stop()
})

let code = LAST_USE
beforeEach(async () => {
  // A code of its own per test, one use in all; a fresh window of the code-guess limit.
  code = `${LAST_USE}${++codes}`
  await shop.deps.db
    .insert(discountCodes)
    .values({ code, type: 'fixed', amount: 1000, maxRedemptions: 1, createdAt: shop.clock.now() })
  await shop.deps.db.run(sql`delete from stock_levels`)
  await shop.deps.db.run(sql`delete from stock_reservations`)
  shop.clock.advance(11 * 60_000)
})

/** Opens a session for `items` at the rate given, or a standard rate asked for now. */
async function open(items: Items, extra: Record<string, unknown> = {}, rate?: RateAnswer) {
  rate ??= rateFor(await getRates(shop, items), 'USPS Ground Advantage')
  const res = await shop.call(
    'POST',
    '/api/create-checkout-session',
    sessionBody(items, rate, { discount_code: code, ...extra }),
  )
  return { status: res.status, body: (await res.json()) as { sessionId?: string; error?: string } }
}

/** Opens a session while the provider cannot be reached to open one. */
async function openWhileProviderDown(items: Items, extra: Record<string, unknown> = {}, rate?: RateAnswer) {
  beforeCreate = async () => {
    throw new PaymentProviderError('connection reset')
  }
  try {
    return await open(items, extra, rate)
  } finally {
    beforeCreate = null
  }
}

/** The session an answer opened ('' when it opened none). */
const idOf = (answer: Awaited<ReturnType<typeof open>>) => answer.body.sessionId ?? ''

async function checkCode(extra: Record<string, unknown> = {}) {
  const res = await shop.call('POST', '/api/validate-discount', { code, amount: '42.00', ...extra })
  return { status: res.status, body: (await res.json()) as { error?: string; discountCents?: number } }
}

async function statusOf(sessionId: string) {
  const [row] = await shop.deps.db
    .select({ status: checkoutSessions.status })
    .from(checkoutSessions)
    .where(eq(checkoutSessions.id, sessionId))
  return row?.status
}

let sessionsBefore = 0
beforeEach(() => {
  sessionsBefore = stripe.sessions.size
})

/** The statuses of the code's uses a session holds. */
async function usesOf(sessionId: string) {
  const [session] = await shop.deps.db
    .select({ key: checkoutSessions.discountReservationKey })
    .from(checkoutSessions)
    .where(eq(checkoutSessions.id, sessionId))
  const rows = await shop.deps.db
    .select({ status: discountRedemptions.status })
    .from(discountRedemptions)
    .where(eq(discountRedemptions.reservationKey, session?.key ?? ''))
  return rows.map((row) => row.status)
}

/** The session ends unpaid (the provider's expiry, or a failed bank debit), here and at Stripe, its use released. */
async function endUnpaid(sessionId: string) {
  const ended = stripe.sessions.get(sessionId)
  if (ended) ended.status = 'expired'
  await shop.deps.db
    .update(checkoutSessions)
    .set({ status: 'expired' })
    .where(eq(checkoutSessions.id, sessionId))
  await shop.deps.db.run(sql`update discount_redemptions set status = 'released' where code = ${code}`)
}

async function liveUses() {
  const [row] = await shop.deps.db
    .select({ n: sql<number>`count(*)` })
    .from(discountRedemptions)
    .where(and(eq(discountRedemptions.code, code), eq(discountRedemptions.status, 'reserved')))
  return row?.n
}

describe("the cart's own checks", () => {
  test("the discount check does not count the use the cart's open session holds", async () => {
    const first = await open([{ id: OIL, quantity: 2 }])
    expect(first.status).toBe(200)

    expect(await checkCode()).toEqual({ status: 422, body: { error: USED_UP } })
    const own = await checkCode({ open_session: idOf(first) })
    expect(own.status).toBe(200)
    expect(own.body.discountCents).toBe(1000)
  })

  test("the rates price the goods with the code the cart's open session holds", async () => {
    const first = await open([{ id: OIL, quantity: 2 }])
    const standard = (extra: Record<string, unknown>) =>
      getRates(shop, [{ id: OIL, quantity: 2 }], undefined, { discount_code: code, ...extra }).then((rates) =>
        rateFor(rates, 'USPS Ground Advantage'),
      )
    // Counted as used up, the code gives nothing: $42.00 ships free. The cart's own: $32.00 does not.
    expect((await standard({})).free).toBe(true)
    expect((await standard({ open_session: idOf(first) })).free).toBe(false)
  })

  test("another cart's session, or one no longer open, is not the cart's own", async () => {
    const first = await open([{ id: OIL, quantity: 2 }])
    stripe.complete(idOf(first))
    await shop.deps.db
      .update(checkoutSessions)
      .set({ status: 'payment_pending' })
      .where(eq(checkoutSessions.id, idOf(first)))
    expect(await checkCode({ open_session: idOf(first) })).toEqual({
      status: 422,
      body: { error: USED_UP },
    })
    expect(await checkCode({ open_session: 'cs_test_nobody' })).toEqual({
      status: 422,
      body: { error: USED_UP },
    })
  })
})

describe("the cart's next session", () => {
  test('ends the earlier one, so the changed cart gets the last use', async () => {
    const first = await open([{ id: OIL, quantity: 2 }])
    expect(first.status).toBe(200)

    // Without naming the earlier session the cart competes with itself, as before.
    expect(await open([{ id: OIL, quantity: 3 }])).toEqual({ status: 422, body: { error: USED_UP } })

    const next = await open([{ id: OIL, quantity: 3 }], { open_session: idOf(first) })
    expect(next.status).toBe(200)
    expect(stripe.sessions.get(idOf(first))?.status).toBe('expired')
    expect(await statusOf(idOf(first))).toBe('expired')
    expect(await statusOf(idOf(next))).toBe('open')
    expect(await liveUses()).toBe(1)
  })

  test('ends the earlier one, so the changed cart gets the last units', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 1 })
    const first = await open([{ id: REPAIR, quantity: 1 }], { discount_code: null })
    expect(first.status).toBe(200)

    const next = await open(
      [
        { id: REPAIR, quantity: 1 },
        { id: OIL, quantity: 1 },
      ],
      { discount_code: null, open_session: idOf(first) },
    )
    expect(next.status).toBe(200)
    expect(await reservationsOf(shop, REPAIR, '')).toMatchObject({ reserved: { units: 1, rows: 1 } })
    expect(await statusOf(idOf(first))).toBe('expired')
  })

  test('the same cart sent again gets its own session back, still open', async () => {
    // Pay pressed again with nothing changed: the same rate, the same request.
    const rate = rateFor(await getRates(shop, [{ id: OIL, quantity: 2 }]), 'USPS Ground Advantage')
    const first = await open([{ id: OIL, quantity: 2 }], {}, rate)
    const again = await open([{ id: OIL, quantity: 2 }], { open_session: idOf(first) }, rate)
    expect(again).toEqual({
      status: 200,
      body: expect.objectContaining({ sessionId: idOf(first) }),
    })
    expect(stripe.sessions.get(idOf(first))?.status).toBe('open')
    expect(await statusOf(idOf(first))).toBe('open')
  })

  test('a corrected name or another billing address is a new session, stored with them for its order', async () => {
    // Back from the payment page to fix the recipient's name and give a billing address: the rate still
    // holds (a quote leaves the name out), so only the addresses differ from the first request.
    const rate = rateFor(await getRates(shop, [{ id: OIL, quantity: 2 }]), 'USPS Ground Advantage')
    const typo = { ...HOME, name: 'Dnaa Cloe' }
    const first = await open([{ id: OIL, quantity: 2 }], { shipping_address: typo }, rate)
    expect(first.status).toBe(200)
    const billing = { ...HOME, street1: '99 Other St', city: 'Oakland', zip: '94607' }
    const fixed = await open(
      [{ id: OIL, quantity: 2 }],
      { shipping_address: HOME, billing_address: billing, open_session: idOf(first) },
      rate,
    )
    expect(fixed.status).toBe(200)
    expect(idOf(fixed)).not.toBe(idOf(first))
    expect(await statusOf(idOf(first))).toBe('expired')
    const [stored] = await shop.deps.db
      .select({ shipping: checkoutSessions.shippingAddress, billing: checkoutSessions.billingAddress })
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, idOf(fixed)))
    expect(JSON.parse(stored?.shipping ?? '{}')).toMatchObject({ name: 'Dana Cole' })
    expect(JSON.parse(stored?.billing ?? '{}')).toMatchObject({ street1: '99 Other St', city: 'Oakland' })
    // The code's one use followed the cart to the corrected session.
    expect(await usesOf(idOf(fixed))).toEqual(['reserved'])
    expect(await liveUses()).toBe(1)

    // The corrected request sent again is still one session.
    const again = await open(
      [{ id: OIL, quantity: 2 }],
      { shipping_address: HOME, billing_address: billing, open_session: idOf(fixed) },
      rate,
    )
    expect(idOf(again)).toBe(idOf(fixed))
  })

  test("another customer's session is left alone", async () => {
    const first = await open([{ id: OIL, quantity: 2 }], { customer_email: 'first@example.com' })
    const other = await open([{ id: OIL, quantity: 3 }], {
      customer_email: 'someone.else@example.com',
      open_session: idOf(first),
    })
    expect(other).toEqual({ status: 422, body: { error: USED_UP } })
    expect(stripe.sessions.get(idOf(first))?.status).toBe('open')
    expect(await statusOf(idOf(first))).toBe('open')
  })

  test('one paid meanwhile keeps its use for its order, and the shopper is told', async () => {
    const first = await open([{ id: OIL, quantity: 2 }])
    // Paid at Stripe; its event has not come in yet.
    stripe.complete(idOf(first))
    const next = await open([{ id: OIL, quantity: 3 }], { open_session: idOf(first) })
    expect(next).toEqual({ status: 409, body: { error: EARLIER_PAID_MESSAGE } })
    expect(await statusOf(idOf(first))).toBe('open')
    expect(await usesOf(idOf(first))).toEqual(['reserved'])
    expect(await liveUses()).toBe(1)
    expect(stripe.sessions.size).toBe(sessionsBefore + 1)
  })

  test('one the provider cannot end keeps its use and units; the next is given up (502)', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 1 })
    const first = await open([{ id: REPAIR, quantity: 1 }])
    expireDown = true
    try {
      const next = await open(
        [
          { id: REPAIR, quantity: 1 },
          { id: OIL, quantity: 1 },
        ],
        { open_session: idOf(first) },
      )
      expect(next).toEqual({ status: 502, body: { error: SESSION_REFUSED_MESSAGE } })
    } finally {
      expireDown = false
    }
    expect(stripe.sessions.get(idOf(first))?.status).toBe('open')
    expect(await usesOf(idOf(first))).toEqual(['reserved'])
    expect(await reservationsOf(shop, REPAIR, '')).toMatchObject({ reserved: { units: 1, rows: 1 } })
    expect(await liveUses()).toBe(1)
  })

  test('while the earlier one is being ended, its units and use are not free for others', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 2 })
    const first = await open([{ id: REPAIR, quantity: 2 }])
    // The cart drops the jars; meanwhile a stranger wants them and the code's one use.
    const strangers: Awaited<ReturnType<typeof open>>[] = []
    duringExpire = async () => {
      duringExpire = null
      const stranger = { customer_email: 'stranger@example.com' }
      strangers.push(await open([{ id: REPAIR, quantity: 2 }], { ...stranger, discount_code: null }))
      strangers.push(await open([{ id: OIL, quantity: 1 }], stranger))
    }
    expireDown = true
    try {
      const next = await open([{ id: OIL, quantity: 2 }], { open_session: idOf(first) })
      expect(next).toEqual({ status: 502, body: { error: SESSION_REFUSED_MESSAGE } })
    } finally {
      expireDown = false
      duringExpire = null
    }
    expect(strangers.map((answer) => answer.status)).toEqual([409, 422])
    expect(await reservationsOf(shop, REPAIR, '')).toMatchObject({ reserved: { units: 2, rows: 1 } })
    expect(await usesOf(idOf(first))).toEqual(['reserved'])
    expect(await liveUses()).toBe(1)
  })

  test('a request whose session ended unpaid gets a new session, named or not', async () => {
    const ground = rateFor(await getRates(shop, [{ id: OIL, quantity: 2 }]), 'USPS Ground Advantage')
    const first = await open([{ id: OIL, quantity: 2 }], {}, ground)
    // Ended by the provider's expiry (or a failed bank debit): the cart no longer names it.
    await endUnpaid(idOf(first))
    const again = await open([{ id: OIL, quantity: 2 }], {}, ground)
    expect(again.status).toBe(200)
    expect(idOf(again)).not.toBe(idOf(first))
    expect(stripe.sessions.get(idOf(again))?.status).toBe('open')
    expect(await liveUses()).toBe(1)
  })

  test('a failure while the earlier one is ended gives the new holds back; a hand-over a crash left is dropped', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 2 })
    const first = await open([{ id: REPAIR, quantity: 2 }], { discount_code: null })
    const next = [
      { id: OIL, quantity: 1 },
      { id: REPAIR, quantity: 2 },
    ]
    const rate = rateFor(await getRates(shop, next), 'USPS Ground Advantage')
    // Something other than the provider fails while the earlier session is being ended.
    duringExpire = async () => {
      duringExpire = null
      throw new Error('database is busy')
    }
    try {
      expect((await open(next, { discount_code: null, open_session: idOf(first) }, rate)).status).toBe(500)
    } finally {
      duringExpire = null
    }
    expect(await reservationsOf(shop, REPAIR, '')).toMatchObject({ reserved: { units: 2, rows: 1 } })
    // As a crash at that moment would leave it: the hand-over to the new request's key still there.
    const [given] = await shop.deps.db.all<{ key: string }>(
      sql`select reservation_key as key from stock_reservations where status = 'released' and product_id = ${REPAIR}`,
    )
    const [earlier] = await shop.deps.db.all<{ key: string }>(
      sql`select stock_reservation_key as key from checkout_sessions where id = ${idOf(first)}`,
    )
    await shop.deps.db.run(
      sql`insert into stock_handovers (from_key, to_key, created_at) values (${earlier?.key}, ${given?.key}, ${Date.now()})`,
    )
    // The earlier session is paid by bank debit (no longer open, it keeps its units); the same request
    // again must find them held.
    await shop.deps.db
      .update(checkoutSessions)
      .set({ status: 'payment_pending' })
      .where(eq(checkoutSessions.id, idOf(first)))
    expect((await open(next, { discount_code: null }, rate)).status).toBe(409)
    expect(await reservationsOf(shop, REPAIR, '')).toMatchObject({ reserved: { units: 2, rows: 1 } })
  })

  test('a session ended by another tab while the same request was being reserved: a new one, not the ended one', async () => {
    const rate = rateFor(await getRates(shop, [{ id: OIL, quantity: 2 }]), 'USPS Ground Advantage')
    const first = await open([{ id: OIL, quantity: 2 }], {}, rate)
    // Pay pressed again with nothing changed; just before the provider is asked, another tab's checkout
    // ends that very session.
    beforeCreate = async () => {
      beforeCreate = null
      await open([{ id: OIL, quantity: 3 }], { open_session: idOf(first) })
    }
    let again: Awaited<ReturnType<typeof open>>
    try {
      again = await open([{ id: OIL, quantity: 2 }], { open_session: idOf(first) }, rate)
    } finally {
      beforeCreate = null
    }
    expect(await statusOf(idOf(first))).toBe('expired')
    expect(idOf(again)).not.toBe(idOf(first))
    expect(again.status === 200 || again.status === 422).toBe(true)
    // Whatever the answer, the ended session holds nothing.
    expect(await usesOf(idOf(first))).not.toContain('reserved')
  })

  test('the same request again for a session paid or on its way is told so, and takes nothing', async () => {
    const rate = rateFor(await getRates(shop, [{ id: OIL, quantity: 2 }]), 'USPS Ground Advantage')
    const first = await open([{ id: OIL, quantity: 2 }], {}, rate)
    // A bank debit finished: on its way.
    await shop.deps.db
      .update(checkoutSessions)
      .set({ status: 'payment_pending' })
      .where(eq(checkoutSessions.id, idOf(first)))
    const again = await open([{ id: OIL, quantity: 2 }], {}, rate)
    expect(again).toEqual({ status: 409, body: { error: EARLIER_PAID_MESSAGE } })
    expect(await usesOf(idOf(first))).toEqual(['reserved'])
    expect(await liveUses()).toBe(1)
    // Paid, then cancelled (its use released): the same request again is told so and takes the use for
    // nothing.
    await shop.deps.db
      .update(checkoutSessions)
      .set({ status: 'complete' })
      .where(eq(checkoutSessions.id, idOf(first)))
    await shop.deps.db.run(sql`update discount_redemptions set status = 'released' where code = ${code}`)
    expect(await open([{ id: OIL, quantity: 2 }], {}, rate)).toEqual({
      status: 409,
      body: { error: EARLIER_PAID_MESSAGE },
    })
    expect(await liveUses()).toBe(0)
  })

  test('the same request again after its session ended and the next one took the last use: that next one', async () => {
    const rate = rateFor(await getRates(shop, [{ id: OIL, quantity: 2 }]), 'USPS Ground Advantage')
    const first = await open([{ id: OIL, quantity: 2 }], {}, rate)
    await endUnpaid(idOf(first))
    const next = await open([{ id: OIL, quantity: 2 }], {}, rate)
    expect(next.status).toBe(200)
    // Sent once more (a retry arriving late): the session of the derived key, not 'used up'.
    const late = await open([{ id: OIL, quantity: 2 }], {}, rate)
    expect(late).toEqual({ status: 200, body: expect.objectContaining({ sessionId: idOf(next) }) })
    expect(await liveUses()).toBe(1)
  })

  test('a next session refused leaves the earlier one as it was, and says what is left counting its units', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 2 })
    await shop.services.stock.setLevels(OIL, { variants: { 'Hammered Citrus': 0 } })
    const first = await open([{ id: REPAIR, quantity: 2 }], { discount_code: null })
    // More than the shelf holds, the earlier session's two included.
    const more = await open([{ id: REPAIR, quantity: 3 }], { discount_code: null, open_session: idOf(first) })
    expect(more).toEqual({
      status: 409,
      body: expect.objectContaining({
        error: 'Only 2 left of Workforce Repair Original Grit. Please lower the quantity in your cart.',
      }),
    })
    // A line sold out.
    const soldOut = await open(
      [
        { id: REPAIR, quantity: 2 },
        { id: OIL, quantity: 1 },
      ],
      {
        discount_code: null,
        open_session: idOf(first),
      },
    )
    expect(soldOut.status).toBe(409)
    expect(stripe.sessions.get(idOf(first))?.status).toBe('open')
    expect(await statusOf(idOf(first))).toBe('open')
    expect(await reservationsOf(shop, REPAIR, '')).toMatchObject({ reserved: { units: 2, rows: 1 } })
  })

  test('back to a cart it had before, the cart gets a new payable session, not the ended one', async () => {
    // Ground, then another rate, then Ground again: the first request again, whose session was ended.
    const ground = rateFor(await getRates(shop, [{ id: OIL, quantity: 2 }]), 'USPS Ground Advantage')
    const first = await open([{ id: OIL, quantity: 2 }], {}, ground)
    const second = await open([{ id: OIL, quantity: 2 }], { open_session: idOf(first) })
    expect(await statusOf(idOf(first))).toBe('expired')
    const third = await open([{ id: OIL, quantity: 2 }], { open_session: idOf(second) }, ground)
    expect(third.status).toBe(200)
    expect([idOf(first), idOf(second)]).not.toContain(idOf(third))
    expect(stripe.sessions.get(idOf(third))?.status).toBe('open')
    expect(await statusOf(idOf(third))).toBe('open')
    expect(await statusOf(idOf(second))).toBe('expired')
    expect(await liveUses()).toBe(1)
    // The same again (a double click) gets that same new session.
    const again = await open([{ id: OIL, quantity: 2 }], { open_session: idOf(second) }, ground)
    expect(idOf(again)).toBe(idOf(third))
  })
})

describe('the same request twice, and sessions the shop has not heard the end of', () => {
  const OILS: Items = [{ id: OIL, quantity: 2 }]

  test('sent again while its session is open, one failing at the provider leaves that session holding', async () => {
    await shop.services.stock.setLevels(OIL, { variants: { 'Hammered Citrus': 2 } })
    const rate = rateFor(await getRates(shop, OILS), 'USPS Ground Advantage')
    const first = await open(OILS, {}, rate)
    expect(first.status).toBe(200)
    expect(await openWhileProviderDown(OILS, {}, rate)).toEqual({
      status: 502,
      body: { error: SESSION_REFUSED_MESSAGE },
    })
    expect(await usesOf(idOf(first))).toEqual(['reserved'])
    expect(await reservationsOf(shop, OIL, 'Hammered Citrus')).toMatchObject({ reserved: { units: 2 } })
  })

  test('sent twice at once, the one failing before the other is stored leaves the other holding', async () => {
    await shop.services.stock.setLevels(OIL, { variants: { 'Hammered Citrus': 2 } })
    const rate = rateFor(await getRates(shop, OILS), 'USPS Ground Advantage')
    let calls = 0
    let letFirstOn = () => {}
    const firstWaits = new Promise<void>((resolve) => {
      letFirstOn = resolve
    })
    let firstAsked = () => {}
    const firstAtProvider = new Promise<void>((resolve) => {
      firstAsked = resolve
    })
    beforeCreate = async () => {
      calls += 1
      if (calls === 1) {
        firstAsked()
        await firstWaits
        return
      }
      throw new PaymentProviderError('connection reset')
    }
    try {
      const first = open(OILS, {}, rate)
      await firstAtProvider
      expect(await open(OILS, {}, rate)).toEqual({ status: 502, body: { error: SESSION_REFUSED_MESSAGE } })
      letFirstOn()
      const opened = await first
      expect(opened.status).toBe(200)
      expect(await usesOf(idOf(opened))).toEqual(['reserved'])
    } finally {
      beforeCreate = null
    }
    expect(await reservationsOf(shop, OIL, 'Hammered Citrus')).toMatchObject({ reserved: { units: 2 } })
    expect(await liveUses()).toBe(1)
  })

  test('alone, a request the provider refuses gives its holds back; a request a crash left stops counting', async () => {
    await shop.services.stock.setLevels(OIL, { variants: { 'Hammered Citrus': 2 } })
    const rate = rateFor(await getRates(shop, OILS), 'USPS Ground Advantage')
    beforeCreate = async () => {
      // A request under the same key that a crash left in flight 20 minutes ago.
      const [held] = await shop.deps.db.all<{ key: string }>(
        sql`select reservation_key as key from checkout_requests order by started_at desc limit 1`,
      )
      await shop.deps.db.run(
        sql`insert into checkout_requests (reservation_key, request_id, started_at)
          values (${held?.key}, 'crashed', ${shop.clock.now().getTime() - 20 * 60_000})`,
      )
      throw new PaymentProviderError('connection reset')
    }
    try {
      expect((await open(OILS, {}, rate)).status).toBe(502)
    } finally {
      beforeCreate = null
    }
    expect(await liveUses()).toBe(0)
    const units = await reservationsOf(shop, OIL, 'Hammered Citrus')
    expect(units).toMatchObject({ released: { units: 2 } })
    expect(units).not.toHaveProperty('reserved')
    // The sweep forgets it.
    await shop.sweep()
    const [left] = await shop.deps.db.all<{ n: number }>(sql`select count(*) as n from checkout_requests`)
    expect(left?.n).toBe(0)
  })

  test('a cart naming its open session, while this very request was paid or is on its way: told so, nothing ended', async () => {
    const ground = rateFor(await getRates(shop, OILS), 'USPS Ground Advantage')
    const paid = await open(OILS, {}, ground)
    // Its bank debit is on its way; the cart was changed and went to payment again in another tab.
    await shop.deps.db
      .update(checkoutSessions)
      .set({ status: 'payment_pending' })
      .where(eq(checkoutSessions.id, idOf(paid)))
    const other = await open([{ id: REPAIR, quantity: 1 }], { discount_code: null })
    expect(other.status).toBe(200)
    // Back to the first cart, naming the other tab's session.
    const back = await open(OILS, { open_session: idOf(other) }, ground)
    expect(back).toEqual({ status: 409, body: { error: EARLIER_PAID_MESSAGE } })
    expect(stripe.sessions.get(idOf(other))?.status).toBe('open')
    expect(await statusOf(idOf(other))).toBe('open')
    expect(await usesOf(idOf(paid))).toEqual(['reserved'])
  })

  test('sent again after Stripe ended its session without telling the shop yet: a new, payable session', async () => {
    const ground = rateFor(await getRates(shop, OILS), 'USPS Ground Advantage')
    const first = await open(OILS, {}, ground)
    // Expired at Stripe; its event is late.
    const atStripe = stripe.sessions.get(idOf(first))
    if (atStripe) atStripe.status = 'expired'
    const again = await open(OILS, {}, ground)
    expect(again.status).toBe(200)
    expect(idOf(again)).not.toBe(idOf(first))
    expect(stripe.sessions.get(idOf(again))?.status).toBe('open')
    expect(await statusOf(idOf(first))).toBe('expired')
    expect(await statusOf(idOf(again))).toBe('open')
    expect(await liveUses()).toBe(1)
  })

  test('sent again after it was paid at Stripe, its event not here yet: told so, its use kept for the order', async () => {
    const ground = rateFor(await getRates(shop, OILS), 'USPS Ground Advantage')
    const first = await open(OILS, {}, ground)
    stripe.complete(idOf(first))
    expect(await open(OILS, {}, ground)).toEqual({ status: 409, body: { error: EARLIER_PAID_MESSAGE } })
    expect(await usesOf(idOf(first))).toEqual(['reserved'])
    expect(stripe.sessions.size).toBe(sessionsBefore + 1)
  })

  test('a request that lost the last use is not left in flight to keep a use held later', async () => {
    const rate = rateFor(await getRates(shop, OILS), 'USPS Ground Advantage')
    const [sams, danas] = await Promise.all([
      open(OILS, { customer_email: 'sam@example.com' }, rate),
      open(OILS, {}, rate),
    ])
    expect([sams.status, danas]).toEqual([200, { status: 422, body: { error: USED_UP } }])
    const [left] = await shop.deps.db.all<{ n: number }>(sql`select count(*) as n from checkout_requests`)
    expect(left?.n).toBe(0)
    // Sam's session ends unpaid; Dana's same request meets the provider down: nothing kept for nobody.
    await endUnpaid(idOf(sams))
    expect((await openWhileProviderDown(OILS, {}, rate)).status).toBe(502)
    expect(await liveUses()).toBe(0)
    expect((await open(OILS, { customer_email: 'lee@example.com' })).status).toBe(200)
  })

  test('a cart naming its open session, while this very request was paid at Stripe unheard of: nothing ended', async () => {
    const ground = rateFor(await getRates(shop, OILS), 'USPS Ground Advantage')
    const paid = await open(OILS, {}, ground)
    stripe.complete(idOf(paid))
    const other = await open([{ id: REPAIR, quantity: 1 }], { discount_code: null })
    const back = await open(OILS, { open_session: idOf(other) }, ground)
    expect(back).toEqual({ status: 409, body: { error: EARLIER_PAID_MESSAGE } })
    expect(stripe.sessions.get(idOf(other))?.status).toBe('open')
    expect(await statusOf(idOf(other))).toBe('open')
  })
})
