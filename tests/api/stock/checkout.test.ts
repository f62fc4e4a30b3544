// Stock at checkout: opening a session holds the units of every counted line, in one transaction with the
// discount's use; payment sells them; an expired or ended session gives them back; the last units go to
// exactly as many sessions as there are units (docs/decisions/026-stock-reserved-at-checkout.md).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { PaymentProviderError } from '../../../api/adapters/types'
import { loadCatalogFromContent, PRODUCT_CONTENT_DIR } from '../../../api/modules/catalog/content'
import { syncCatalog } from '../../../api/modules/catalog/service'
import { RESERVATION_LIFETIME_MS } from '../../../api/modules/checkout/model'
import { IN_FLIGHT_LIMIT_MS } from '../../../api/modules/stock/service'
import { discountCodes, discountRedemptions } from '../../../db/schema/discounts'
import { orderLines, orders } from '../../../db/schema/orders'
import { stockReservations } from '../../../db/schema/stock'
import { getRates, payDemo, rateFor, sessionBody } from '../checkout/helpers'
import { planOfSent } from '../support/query-plan'
import { createTestApp, type TestApp } from '../support/test-app'
import { onHand, reservationsOf } from './helpers'

const OIL = 1 // Hammered Citrus: scents Hammered Citrus, Cedar Shop, Unscented
const BALM = 2 // Barrel & Timber: scents, never counted here
const REPAIR = 4 // Workforce Repair Original Grit: no scents

type Line = { id: number; quantity: number; variant?: string }

let shop: TestApp
let shopper = 0

beforeAll(async () => {
  // Every shopper from an address of their own, as in a shop: the per-address limits stay out of the way.
  shop = await createTestApp({ TRUST_PROXY: 'true' })
})
afterAll(() => shop.close())
beforeEach(async () => {
  await shop.deps.db.run(sql`delete from stock_levels`)
  await shop.deps.db.run(sql`delete from stock_reservations`)
  shop.clock.advance(2 * 60_000)
})

/** POST /api/create-checkout-session for `lines`, from a shopper of its own (own e-mail, own address). */
async function openSession(lines: Line[], extra: Record<string, unknown> = {}) {
  const n = ++shopper
  const from = { 'x-forwarded-for': `198.51.100.${n % 250}`, 'x-test-shopper': String(n) }
  const rate = rateFor(await getRates(shop, lines, undefined, {}, from), 'USPS Ground Advantage')
  const body = sessionBody(lines, rate, { customer_email: `shopper${n}@example.com`, ...extra })
  body.line_items = (body.line_items as Record<string, unknown>[]).map((item, index) => ({
    ...item,
    ...(lines[index]?.variant ? { variant: lines[index]?.variant } : {}),
  }))
  const res = await shop.call('POST', '/api/create-checkout-session', body, from)
  return { status: res.status, body: (await res.json()) as { sessionId?: string; error?: string } }
}

/** The order a session's payment made: its id and its stock warning. */
async function orderOf(sessionId: string | undefined) {
  const [order] = await shop.deps.db
    .select({ id: orders.id, warning: orders.stockWarning })
    .from(orders)
    .where(eq(orders.checkoutSessionId, sessionId ?? ''))
  if (!order) throw new Error(`no order for ${sessionId}`)
  return order
}

async function orderUnits(productId: number, variant: string | null) {
  const [row] = await shop.deps.db
    .select({ units: sql<number>`coalesce(sum(${orderLines.quantity}), 0)` })
    .from(orderLines)
    .where(sql`${orderLines.productId} = ${productId} and ${orderLines.variant} is ${variant}`)
  return row?.units ?? 0
}

