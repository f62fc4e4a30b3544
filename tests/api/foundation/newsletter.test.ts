import { afterAll, beforeAll, expect, test } from 'bun:test'
import { newsletterSubscribers } from '../../../db/schema'
import { createTestApp, type TestApp } from '../support/test-app'

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp()
})
afterAll(() => shop.close())

test('a new e-mail is stored once, and a repeat sign-up is not an error', async () => {
  const first = await shop.call('POST', '/api/newsletter', { email: '  Mike@Example.com ', source: 'home' })
  expect(first.status).toBe(201)
  expect(await first.json()).toEqual({ subscribed: true, message: 'Welcome to the Crew!' })

  const again = await shop.call('POST', '/api/newsletter', { email: 'mike@example.com', source: 'footer' })
  expect(again.status).toBe(200)
  expect((await again.json()).message).toBe('You are already on the list.')

  const rows = await shop.deps.db.select().from(newsletterSubscribers)
  expect(rows.map((row) => [row.email, row.source])).toEqual([['mike@example.com', 'home']])
})

test('a bad e-mail gets a 400 with a clear message', async () => {
  const bad = ['', 'not-an-email', 'a@b', 'two@@example.com', 'sp ace@example.com']
  // Control, bidi and markup characters: each would end up in a mail header or on a staff page.
  bad.push('a\u0000b@example.com', '\u202eevil@example.com', '<script>alert(1)</script>@example.org')
  for (const email of bad) {
    const res = await shop.call('POST', '/api/newsletter', { email })
    expect(res.status).toBe(400)
    expect((await res.json()).error).toBe('Please enter a valid e-mail address, like name@example.com.')
  }
})

test('a missing e-mail or an unknown form is a 422 naming the problem', async () => {
  const missing = await shop.call('POST', '/api/newsletter', {})
  expect(missing.status).toBe(422)
  expect((await missing.json()).error).toBe('Please enter your e-mail address.')
  const source = await shop.call('POST', '/api/newsletter', { email: 'a@example.com', source: 'elsewhere' })
  expect(source.status).toBe(422)
  expect((await source.json()).error).toBe('Unknown sign-up form.')
})

test('sign-ups are rate limited per address with a 429', async () => {
  let last: Response | undefined
  for (let i = 0; i < 11; i++) {
    last = await shop.call('POST', '/api/newsletter', { email: `crew${i}@example.com` })
  }
  if (!last) throw new Error('no request was sent')
  expect(last.status).toBe(429)
  expect((await last.json()).error).toBe('Too many sign-ups from here. Please try again later.')
  shop.clock.advance(60 * 60 * 1000)
  const later = await shop.call('POST', '/api/newsletter', { email: 'crew-later@example.com' })
  expect(later.status).toBe(201)
})
