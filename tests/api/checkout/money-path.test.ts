// The money path under attack: discount limits in parallel, crashes between storing a payment event and
// making its order, and code guessing through every call that takes a code.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { DemoPaymentProvider } from '../../../api/adapters/types'
import { discountCodes, discountRedemptions } from '../../../db/schema/discounts'
import { orders } from '../../../db/schema/orders'
import { webhookEvents } from '../../../db/schema/webhooks'
import { signUp } from '../support/accounts'
import { createTestApp, type TestApp } from '../support/test-app'
import { createSession, getRates, HOME, type Items, rateFor, sessionBody } from './helpers'

const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', name: 'Dana Cole' }
const ITEMS: Items = [{ id: 1, quantity: 2 }]

let shop: TestApp
let shopper = 0
/** Each test is its own shopper, so per-address limits only bite where a test means them to. */
const from = () => ({ 'x-forwarded-for': `198.51.100.${shopper}` })

beforeEach(async () => {
  shop?.close()
  shop = await createTestApp({ TRUST_PROXY: 'true' })
  shopper++
})
afterAll(() => shop.close())

async function rate() {
  return rateFor(await getRates(shop, ITEMS), 'USPS Ground Advantage')
}

/** Opens a checkout session for `email` with `code`; the raw answer, so refusals can be read. */
async function open(email: string, code: string | null, rateId: string) {
  return shop.call(
    'POST',
    '/api/create-checkout-session',
    sessionBody(ITEMS, { id: rateId }, { customer_email: email, discount_code: code }),
    from(),
  )
}

function pay(sessionId: string) {
  return shop.call('POST', `/api/demo-payments/${sessionId}/pay`, CARD, from())
}

const redeemed = async (code: string) =>
  (await shop.deps.db.select().from(discountRedemptions).where(eq(discountRedemptions.code, code))).filter(
    (row) => row.status === 'redeemed',
  )