describe('the last units', () => {
  test('30 parallel sessions for 5 units, then all paid: exactly 5 orders, none oversold, the rest refused', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 5 })
    const ordersBefore = await orderUnits(REPAIR, null)

    const answers = await Promise.all(
      Array.from({ length: 30 }, () => openSession([{ id: REPAIR, quantity: 1 }])),
    )

    const opened = answers.filter((answer) => answer.status === 200)
    const refused = answers.filter((answer) => answer.status !== 200)
    expect(opened).toHaveLength(5)
    expect(refused).toHaveLength(25)
    for (const answer of refused) {
      expect(answer.status).toBe(409)
      expect(answer.body.error).toBe(
        'Workforce Repair Original Grit is sold out. Please remove it from your cart.',
      )
    }
    expect(await reservationsOf(shop, REPAIR, '')).toEqual({ reserved: { units: 5, rows: 5 } })

    const paid = await Promise.all(opened.map((answer) => payDemo(shop, answer.body.sessionId ?? '')))
    expect(paid.map((res) => res.status)).toEqual([200, 200, 200, 200, 200])
    expect((await orderUnits(REPAIR, null)) - ordersBefore).toBe(5)
    expect(await onHand(shop, REPAIR, '')).toBe(0)
    expect(await reservationsOf(shop, REPAIR, '')).toEqual({ sold: { units: 5, rows: 5 } })
  }, 30_000)

  test('the refusal names how many are left, and the variant', async () => {
    await shop.services.stock.setLevels(OIL, { variants: { 'Cedar Shop': 2 } })
    const short = await openSession([{ id: OIL, quantity: 3, variant: 'Cedar Shop' }])
    expect(short).toEqual({
      status: 409,
      body: expect.objectContaining({
        error: 'Only 2 left of Hammered Citrus (Cedar Shop). Please lower the quantity in your cart.',
        shortage: { productId: OIL, variant: 'Cedar Shop', available: 2 },
      }),
    })
    expect((await openSession([{ id: OIL, quantity: 2, variant: 'Cedar Shop' }])).status).toBe(200)
  })

  test('a two-line cart whose second line is short reserves nothing', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 3 })
    await shop.services.stock.setLevels(OIL, { variants: { 'Cedar Shop': 1 } })
    const answer = await openSession([
      { id: REPAIR, quantity: 2 },
      { id: OIL, quantity: 2, variant: 'Cedar Shop' },
    ])
    expect(answer.status).toBe(409)
    expect(answer.body.error).toBe(
      'Only 1 left of Hammered Citrus (Cedar Shop). Please lower the quantity in your cart.',
    )
    expect(await reservationsOf(shop, REPAIR, '')).toEqual({})
    expect(await reservationsOf(shop, OIL, 'Cedar Shop')).toEqual({})
    // The first line's units are all still there for the next shopper.
    expect((await openSession([{ id: REPAIR, quantity: 3 }])).status).toBe(200)
  })

  test('variants are counted apart; a line without a variant is the first scent', async () => {
    await shop.services.stock.setLevels(OIL, { variants: { 'Hammered Citrus': 1, 'Cedar Shop': 1 } })
    expect((await openSession([{ id: OIL, quantity: 1, variant: 'Hammered Citrus' }])).status).toBe(200)
    expect(await openSession([{ id: OIL, quantity: 1, variant: 'Hammered Citrus' }])).toMatchObject({
      status: 409,
      body: { error: 'Hammered Citrus is sold out. Please remove it from your cart.' },
    })
    // What a shop card adds: the product page's preselected (first) scent.
    expect((await openSession([{ id: OIL, quantity: 1 }])).status).toBe(409)
    expect((await openSession([{ id: OIL, quantity: 1, variant: 'Cedar Shop' }])).status).toBe(200)
    // Unscented is not counted: it sells as before.
    expect((await openSession([{ id: OIL, quantity: 99, variant: 'Unscented' }])).status).toBe(200)
    expect(await reservationsOf(shop, OIL, 'Unscented')).toEqual({})
  })

  test('a scent the product does not have is refused', async () => {
    expect(await openSession([{ id: OIL, quantity: 1, variant: 'Motor Oil' }])).toMatchObject({
      status: 422,
      body: { error: 'Please choose a product option from the list.' },
    })
  })

  test('products nobody counts are unaffected', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => openSession([{ id: BALM, quantity: 99 }])))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    const [rows] = await shop.deps.db.select({ n: sql<number>`count(*)` }).from(stockReservations)
    expect(rows?.n).toBe(0)
    const paid = await payDemo(shop, answers[0]?.body.sessionId ?? '')
    expect(paid.status).toBe(200)
    expect(await onHand(shop, BALM, 'Barrel & Timber')).toBeUndefined()
  })

  test('a double click holds the units once', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 2 })
    const lines = [{ id: REPAIR, quantity: 2 }]
    const n = ++shopper
    const from = { 'x-forwarded-for': `198.51.100.${n % 250}` }
    const rate = rateFor(await getRates(shop, lines, undefined, {}, from), 'USPS Ground Advantage')
    const body = sessionBody(lines, rate, { customer_email: `shopper${n}@example.com` })
    const [first, second] = await Promise.all([
      shop.call('POST', '/api/create-checkout-session', body, from),
      shop.call('POST', '/api/create-checkout-session', body, from),
    ])
    expect([first.status, second.status]).toEqual([200, 200])
    expect(await reservationsOf(shop, REPAIR, '')).toEqual({ reserved: { units: 2, rows: 1 } })
  })
})

