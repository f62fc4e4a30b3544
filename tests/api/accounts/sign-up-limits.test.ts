// Sign-ups are limited per client address and per inbox (docs/decisions/020): loose enough for many
// shoppers behind one carrier or office address, tight enough that one address cannot make accounts by
// the thousand and no inbox is flooded from many addresses.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { PASSWORD, uniqueAddress, uniqueEmail } from '../support/accounts'
import { createTestApp, type TestApp } from '../support/test-app'

// Many sign-ups, each hashing a password (light test hashes, api/modules/auth/passwords.ts), on a busy machine.
setDefaultTimeout(60_000)

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
})
afterAll(() => shop.close())

const register = (email: string, headers: Record<string, string>, password = PASSWORD) =>
  shop.call('POST', '/auth/register', { firstName: 'Sam', lastName: 'Carpenter', email, password }, headers)

test('shoppers behind one carrier address: a dozen sign-ups in an hour all go through', async () => {
  const carrier = { 'x-forwarded-for': '100.64.0.7' }
  for (let shopper = 0; shopper < 12; shopper++) {
    expect((await register(uniqueEmail('carrier'), carrier)).status).toBe(200)
  }
})

test('one address has 30 sign-ups an hour, then a 429 with Retry-After', async () => {
  shop.clock.advance(60 * 60 * 1000)
  const one = { 'x-forwarded-for': '198.51.100.30' }
  // Refused sign-ups (a too-short password) count too: the allowance is for attempts.
  for (let attempt = 0; attempt < 30; attempt++) {
    expect((await register(uniqueEmail('many'), one, 'short')).status).toBe(422)
  }
  const over = await register(uniqueEmail('many'), one)
  expect(over.status).toBe(429)
  expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
  expect((await over.json()).error).toBe('Too many sign-ups from here. Please try again later.')
  // Another address is not held up.
  expect((await register(uniqueEmail('many'), { 'x-forwarded-for': '198.51.100.31' })).status).toBe(200)
})

test('one inbox gets at most 5 sign-ups an hour, from any number of addresses, +tags included', async () => {
  shop.clock.advance(60 * 60 * 1000)
  const inbox = uniqueEmail('flooded')
  const [local, host] = inbox.split('@')
  const variants = Array.from({ length: 6 }, (_, tag) => `${local}+${tag}@${host}`)
  for (const email of variants.slice(0, 5)) expect((await register(email, uniqueAddress())).status).toBe(200)
  const sixth = await register(variants[5] ?? '', uniqueAddress())
  expect(sixth.status).toBe(429)
  expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0)
  expect((await sixth.json()).error).toBe('Too many sign-ups for this e-mail. Please try again in an hour.')
  shop.clock.advance(60 * 60 * 1000)
  expect((await register(variants[5] ?? '', uniqueAddress())).status).toBe(200)
})
