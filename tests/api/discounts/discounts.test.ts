import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import { createDiscountService } from '../../../api/modules/discounts/service'
import { discountCodes } from '../../../db/schema'
import { createTestApp, type TestApp } from '../support/test-app'

let shop: TestApp
let address = 0
/** Each test gets its own client address so the attempt limit only bites where a test means it to. */
const validate = (body: unknown) =>
  shop.call('POST', '/api/validate-discount', body, { 'x-forwarded-for': `203.0.113.${address}` })

beforeEach(async () => {
  shop?.close()
  shop = await createTestApp({ TRUST_PROXY: 'true' })
  address++
})
afterAll(() => shop.close())

describe('POST /api/validate-discount', () => {
  test('a percentage code answers its terms and the discount for this subtotal', async () => {
    const res = await validate({ code: 'GRIT15', amount: 40 })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ code: 'GRIT15', type: 'percentage', amount: 15, discountCents: 600 })
  })

  test('a fixed code answers its amount in dollars; the subtotal may come as text', async () => {
    const res = await validate({ code: 'SAVE5', amount: '25.00' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ code: 'SAVE5', type: 'fixed', amount: 5, discountCents: 500 })
  })

  test('codes are case-sensitive', async () => {
    const res = await validate({ code: 'grit15', amount: 40 })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ error: 'This discount code does not exist.' })
  })

  test('surrounding spaces are trimmed', async () => {
    const res = await validate({ code: '  GRIT15 ', amount: 40 })
    expect(res.status).toBe(200)
  })

  test('a minimum subtotal is enforced with the amount named', async () => {
    const res = await validate({ code: 'SAVE5', amount: 19.99 })
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({ error: 'This code needs an order of at least $20.00.' })
    expect((await validate({ code: 'TOOLBOX20', amount: 50 })).status).toBe(200)
  })

  test('an expired code and a code not yet active are refused', async () => {
    const expired = await validate({ code: 'EXPIRED10', amount: 40 })
    expect(expired.status).toBe(422)
    expect((await expired.json()).error).toBe('This discount code has expired.')

    await shop.deps.db.insert(discountCodes).values({
      code: 'SPRING',
      type: 'percentage',
      amount: 10,
      activeFrom: new Date('2026-04-01T00:00:00Z'),
      activeUntil: new Date('2026-05-01T00:00:00Z'),
      createdAt: new Date(),
    })
    const early = await validate({ code: 'SPRING', amount: 40 })
    expect(early.status).toBe(422)
    expect((await early.json()).error).toBe('This discount code is not active yet.')
    shop.clock.set(new Date('2026-04-15T00:00:00Z'))
    expect((await validate({ code: 'SPRING', amount: 40 })).status).toBe(200)
    shop.clock.set(new Date('2026-05-01T00:00:00Z'))
    expect((await validate({ code: 'SPRING', amount: 40 })).status).toBe(422)
  })

  test.each([
    [{ code: '', amount: 10 }, 400, 'Please enter a discount code.'],
    [{ code: '   ', amount: 10 }, 400, 'Please enter a discount code.'],
    [{ code: 'A'.repeat(41), amount: 10 }, 400, 'Please enter a discount code.'],
    [{ code: 'GRIT15', amount: 'abc' }, 400, 'amount must be the cart subtotal in dollars, like 42.00.'],
    [{ code: 'GRIT15', amount: -1 }, 400, 'amount must be the cart subtotal in dollars, like 42.00.'],
    [{ code: 'GRIT15', amount: 1e12 }, 400, 'amount must be the cart subtotal in dollars, like 42.00.'],
    [{ code: 'GRIT15', amount: 10.005 }, 400, 'amount must be the cart subtotal in dollars, like 42.00.'],
    [{ code: 12345, amount: 10 }, 422, 'Please enter a discount code.'],
    [{ code: 'GRIT15' }, 422, 'amount must be the cart subtotal in dollars.'],
    [{ amount: 10 }, 422, 'Please enter a discount code.'],
    [['GRIT15', 10], 422, null],
  ])('bad input %p → %i', async (body, status, message) => {
    const res = await validate(body)
    expect(res.status).toBe(status)
    const answer = await res.json()
    if (message) expect(answer.error).toBe(message)
    else expect(typeof answer.error).toBe('string')
  })

  test('no body at all is a clear 4xx, never a 500', async () => {
    const res = await shop.app.handle(
      new Request('http://localhost:4321/api/validate-discount', { method: 'POST', headers: { origin: 'http://localhost:4321' } }),
    )
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
  })

  test('attempts are rate limited per client address', async () => {
    for (let i = 0; i < 20; i++) await validate({ code: `GUESS${i}`, amount: 40 })
    const refused = await validate({ code: 'GRIT15', amount: 40 })
    expect(refused.status).toBe(429)
    expect((await refused.json()).error).toBe('Too many discount attempts. Please wait a few minutes and try again.')
    address++
    expect((await validate({ code: 'GRIT15', amount: 40 })).status).toBe(200)
  })
})

describe('discount service limits', () => {
  test('total redemptions and per-customer limits count recorded redemptions', async () => {
    await shop.deps.db.insert(discountCodes).values([
      { code: 'TWICE', type: 'fixed', amount: 300, maxRedemptions: 2, createdAt: new Date() },
      { code: 'ONCEEACH', type: 'percentage', amount: 5, maxPerCustomer: 1, createdAt: new Date() },
    ])
    const discounts = createDiscountService(shop.deps.db, shop.clock)
    const context = { subtotalCents: 4000, email: 'Mike@Example.com' }
    await discounts.recordRedemption('TWICE', { orderRef: '000001', email: 'a@example.com', userId: null })
    await discounts.recordRedemption('TWICE', { orderRef: '000001', email: 'a@example.com', userId: null })
    expect((await discounts.validate('TWICE', context)).amount).toBe(300)
    await discounts.recordRedemption('TWICE', { orderRef: '000002', email: 'b@example.com', userId: null })
    await expect(discounts.validate('TWICE', context)).rejects.toThrow('This discount code has been used up.')

    expect((await discounts.validate('ONCEEACH', context)).code).toBe('ONCEEACH')
    await discounts.recordRedemption('ONCEEACH', { orderRef: '000003', email: 'mike@example.com', userId: null })
    await expect(discounts.validate('ONCEEACH', context)).rejects.toThrow('You have already used this discount code.')
    expect((await discounts.validate('ONCEEACH', { subtotalCents: 4000, email: 'other@example.com' })).code).toBe(
      'ONCEEACH',
    )
  })
})