describe('holds that end', () => {
  test('an expired reservation returns its units', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 1 })
    expect((await openSession([{ id: REPAIR, quantity: 1 }])).status).toBe(200)
    expect((await openSession([{ id: REPAIR, quantity: 1 }])).status).toBe(409)
    // The stored session's hold lasts as long as it can be paid, and an hour more.
    shop.clock.advance(RESERVATION_LIFETIME_MS - 60_000)
    expect((await openSession([{ id: REPAIR, quantity: 1 }])).status).toBe(409)
    shop.clock.advance(2 * 60_000)
    expect((await openSession([{ id: REPAIR, quantity: 1 }])).status).toBe(200)
  })

  test('a session that ends unpaid gives its units back at once', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 1 })
    const held = await openSession([{ id: REPAIR, quantity: 1 }])
    expect(held.status).toBe(200)
    await shop.services.fulfilment.sessionEnded(held.body.sessionId ?? '', 'expired')
    expect(await reservationsOf(shop, REPAIR, '')).toEqual({ released: { units: 1, rows: 1 } })
    expect((await openSession([{ id: REPAIR, quantity: 1 }])).status).toBe(200)
  })

  test('a provider that refuses the session gives the units and the code’s use back, held again when Pay is pressed again', async () => {
    let refusals = 1
    const refusing = await createTestApp({}, (base) => ({
      payments: {
        ...base.payments,
        createCheckoutSession: (request) =>
          refusals-- > 0
            ? Promise.reject(new PaymentProviderError('provider down'))
            : base.payments.createCheckoutSession(request),
      },
    }))
    try {
      await refusing.services.stock.setLevels(REPAIR, { stock: 1 })
      const lines = [{ id: REPAIR, quantity: 2 }]
      const rate = rateFor(await getRates(refusing, lines), 'USPS Ground Advantage')
      await refusing.services.stock.setLevels(REPAIR, { stock: 2 })
      const res = await refusing.call(
        'POST',
        '/api/create-checkout-session',
        sessionBody(lines, rate, { discount_code: 'SAVE5' }),
      )
      expect(res.status).toBe(502)
      expect(await reservationsOf(refusing, REPAIR, '')).toEqual({ released: { units: 2, rows: 1 } })
      const uses = await refusing.deps.db
        .select({ status: discountRedemptions.status })
        .from(discountRedemptions)
      expect(uses).toEqual([{ status: 'released' }])

      // 'Please try again in a moment': the same request again (the code's use is not counted against the
      // request whose use was released) holds both again and opens the session.
      await refusing.deps.db
        .update(discountCodes)
        .set({ maxRedemptions: 1 })
        .where(eq(discountCodes.code, 'SAVE5'))
      const again = await refusing.call(
        'POST',
        '/api/create-checkout-session',
        sessionBody(lines, rate, { discount_code: 'SAVE5' }),
      )
      expect(again.status).toBe(200)
      expect(await reservationsOf(refusing, REPAIR, '')).toEqual({ reserved: { units: 2, rows: 1 } })
      expect(
        await refusing.deps.db.select({ status: discountRedemptions.status }).from(discountRedemptions),
      ).toEqual([{ status: 'reserved' }])
    } finally {
      refusing.close()
    }
  })

  /** The status of the code's use held under `key`. */
  async function codeUseOf(key: string) {
    const [use] = await shop.deps.db
      .select({ status: discountRedemptions.status })
      .from(discountRedemptions)
      .where(eq(discountRedemptions.reservationKey, key))
    return use?.status
  }

  /**
   * What a process killed between holding a checkout's units and storing its session leaves, as its
   * reserving transaction writes it: the hold and the code's use, for a session's life, and the request in
   * flight.
   */
  async function leftByACrash(key: string) {
    const now = shop.clock.now()
    await shop.deps.db.batch([
      shop.deps.db.run(sql`insert into discount_redemptions
          (code, status, reservation_key, email, customer_key, expires_at, created_at)
        values ('CREW10', 'reserved', ${key}, ${`${key}@example.com`}, ${key}, ${now.getTime() + RESERVATION_LIFETIME_MS},
          ${now.getTime()})`),
      ...(shop.services.stock.reserveStatements(
        key,
        [{ productId: REPAIR, variant: '', quantity: 1, label: 'Workforce Repair Original Grit' }],
        { now, expiresAt: new Date(now.getTime() + RESERVATION_LIFETIME_MS) },
      ) as [never]),
      shop.deps.db.run(sql`insert into checkout_requests (reservation_key, request_id, started_at)
        values (${key}, ${`crashed-${key}`}, ${now.getTime()})`),
    ])
  }

  test("a session never stored (the process died before it opened) lets its units and its code's use go within minutes", async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 1 })
    await leftByACrash('checkout-never-opened')
    expect((await openSession([{ id: REPAIR, quantity: 1 }])).status).toBe(409)
    // Still in flight for all the shop knows: the sweep leaves it.
    shop.clock.advance(IN_FLIGHT_LIMIT_MS - 60_000)
    await shop.sweep()
    expect((await openSession([{ id: REPAIR, quantity: 1 }])).status).toBe(409)
    expect(await codeUseOf('checkout-never-opened')).toBe('reserved')
    // Past the limit, the sweep gives its units and its code's use back and forgets it.
    shop.clock.advance(60_000)
    await shop.sweep()
    expect(await reservationsOf(shop, REPAIR, '')).toMatchObject({ released: { units: 1 } })
    expect(await codeUseOf('checkout-never-opened')).toBe('released')
    const [left] = await shop.deps.db.all<{ n: number }>(sql`select count(*) as n from checkout_requests`)
    expect(left?.n).toBe(0)
    expect((await openSession([{ id: REPAIR, quantity: 1 }])).status).toBe(200)
  })

  test('the sweep keeps what a dead request held when its key is not its alone', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 2 })
    // One key whose same request was sent again after the crash and stored its session (open, payable).
    await leftByACrash('checkout-sent-again')
    const now = shop.clock.now().getTime()
    await shop.deps.db.run(sql`insert into checkout_sessions (id, provider, status, email, shipping_address,
        billing_address, lines, stock_reservation_key, subtotal_cents, discount_cents, shipping_cents,
        total_cents, item_count, total_weight_tenths_oz, quote_id, shipping_carrier, shipping_service,
        shipping_service_token, estimated_days_min, estimated_days_max, created_at, updated_at)
      values ('cs_sent_again', 'demo', 'open', 'dana@example.com', '{}', '{}', '[]', 'checkout-sent-again',
        1300, 0, 500, 1800, 1, 26, 'q', 'USPS', 'Ground', 'usps_ground', 2, 5, ${now}, ${now})`)
    // Another whose twin is in flight right now.
    await leftByACrash('checkout-with-a-twin')
    shop.clock.advance(IN_FLIGHT_LIMIT_MS)
    await shop.deps.db.run(sql`insert into checkout_requests (reservation_key, request_id, started_at)
      values ('checkout-with-a-twin', 'twin', ${shop.clock.now().getTime()})`)
    await shop.sweep()
    expect(await reservationsOf(shop, REPAIR, '')).toEqual({ reserved: { units: 2, rows: 2 } })
    expect([await codeUseOf('checkout-sent-again'), await codeUseOf('checkout-with-a-twin')]).toEqual([
      'reserved',
      'reserved',
    ])
    // The dead requests' rows are gone; the twin is still in flight.
    const rows = await shop.deps.db.all<{ id: string }>(sql`select request_id as id from checkout_requests`)
    expect(rows).toEqual([{ id: 'twin' }])
  })
})

