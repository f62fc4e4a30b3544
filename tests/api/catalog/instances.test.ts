// Several instances of the shop on one database: a weight staff change on one reaches every other one's
// catalogue (rates, labels and the /api/catalog answer with its ETag) within a second, not at its next start.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { getRates } from '../checkout/helpers'
import { staffMember } from '../dashboard/helpers'
import { createTestApp, type TestApp } from '../support/test-app'

let first: TestApp
let second: TestApp
beforeAll(async () => {
  first = await createTestApp()
  // The same database file, its own process state: another instance behind the load balancer.
  second = await createTestApp({ DATABASE_URL: first.deps.config.databaseUrl })
})
afterAll(() => {
  second.close()
  first.close()
})

const weightOf = async (shop: TestApp, id: number, etag = '') => {
  const res = await shop.call('GET', '/api/catalog', undefined, { 'if-none-match': etag })
  if (res.status === 304) return { status: 304, etag, weight: null }
  const body = (await res.json()) as { products: { id: number; weight: string }[] }
  return {
    status: res.status,
    etag: res.headers.get('etag') ?? '',
    weight: body.products.find((product) => product.id === id)?.weight ?? null,
  }
}

test('a weight changed on one instance reaches the other within a second: catalogue, ETag and rates', async () => {
  const before = await weightOf(second, 5)
  expect(before).toMatchObject({ status: 200, weight: '5.5' })
  const items = [{ id: 5, quantity: 4 }]
  const ratesBefore = await getRates(second, items)

  const staff = await staffMember(first)
  const res = await first.call('PATCH', '/api/products/5/weight', { weight: 30 }, { cookie: staff.cookie })
  expect(res.status).toBe(200)
  expect((await weightOf(first, 5)).weight).toBe('30.0')

  // The other instance looks again at most every half second of its clock.
  second.clock.advance(500)
  const after = await weightOf(second, 5, before.etag)
  expect(after.status).toBe(200)
  expect(after.weight).toBe('30.0')
  expect(after.etag).not.toBe(before.etag)
  // Its rates are priced for the new weight too (a 7.5 lb parcel instead of 1.4 lb).
  const ratesAfter = await getRates(second, items)
  expect(ratesAfter.map((rate) => rate.price)).not.toEqual(ratesBefore.map((rate) => rate.price))
  expect((await getRates(first, items)).map((rate) => rate.price)).toEqual(
    ratesAfter.map((rate) => rate.price),
  )

  // Nothing changed since: the answer stays the same, a repeat is a 304.
  second.clock.advance(500)
  expect((await weightOf(second, 5, after.etag)).status).toBe(304)
})