describe('discount limits hold when sessions are opened in parallel', () => {
  // docs/decisions/021: a guest's sessions never refuse CREW10 for what another session of the same e-mail
  // holds (a stranger could hold it) or has paid (the answer would tell them); the first payment ends the
  // others, and a payment that slips past is marked for staff.
  test('CREW10: five guest sessions opened in parallel for one e-mail: one order uses it, the rest are ended', async () => {
    // Five different sessions (different apartment lines, so not one repeated request), opened at once.
    const requests = await Promise.all(
      [1, 2, 3, 4, 5].map(async (n) => {
        const address = { ...HOME, street2: `Unit ${n}` }
        const quote = rateFor(await getRates(shop, ITEMS, address), 'USPS Ground Advantage')
        return sessionBody(
          ITEMS,
          { id: quote.id },
          { customer_email: 'crew@example.com', discount_code: 'CREW10', shipping_address: address },
        )
      }),
    )
    const answers = await Promise.all(
      requests.map((body) => shop.call('POST', '/api/create-checkout-session', body, from())),
    )
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200])
    const [winner, ...others] = await Promise.all(
      answers.map(async (res) => ((await res.json()) as { sessionId: string }).sessionId),
    )
    if (!winner) throw new Error('no session was opened')
    expect((await pay(winner)).status).toBe(200)
    await shop.runDueJobs()
    for (const sessionId of others) expect((await pay(sessionId)).status).toBe(409)
    expect(await redeemed('CREW10')).toHaveLength(1)
  })

  test('CREW10: five sessions opened in parallel by one signed-in account: one gets the code', async () => {
    const customer = await signUp(shop)
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map(async (n) => {
        const address = { ...HOME, street2: `Unit ${n}` }
        const quote = rateFor(await getRates(shop, ITEMS, address), 'USPS Ground Advantage')
        const body = sessionBody(
          ITEMS,
          { id: quote.id },
          { customer_email: customer.email, discount_code: 'CREW10', shipping_address: address },
        )
        return shop.call('POST', '/api/create-checkout-session', body, { ...from(), cookie: customer.cookie })
      }),
    )
    const opened = answers.filter((res) => res.status === 200)
    expect(opened).toHaveLength(1)
    for (const res of answers.filter((answer) => answer.status !== 200)) {
      expect(res.status).toBe(422)
      expect((await res.json()).error).toBe('This code is for your first order only.')
    }
    const { sessionId } = (await (opened[0] as Response).json()) as { sessionId: string }
    expect((await pay(sessionId)).status).toBe(200)
    expect(await redeemed('CREW10')).toHaveLength(1)
  })

  test('CREW10: a plus-address is the same customer, before and after paying', async () => {
    const quote = await rate()
    const id = async (res: Response) => {
      expect(res.status).toBe(200)
      return ((await res.json()) as { sessionId: string }).sessionId
    }
    const first = await id(await open('Sam@Example.com', 'CREW10', quote.id))
    const plus = await id(await open('sam+2@example.com', 'CREW10', quote.id))
    expect((await pay(first)).status).toBe(200)
    await shop.runDueJobs()
    // The first payment ended the plus-address session: it cannot be paid at the first-order price.
    expect((await pay(plus)).status).toBe(409)
    // One opened later goes through (nothing is told), and its order is marked for staff.
    const later = await id(await open('SAM+shop@example.com', 'CREW10', quote.id))
    expect((await pay(later)).status).toBe(200)
    const [order] = await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, later))
    expect(order?.discountWarning).toContain('CREW10 is for a first order only')
    expect(await redeemed('CREW10')).toHaveLength(2)
  })

  test('FIRST100: with 99 uses recorded, 8 sessions in parallel: exactly one is opened and paid', async () => {
    await shop.deps.db.insert(discountRedemptions).values(
      Array.from({ length: 99 }, (_, i) => ({
        code: 'FIRST100',
        status: 'redeemed' as const,
        orderRef: `old-${i}`,
        email: `old${i}@example.com`,
        customerKey: `old${i}@example.com`,
        createdAt: shop.clock.now(),
      })),
    )
    const quote = await rate()
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => open(`buyer${i}@example.com`, 'FIRST100', quote.id)),
    )
    const opened = answers.filter((res) => res.status === 200)
    expect(opened).toHaveLength(1)
    for (const res of answers.filter((answer) => answer.status !== 200)) {
      expect(res.status).toBe(422)
      expect((await res.json()).error).toBe('This discount code has been used up.')
    }
    const [winner] = opened
    if (!winner) throw new Error('no session was opened')
    const { sessionId } = (await winner.json()) as { sessionId: string }
    expect((await pay(sessionId)).status).toBe(200)
    expect(await redeemed('FIRST100')).toHaveLength(100)
  })

  test('an expired session gives its reservation back', async () => {
    await shop.deps.db.insert(discountCodes).values({
      code: 'LASTONE',
      type: 'percentage',
      amount: 5,
      maxRedemptions: 1,
      createdAt: shop.clock.now(),
    })
    const quote = await rate()
    const first = await open('first@example.com', 'LASTONE', quote.id)
    expect(first.status).toBe(200)
    const second = await open('second@example.com', 'LASTONE', quote.id)
    expect(second.status).toBe(422)
    // A day later the first session can no longer be paid: its hold on the code lapses.
    shop.clock.advance(26 * 60 * 60 * 1000)
    const fresh = await rate()
    expect((await open('second@example.com', 'LASTONE', fresh.id)).status).toBe(200)
  })

  test('a double click on Pay reserves the code once', async () => {
    const quote = await rate()
    const [a, b] = await Promise.all([
      open('twice@example.com', 'CREW10', quote.id),
      open('twice@example.com', 'CREW10', quote.id),
    ])
    if (!a || !b) throw new Error('two answers expected')
    expect([a.status, b.status]).toEqual([200, 200])
    expect(((await a.json()) as { sessionId: string }).sessionId).toBe(
      ((await b.json()) as { sessionId: string }).sessionId,
    )
  })
})