describe('with a discount code, in one transaction', () => {
  test('a code used up holds no units, and units too few hold no use of the code', async () => {
    await shop.deps.db
      .insert(discountCodes)
      .values({ code: 'ONEUSE', type: 'fixed', amount: 100, maxRedemptions: 1, createdAt: shop.clock.now() })
    await shop.services.stock.setLevels(REPAIR, { stock: 1 })

    // Too few units: the code's one use is not taken either.
    const short = await openSession([{ id: REPAIR, quantity: 2 }], { discount_code: 'ONEUSE' })
    expect(short.status).toBe(409)
    const uses = () =>
      shop.deps.db
        .select({ status: discountRedemptions.status })
        .from(discountRedemptions)
        .where(eq(discountRedemptions.code, 'ONEUSE'))
    expect(await uses()).toEqual([])

    await shop.services.stock.setLevels(REPAIR, { stock: 5 })
    expect((await openSession([{ id: REPAIR, quantity: 1 }], { discount_code: 'ONEUSE' })).status).toBe(200)
    // The code is used up: that session holds no units.
    const usedUp = await openSession([{ id: REPAIR, quantity: 1 }], { discount_code: 'ONEUSE' })
    expect(usedUp).toMatchObject({ status: 422, body: { error: 'This discount code has been used up.' } })
    expect(await reservationsOf(shop, REPAIR, '')).toEqual({ reserved: { units: 1, rows: 1 } })
  })
})

