// Staff set the units on the shelf from the dashboard: per product, or per scent where a product has
// scents; null stops counting. Anyone else is refused before anything changes.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { MAX_STOCK, RECEIVED_MESSAGE, STOCK_MESSAGE } from '@core/rules/stock'
import { sql } from 'drizzle-orm'
import { staffMember } from '../dashboard/helpers'
import { type Customer, signUp } from '../support/accounts'
import { holdCalls } from '../support/hold-calls'
import { createTestApp, type TestApp } from '../support/test-app'
import { onHand } from './helpers'

// Argon2id hashing takes a while on a busy machine.
setDefaultTimeout(60_000)

let shop: TestApp
let staff: Customer
let customer: Customer

beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
  staff = await staffMember(shop)
  customer = await signUp(shop)
})
afterAll(() => shop.close())

const patch = (path: string, body: unknown, cookie?: string) =>
  shop.call('PATCH', path, body, cookie ? { cookie } : {})

describe('PATCH /api/products/{id}/stock', () => {
  test('anonymous callers get 401, customers 403, and nothing changes', async () => {
    expect((await patch('/api/products/4/stock', { stock: 3 })).status).toBe(401)
    expect((await patch('/api/products/4/stock', { stock: 3 }, customer.cookie)).status).toBe(403)
    expect(await onHand(shop, 4, '')).toBeUndefined()
  })

  test('staff count a product without scents, then stop counting it', async () => {
    const res = await patch('/api/products/4/stock', { stock: 12 }, staff.cookie)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toContain('no-store')
    expect(await res.json()).toEqual({
      message: 'Workforce Repair Original Grit: 12 on the shelf, 12 free.',
      product: expect.objectContaining({ id: 4, stock: { onHand: 12, available: 12 }, variants: [] }),
    })
    expect(await onHand(shop, 4, '')).toBe(12)

    // Digits as a form field holds them are read too.
    expect((await patch('/api/products/4/stock', { stock: '0' }, staff.cookie)).status).toBe(200)
    expect(await onHand(shop, 4, '')).toBe(0)

    const stopped = await patch('/api/products/4/stock', { stock: null }, staff.cookie)
    expect(await stopped.json()).toMatchObject({
      message: 'Workforce Repair Original Grit: not counted.',
      product: { stock: null },
    })
    expect(await onHand(shop, 4, '')).toBeNull()
  })

  test('staff count scents apart; the ones not named stay as they were', async () => {
    const res = await patch(
      '/api/products/1/stock',
      { variants: { 'Cedar Shop': 2, Unscented: 9 } },
      staff.cookie,
    )
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.product).toMatchObject({
      stock: null,
      variants: [
        { name: 'Hammered Citrus', stock: null },
        { name: 'Cedar Shop', stock: { onHand: 2, available: 2 } },
        { name: 'Unscented', stock: { onHand: 9, available: 9 } },
      ],
    })
    expect(body.message).toBe(
      'Hammered Citrus: not counted. Hammered Citrus (Cedar Shop): 2 on the shelf, 2 free. Hammered Citrus (Unscented): 9 on the shelf, 9 free.',
    )
    await patch('/api/products/1/stock', { variants: { Unscented: null } }, staff.cookie)
    expect([await onHand(shop, 1, 'Cedar Shop'), await onHand(shop, 1, 'Unscented')]).toEqual([2, null])

    const listed = (await (
      await shop.call('GET', '/api/products', undefined, { cookie: staff.cookie })
    ).json()) as {
      id: number
      variants: unknown[]
    }[]
    expect(listed.find((product) => product.id === 1)?.variants[1]).toEqual({
      name: 'Cedar Shop',
      stock: { onHand: 2, available: 2 },
      toShip: 0,
    })
  })

  test.each([
    [{ stock: -1 }],
    [{ stock: 2.5 }],
    [{ stock: '2.5' }],
    [{ stock: 'lots' }],
    [{ stock: 100_000 }],
    [{ stock: true }],
    [{ stock: [] }],
    [{ stock: {} }],
  ])('%p is refused with a 422 that says what stock must be', async (body) => {
    const res = await patch('/api/products/4/stock', body, staff.cookie)
    expect(res.status).toBe(422)
    expect((await res.json()).error).toBe(STOCK_MESSAGE)
  })

  test.each([
    ['/api/products/4/stock', {}, `Send { "stock": units } (${STOCK_MESSAGE})`],
    ['/api/products/4/stock', '4', `Send { "stock": units } (${STOCK_MESSAGE})`],
    [
      '/api/products/4/stock',
      { variants: { Cedar: 1 } },
      'Workforce Repair Original Grit has no scents: send { "stock": units }.',
    ],
    [
      '/api/products/1/stock',
      { stock: 3 },
      'Hammered Citrus comes in scents: send { "variants": { "Hammered Citrus": units } }.',
    ],
    [
      '/api/products/1/stock',
      { variants: [] },
      'Hammered Citrus comes in scents: send { "variants": { "Hammered Citrus": units } }.',
    ],
    ['/api/products/1/stock', { variants: {} }, 'Name at least one scent of Hammered Citrus.'],
    [
      '/api/products/1/stock',
      { variants: { 'Motor Oil': 1 } },
      'Hammered Citrus has no scent "Motor Oil": use one of Hammered Citrus, Cedar Shop, Unscented.',
    ],
    ['/api/products/1/stock', { variants: { 'Cedar Shop': -3 } }, `Cedar Shop: ${STOCK_MESSAGE}`],
  ])('%s %p is refused: %s', async (path, body, message) => {
    const before = await onHand(shop, 1, 'Cedar Shop')
    const res = await patch(path, body, staff.cookie)
    expect(res.status).toBe(422)
    expect((await res.json()).error).toBe(message)
    expect(await onHand(shop, 1, 'Cedar Shop')).toBe(before)
  })

  test('a shelf below 0 (units owed to paid orders) is told as such, and saving another scent leaves it', async () => {
    await patch('/api/products/1/stock', { variants: { 'Cedar Shop': 3 } }, staff.cookie)
    // Paid orders found too few: the shelf went below 0 (docs/decisions/026).
    await shop.deps.db.run(
      sql`update stock_levels set on_hand = -2 where product_id = 1 and variant = 'Cedar Shop'`,
    )
    const res = await patch('/api/products/1/stock', { variants: { Unscented: 4 } }, staff.cookie)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.product.variants[1]).toEqual({
      name: 'Cedar Shop',
      stock: { onHand: -2, available: 0 },
      toShip: 0,
    })
    expect(body.message).toContain('Hammered Citrus (Cedar Shop): 2 owed to paid orders, none on the shelf.')
    expect(await onHand(shop, 1, 'Cedar Shop')).toBe(-2)
    await patch('/api/products/1/stock', { variants: { 'Cedar Shop': null, Unscented: null } }, staff.cookie)
  })

  test('an unknown product is a 404', async () => {
    for (const path of ['/api/products/99/stock', '/api/products/abc/stock']) {
      const res = await patch(path, { stock: 3 }, staff.cookie)
      expect([path, res.status]).toEqual([path, 404])
    }
  })
})

