// GET /api/catalog carries live stock: each product, and each scent of one with scents, says whether it is
// counted and how many can still be bought (units on the shelf less those open checkouts hold).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SNAPSHOT_MS } from '../../../api/modules/stock/model'
import { getRates, rateFor, sessionBody } from '../checkout/helpers'
import { createTestApp, type TestApp } from '../support/test-app'

const OIL = 1 // scents: Hammered Citrus, Cedar Shop, Unscented
const REPAIR = 4 // no scents

let shop: TestApp

beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
})
afterAll(() => shop.close())

type Listed = {
  id: number
  stock: { tracked: boolean; available: number | null }
  variants: { name: string; stock: { tracked: boolean; available: number | null } }[]
}

async function catalog(headers: Record<string, string> = {}) {
  const res = await shop.call('GET', '/api/catalog', undefined, headers)
  const body = res.status === 200 ? ((await res.json()) as { products: Listed[] }) : null
  return { res, byId: (id: number) => body?.products.find((product) => product.id === id) }
}

const NOT_COUNTED = { tracked: false, available: null }

describe('GET /api/catalog stock', () => {
  test('products nobody counts say so, as every product did before stock was counted', async () => {
    const { byId } = await catalog()
    expect(byId(REPAIR)).toMatchObject({ stock: NOT_COUNTED, variants: [] })
    expect(byId(OIL)?.stock).toEqual(NOT_COUNTED)
    expect(byId(OIL)?.variants).toEqual([
      { name: 'Hammered Citrus', stock: NOT_COUNTED },
      { name: 'Cedar Shop', stock: NOT_COUNTED },
      { name: 'Unscented', stock: NOT_COUNTED },
    ])
  })

  test('counted stock shows within a second, less what open checkouts hold, with a new ETag', async () => {
    const before = await catalog()
    const etag = before.res.headers.get('etag') ?? ''
    await shop.services.stock.setLevels(REPAIR, { stock: 3 })
    await shop.services.stock.setLevels(OIL, { variants: { 'Cedar Shop': 2 } })

    const counted = await catalog({ 'if-none-match': etag })
    expect(counted.res.status).toBe(200)
    expect(counted.byId(REPAIR)?.stock).toEqual({ tracked: true, available: 3 })
    expect(counted.byId(OIL)?.variants[1]).toEqual({
      name: 'Cedar Shop',
      stock: { tracked: true, available: 2 },
    })
    // One scent counted, the others not: the product as a whole can still be bought without limit.
    expect(counted.byId(OIL)?.stock).toEqual(NOT_COUNTED)

    // A checkout holds 2 of the 3: the answer says 1 left once the figures are read again.
    const lines = [{ id: REPAIR, quantity: 2 }]
    const from = { 'x-forwarded-for': '198.51.100.7' }
    const rate = rateFor(await getRates(shop, lines, undefined, {}, from), 'USPS Ground Advantage')
    const opened = await shop.call(
      'POST',
      '/api/create-checkout-session',
      sessionBody(lines, rate, { customer_email: 'stock@example.com' }),
      from,
    )
    expect(opened.status).toBe(200)
    shop.clock.advance(SNAPSHOT_MS)
    expect((await catalog()).byId(REPAIR)?.stock).toEqual({ tracked: true, available: 1 })

    // A repeat with the same figures is a 304.
    const now = (await catalog()).res.headers.get('etag') ?? ''
    expect((await catalog({ 'if-none-match': now })).res.status).toBe(304)
  })

  test('a product whose every scent is counted is sold out only when no scent is left', async () => {
    await shop.services.stock.setLevels(OIL, {
      variants: { 'Hammered Citrus': 0, 'Cedar Shop': 0, Unscented: 4 },
    })
    shop.clock.advance(SNAPSHOT_MS)
    expect((await catalog()).byId(OIL)?.stock).toEqual({ tracked: true, available: 4 })
    await shop.services.stock.setLevels(OIL, { variants: { Unscented: 0 } })
    shop.clock.advance(SNAPSHOT_MS)
    expect((await catalog()).byId(OIL)?.stock).toEqual({ tracked: true, available: 0 })
  })
})