describe('payment', () => {
  test('a payment after its hold ended, finding too few, still makes the order, marked for staff', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 1 })
    const late = await openSession([{ id: REPAIR, quantity: 1 }])
    // Its session was reported expired first (events arrive in any order), and someone else took the unit.
    await shop.services.fulfilment.sessionEnded(late.body.sessionId ?? '', 'expired')
    const onTime = await openSession([{ id: REPAIR, quantity: 1 }])
    expect(onTime.status).toBe(200)

    expect((await payDemo(shop, late.body.sessionId ?? '')).status).toBe(200)
    expect((await payDemo(shop, onTime.body.sessionId ?? '')).status).toBe(200)

    const made = await shop.deps.db
      .select({ session: orders.checkoutSessionId, warning: orders.stockWarning })
      .from(orders)
      .where(sql`${orders.checkoutSessionId} in (${late.body.sessionId}, ${onTime.body.sessionId})`)
    const warningOf = (id?: string) => made.find((order) => order.session === id)?.warning
    const short = (paid: number, free: number) =>
      `Too few on the shelf at payment: Workforce Repair Original Grit: ${paid} paid for, ${free} were free. Check the shelf before packing; refund what cannot be sent.`
    expect(warningOf(late.body.sessionId)).toBe(short(1, 0))
    // The late payment took the unit the other held: the other found the shelf empty, and is looked at too.
    expect(warningOf(onTime.body.sessionId)).toBe(short(1, 0))
    // One unit owed to paid orders.
    expect(await onHand(shop, REPAIR, '')).toBe(-1)

    // Staff follow the advice: the late order, which cannot be sent, is cancelled; its unit comes back
    // to the shelf the other order took, and no more.
    const lateOrder = await orderOf(late.body.sessionId)
    await shop.services.fulfilment.cancel(lateOrder.id, 'staff', 'Nothing left to send')
    expect(await onHand(shop, REPAIR, '')).toBe(0)
    expect((await openSession([{ id: REPAIR, quantity: 1 }])).status).toBe(409)
  })

  test('staff set the shelf below what a live hold takes: the payment is marked, and a cancel puts back only what it took', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 2 })
    const held = await openSession([{ id: REPAIR, quantity: 2 }])
    expect(held.status).toBe(200)
    // A recount finds both jars broken, while the session still holds them.
    await shop.services.stock.setLevels(REPAIR, { stock: 0 })
    expect((await payDemo(shop, held.body.sessionId ?? '')).status).toBe(200)

    const order = await orderOf(held.body.sessionId)
    expect(order.warning).toBe(
      'Too few on the shelf at payment: Workforce Repair Original Grit: 2 paid for, 0 were free. Check the shelf before packing; refund what cannot be sent.',
    )
    expect(await onHand(shop, REPAIR, '')).toBe(-2)
    // The order cannot be sent and is cancelled: the shelf is empty again, not 2, and nothing can be sold.
    await shop.services.fulfilment.cancel(order.id, 'staff', 'Broken jars')
    expect(await onHand(shop, REPAIR, '')).toBe(0)
    expect((await openSession([{ id: REPAIR, quantity: 1 }])).status).toBe(409)
  })

  test('a line without a scent is sold and cancelled on the scent it held, though the content reorders scents before payment', async () => {
    await shop.services.stock.setLevels(OIL, { variants: { 'Hammered Citrus': 2, 'Cedar Shop': 2 } })
    const held = await openSession([{ id: OIL, quantity: 1 }])
    expect(held.status).toBe(200)
    expect(await reservationsOf(shop, OIL, 'Hammered Citrus')).toMatchObject({ reserved: { units: 1 } })

    // An editor moves Cedar Shop to the top of the product's scents while the shopper is paying.
    const catalog = loadCatalogFromContent(PRODUCT_CONTENT_DIR)
    const reordered = catalog.map((product) =>
      product.id === OIL ? { ...product, variants: [...product.variants].reverse() } : product,
    )
    try {
      await syncCatalog(shop.deps.db, reordered, new Date())
      await shop.services.catalog.reload()
      expect((await shop.services.catalog.byId(OIL))?.variants[0]).not.toBe('Hammered Citrus')

      expect((await payDemo(shop, held.body.sessionId ?? '')).status).toBe(200)
      const order = await orderOf(held.body.sessionId)
      expect(order.warning).toBeNull()
      expect(await onHand(shop, OIL, 'Hammered Citrus')).toBe(1)
      expect(await onHand(shop, OIL, 'Cedar Shop')).toBe(2)
      expect(await reservationsOf(shop, OIL, 'Hammered Citrus')).toEqual({ sold: { units: 1, rows: 1 } })
      // The order names the scent that was held: the one staff pack, and the one a cancel puts back.
      const [line] = await shop.deps.db
        .select({ variant: orderLines.variant })
        .from(orderLines)
        .where(eq(orderLines.orderId, order.id))
      expect(line?.variant).toBe('Hammered Citrus')

      await shop.services.fulfilment.cancel(order.id, 'staff', 'Changed their mind')
      expect(await onHand(shop, OIL, 'Hammered Citrus')).toBe(2)
      expect(await onHand(shop, OIL, 'Cedar Shop')).toBe(2)
    } finally {
      await syncCatalog(shop.deps.db, catalog, new Date())
      await shop.services.catalog.reload()
    }
  })

  test('a payment delivered twice takes its units once', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 4 })
    const answer = await openSession([{ id: REPAIR, quantity: 3 }])
    const id = answer.body.sessionId ?? ''
    expect((await payDemo(shop, id)).status).toBe(200)
    const record = await shop.services.checkout.record(id)
    if (!record) throw new Error('no session')
    // The provider delivers the same paid session again, as another event.
    const again = await shop.services.fulfilment.paidSession(
      {
        eventId: 'evt_redelivered',
        session: { id, amountTotal: record.totalCents, currency: 'usd' } as never,
      },
      () => shop.deps.db.run(sql`select 1`),
    )
    expect(again).toMatchObject({ kind: 'ordered', created: false })
    expect(await onHand(shop, REPAIR, '')).toBe(1)
    expect(await reservationsOf(shop, REPAIR, '')).toEqual({ sold: { units: 3, rows: 1 } })
  })
})