describe('units received', () => {
  test('add to the figure as it is, so units owed to paid orders are paid back first', async () => {
    await patch('/api/products/1/stock', { variants: { 'Cedar Shop': 0, Unscented: 5 } }, staff.cookie)
    // Paid orders found too few: 2 owed (docs/decisions/026).
    await shop.deps.db.run(
      sql`update stock_levels set on_hand = -2 where product_id = 1 and variant = 'Cedar Shop'`,
    )
    const res = await patch(
      '/api/products/1/stock',
      { variants: { 'Cedar Shop': { received: 6 }, Unscented: { received: '3' } } },
      staff.cookie,
    )
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.message).toContain('Hammered Citrus (Cedar Shop): 4 on the shelf, 4 free.')
    expect(body.message).toContain('Hammered Citrus (Unscented): 8 on the shelf, 8 free.')
    expect([await onHand(shop, 1, 'Cedar Shop'), await onHand(shop, 1, 'Unscented')]).toEqual([4, 8])

    // A product without scents the same way; never past the most a figure holds.
    await patch('/api/products/4/stock', { stock: MAX_STOCK - 1 }, staff.cookie)
    expect((await patch('/api/products/4/stock', { stock: { received: 5 } }, staff.cookie)).status).toBe(200)
    expect(await onHand(shop, 4, '')).toBe(MAX_STOCK)
    await patch('/api/products/1/stock', { variants: { 'Cedar Shop': null, Unscented: null } }, staff.cookie)
    await patch('/api/products/4/stock', { stock: null }, staff.cookie)
  })

  test('the same save sent again (its Idempotency-Key) adds its units once; another key adds them again', async () => {
    await patch('/api/products/4/stock', { stock: 2 }, staff.cookie)
    const save = (key: string) =>
      shop.call(
        'PATCH',
        '/api/products/4/stock',
        { stock: { received: 5 } },
        { cookie: staff.cookie, 'idempotency-key': key },
      )
    expect((await save('delivery-1')).status).toBe(200)
    const again = await save('delivery-1')
    expect(again.status).toBe(200)
    expect((await again.json()).message).toBe('Workforce Repair Original Grit: 7 on the shelf, 7 free.')
    expect(await onHand(shop, 4, '')).toBe(7)
    expect((await save('delivery-2')).status).toBe(200)
    expect(await onHand(shop, 4, '')).toBe(12)
    // The same key sent with another save is refused, not taken as the first one again.
    const other = await shop.call(
      'PATCH',
      '/api/products/4/stock',
      { stock: { received: 9 } },
      { cookie: staff.cookie, 'idempotency-key': 'delivery-1' },
    )
    expect(other.status).toBe(409)
    expect((await other.json()).error).toBe(
      'This Idempotency-Key was used for a different save of units received.',
    )
    expect(await onHand(shop, 4, '')).toBe(12)
    const bad = await save('has spaces in it')
    expect(bad.status).toBe(422)
    expect((await bad.json()).error).toBe(
      'The Idempotency-Key header must be 1 to 255 printable characters without spaces.',
    )
    expect(await onHand(shop, 4, '')).toBe(12)
    await patch('/api/products/4/stock', { stock: null }, staff.cookie)
  })

  test('two different saves of units received sent at once under one key: one is added, the other refused', async () => {
    const staff = await staffMember(shop)
    await patch('/api/products/4/stock', { stock: 2 }, staff.cookie)
    const save = (units: number) =>
      shop.call(
        'PATCH',
        '/api/products/4/stock',
        { stock: { received: units } },
        { cookie: staff.cookie, 'idempotency-key': 'delivery-at-once' },
      )
    const answers = await Promise.all([save(3), save(5)])
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409])
    const added = answers[0]?.status === 200 ? 3 : 5
    expect(await onHand(shop, 4, '')).toBe(2 + added)
    await patch('/api/products/4/stock', { stock: null }, staff.cookie)
  })

  test('units received whose figure stops being counted while the save is made: none added, the key left free', async () => {
    await patch('/api/products/4/stock', { stock: 2 }, staff.cookie)
    const save = () =>
      shop.call(
        'PATCH',
        '/api/products/4/stock',
        { stock: { received: 5 } },
        { cookie: staff.cookie, 'idempotency-key': 'delivery-raced' },
      )
    // The save has checked the figure is counted and waits to write; another member of staff stops counting.
    const gate = holdCalls(shop.deps.db, 'batch', { onlyFirst: true })
    const raced = save()
    await gate.entered
    gate.restore()
    expect((await patch('/api/products/4/stock', { stock: null }, staff.cookie)).status).toBe(200)
    gate.release()
    const answer = await raced
    // Nothing was added to a figure nobody counts, and the answer says so.
    expect(answer.status).toBe(200)
    expect((await answer.json()).message).toBe('Workforce Repair Original Grit: not counted.')
    expect(await onHand(shop, 4, '')).toBeNull()
    // The key was not spent on it: counted again, the same delivery sent again is added, once.
    await patch('/api/products/4/stock', { stock: 1 }, staff.cookie)
    expect((await save()).status).toBe(200)
    expect((await save()).status).toBe(200)
    expect(await onHand(shop, 4, '')).toBe(6)
    await patch('/api/products/4/stock', { stock: null }, staff.cookie)
  })

  test('units received never lower a figure above the most staff can type (restocks may pass it)', async () => {
    await patch('/api/products/4/stock', { stock: 1 }, staff.cookie)
    await shop.deps.db.run(sql`update stock_levels set on_hand = ${MAX_STOCK + 2} where product_id = 4`)
    expect((await patch('/api/products/4/stock', { stock: { received: 1 } }, staff.cookie)).status).toBe(200)
    expect(await onHand(shop, 4, '')).toBe(MAX_STOCK + 2)
    await patch('/api/products/4/stock', { stock: null }, staff.cookie)
  })

  test('a figure nobody counts takes none, and nothing else in the edit is saved', async () => {
    await patch('/api/products/1/stock', { variants: { Unscented: 5 } }, staff.cookie)
    const res = await patch(
      '/api/products/1/stock',
      { variants: { Unscented: 7, 'Cedar Shop': { received: 4 } } },
      staff.cookie,
    )
    expect(res.status).toBe(422)
    expect((await res.json()).error).toBe(
      'Hammered Citrus (Cedar Shop) is not counted: enter the units on the shelf to start counting it.',
    )
    expect([await onHand(shop, 1, 'Cedar Shop'), await onHand(shop, 1, 'Unscented')]).toEqual([null, 5])
    await patch('/api/products/1/stock', { variants: { Unscented: null } }, staff.cookie)
  })

  test.each([
    [{ stock: { received: 0 } }, RECEIVED_MESSAGE],
    [{ stock: { received: -2 } }, RECEIVED_MESSAGE],
    [{ stock: { received: 2.5 } }, RECEIVED_MESSAGE],
    [{ stock: { received: null } }, RECEIVED_MESSAGE],
    [{ stock: { received: 100_000 } }, RECEIVED_MESSAGE],
  ])('%p is refused: %s', async (body, message) => {
    await patch('/api/products/4/stock', { stock: 3 }, staff.cookie)
    const res = await patch('/api/products/4/stock', body, staff.cookie)
    expect(res.status).toBe(422)
    expect((await res.json()).error).toBe(message)
    expect(await onHand(shop, 4, '')).toBe(3)
  })
})

describe('GET /api/products', () => {
  test("reads the figures as they are now, where the shoppers' pages may keep them a second", async () => {
    const listed = async (path: string) =>
      (await shop.call('GET', path, undefined, { cookie: staff.cookie })).json()
    const duo = (products: { id: number; stock: unknown }[]) =>
      products.find((product) => product.id === 5)?.stock
    // The catalogue reads the figures (the test's clock stands still, so it keeps them).
    expect(
      (await listed('/api/catalog')).products.find((product: { id: number }) => product.id === 5).stock,
    ).toEqual({ tracked: false, available: null })
    // Counted beside this instance: another instance's staff, or a restore.
    await shop.deps.db.run(sql`insert into stock_levels (product_id, variant, on_hand, updated_at)
      values (5, '', 7, ${Date.now()}) on conflict (product_id, variant) do update set on_hand = excluded.on_hand`)
    expect(duo(await listed('/api/products'))).toEqual({ onHand: 7, available: 7 })
    await patch('/api/products/5/stock', { stock: null }, staff.cookie)
  })
})