describe('no paid order is lost to a crash', () => {
  const provider = () => shop.deps.payments as DemoPaymentProvider

  test('an event stored by a process that died is not acknowledged while its lease runs, then finished', async () => {
    const { sessionId } = await createSession(shop, ITEMS, await rate())
    const prepared = await provider().preparePayment(sessionId, CARD)
    if (!prepared.ok) throw new Error(prepared.message)
    // The dead process had stored the event, taken its lease and marked the session paid, then died.
    await shop.services.webhooks.store(prepared.event)
    await shop.deps.db
      .update(webhookEvents)
      .set({ claimedUntil: shop.clock.now().getTime() + 60_000 })
      .where(eq(webhookEvents.id, prepared.event.id))
    expect(await provider().markPaid(sessionId)).toBe(true)

    // The customer presses Pay again: not 'already paid' with no order, and not a 2xx the provider trusts.
    const during = await pay(sessionId)
    expect(during.status).toBe(409)
    expect(await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId))).toEqual(
      [],
    )

    // Once the dead process's lease has run out, the sweep finishes the event: one order.
    shop.clock.advance(61_000)
    expect(await shop.sweepWebhooks()).toBe(1)
    expect(
      await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId)),
    ).toHaveLength(1)
    expect(await shop.sweepWebhooks()).toBe(0)
    const [event] = await shop.deps.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.id, prepared.event.id))
    expect(event?.status).toBe('processed')
  })

  test('an event stored before events kept their currency is finished by the sweep, in the currency the provider says', async () => {
    const { sessionId } = await createSession(shop, ITEMS, await rate())
    const prepared = await provider().preparePayment(sessionId, CARD)
    if (!prepared.ok) throw new Error(prepared.message)
    await shop.services.webhooks.store(prepared.event)
    // As an older version stored it: the session without its currency.
    const [stored] = await shop.deps.db
      .select({ payload: webhookEvents.payload })
      .from(webhookEvents)
      .where(eq(webhookEvents.id, prepared.event.id))
    const payload = JSON.parse(stored?.payload ?? '{}')
    delete payload.session.currency
    await shop.deps.db
      .update(webhookEvents)
      .set({ payload: JSON.stringify(payload) })
      .where(eq(webhookEvents.id, prepared.event.id))
    expect(await provider().markPaid(sessionId)).toBe(true)
    shop.clock.advance(5 * 60_000)
    expect(await shop.sweepWebhooks()).toBe(1)
    expect(
      await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId)),
    ).toHaveLength(1)
  })

  test('a demo session left paid with no order: paying again finishes it, once', async () => {
    const { sessionId } = await createSession(shop, ITEMS, await rate())
    const prepared = await provider().preparePayment(sessionId, CARD)
    if (!prepared.ok) throw new Error(prepared.message)
    await shop.services.webhooks.store(prepared.event)
    expect(await provider().markPaid(sessionId)).toBe(true)
    // …and the process died here, before the order was made.
    const again = await pay(sessionId)
    expect(again.status).toBe(200)
    expect((await again.json()).orderNumber).toMatch(/^\d{6}$/)
    const third = await pay(sessionId)
    expect(third.status).toBe(409)
    expect(
      await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId)),
    ).toHaveLength(1)
    const status = await (await shop.call('GET', `/api/checkout/session/${sessionId}/status`)).json()
    expect(status.status).toBe('complete')
  })

  test('the sweep leaves an event whose session was never marked paid', async () => {
    const { sessionId } = await createSession(shop, ITEMS, await rate())
    const prepared = await provider().preparePayment(sessionId, CARD)
    if (!prepared.ok) throw new Error(prepared.message)
    await shop.services.webhooks.store(prepared.event)
    // Died before marking the session paid: no money moved, so no order.
    shop.clock.advance(5 * 60_000)
    expect(await shop.sweepWebhooks()).toBe(0)
    expect(await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId))).toEqual(
      [],
    )
    // The customer pays: the stored event is finished with the payment.
    expect((await pay(sessionId)).status).toBe(200)
    expect(
      await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId)),
    ).toHaveLength(1)
  })
})

describe('discount codes cannot be guessed past the limit through other calls', () => {
  test('shipping rates and checkout sessions with a code count against the same 20 tries', async () => {
    const address = { 'x-forwarded-for': '192.0.2.77' }
    const statuses: number[] = []
    for (let i = 0; i < 10; i++) {
      const res = await shop.call(
        'POST',
        '/api/shipping/rates',
        { address: HOME, items: [{ id: 1, quantity: 1 }], discount_code: `GUESS${i}` },
        address,
      )
      statuses.push(res.status)
    }
    const quote = await rate()
    for (let i = 10; i < 20; i++) {
      const res = await shop.call(
        'POST',
        '/api/create-checkout-session',
        sessionBody(ITEMS, { id: quote.id }, { discount_code: `GUESS${i}` }),
        address,
      )
      statuses.push(res.status)
    }
    expect(statuses.every((status) => status !== 429)).toBe(true)
    const validate = await shop.call(
      'POST',
      '/api/validate-discount',
      { code: 'GRIT15', amount: 40 },
      address,
    )
    expect(validate.status).toBe(429)
    expect(Number(validate.headers.get('retry-after'))).toBeGreaterThan(0)
    const rates = await shop.call(
      'POST',
      '/api/shipping/rates',
      { address: HOME, items: [{ id: 1, quantity: 1 }], discount_code: 'GRIT15' },
      address,
    )
    expect(rates.status).toBe(429)
    // Rates without a code are not guesses.
    const plain = await shop.call(
      'POST',
      '/api/shipping/rates',
      { address: HOME, items: [{ id: 1, quantity: 1 }] },
      address,
    )
    expect(plain.status).toBe(200)
  })
})