describe('the kept count of held units (migration 0019)', () => {
  /** The shelf's kept count beside the sum it stands for: every `reserved` hold, expired or not. */
  async function heldCount(productId: number, variant: string) {
    const [row] = await shop.deps.db.all<{ kept: number | null; summed: number }>(sql`select
        (select held from stock_levels where product_id = ${productId} and variant = ${variant}) as kept,
        coalesce((select sum(quantity) from stock_reservations
          where product_id = ${productId} and variant = ${variant} and status = 'reserved'), 0) as summed`)
    return row
  }

  test('follows every hold taken, taken over, released, sold and expired', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 20 })
    const first = await openSession([{ id: REPAIR, quantity: 3 }])
    const second = await openSession([{ id: REPAIR, quantity: 2 }])
    expect(await heldCount(REPAIR, '')).toEqual({ kept: 5, summed: 5 })

    await shop.services.fulfilment.sessionEnded(second.body.sessionId ?? '', 'expired')
    expect(await heldCount(REPAIR, '')).toEqual({ kept: 3, summed: 3 })

    expect((await payDemo(shop, first.body.sessionId ?? '')).status).toBe(200)
    expect(await heldCount(REPAIR, '')).toEqual({ kept: 0, summed: 0 })

    // A hold that runs out still counts until its session ends: the count only ever says too much.
    await openSession([{ id: REPAIR, quantity: 4 }])
    shop.clock.advance(RESERVATION_LIFETIME_MS + 60_000)
    expect(await heldCount(REPAIR, '')).toEqual({ kept: 4, summed: 4 })
    expect(await onHand(shop, REPAIR, '')).toBe(17)
  })

  test('a shelf counted after checkouts opened starts from what they hold', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 10 })
    await openSession([{ id: REPAIR, quantity: 2 }])
    // Staff stop counting, then count again: the row is written anew.
    await shop.deps.db.run(sql`delete from stock_levels`)
    await shop.deps.db.run(sql`insert into stock_levels (product_id, variant, on_hand, updated_at)
      values (${REPAIR}, '', 3, 0)`)
    expect(await heldCount(REPAIR, '')).toEqual({ kept: 2, summed: 2 })
    expect((await openSession([{ id: REPAIR, quantity: 2 }])).status).toBe(409)
    expect((await openSession([{ id: REPAIR, quantity: 1 }])).status).toBe(200)
  })

  test('expired holds inflating the count never refuse units that are free', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 3 })
    for (let i = 0; i < 3; i++) expect((await openSession([{ id: REPAIR, quantity: 1 }])).status).toBe(200)
    shop.clock.advance(RESERVATION_LIFETIME_MS + 60_000)
    // The count says 3 held of 3; the guard sums the live holds (none) and lets all three go again.
    expect(await heldCount(REPAIR, '')).toEqual({ kept: 3, summed: 3 })
    for (let i = 0; i < 3; i++) expect((await openSession([{ id: REPAIR, quantity: 1 }])).status).toBe(200)
    expect((await openSession([{ id: REPAIR, quantity: 1 }])).status).toBe(409)
  })
})

describe('the sweep', () => {
  test('marks holds that ran out released, and leaves live ones', async () => {
    await shop.services.stock.setLevels(REPAIR, { stock: 10 })
    await openSession([{ id: REPAIR, quantity: 2 }])
    shop.clock.advance(RESERVATION_LIFETIME_MS + 60_000)
    const live = await openSession([{ id: REPAIR, quantity: 3 }])
    await shop.sweep()
    expect(await reservationsOf(shop, REPAIR, '')).toEqual({
      released: { units: 2, rows: 1 },
      reserved: { units: 3, rows: 1 },
    })
    // The live one is still the session's, and sells when paid.
    expect((await payDemo(shop, live.body.sessionId ?? '')).status).toBe(200)
    expect(await onHand(shop, REPAIR, '')).toBe(7)
  })

  test('reads only holds still reserved, by when they run out (not every reservation ever made)', async () => {
    const plan = await planOfSent(shop, 'update "stock_reservations"', async () => {
      expect(await shop.services.stock.releaseExpired()).toBe(0)
    })
    expect(plan).toEqual([
      'SEARCH stock_reservations USING COVERING INDEX stock_reservations_expiry_idx (expires_at<?)',
    ])
  })
})
