import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TEASER_CONTENT_DIR, waitlistsFromContent } from '../../../api/modules/newsletter/waitlists'
import { newsletterSubscribers } from '../../../db/schema'
import { contentFileForElsewhere } from '../support/content-files'
import { createTestApp, ORIGIN, type TestApp } from '../support/test-app'

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp()
})
afterAll(() => shop.close())

test('a new e-mail is stored once, and a repeat sign-up gets exactly the same answer', async () => {
  const first = await shop.call('POST', '/api/newsletter', { email: '  Mike@Example.com ', source: 'home' })
  const again = await shop.call('POST', '/api/newsletter', { email: 'mike@example.com', source: 'footer' })
  // Nothing in the answer may tell a stranger whether the address was subscribed before.
  const answer = await first.text()
  expect([again.status, await again.text()]).toEqual([first.status, answer])
  expect(first.status).toBe(200)
  expect(JSON.parse(answer)).toEqual({ subscribed: true, message: 'Welcome to the Crew!' })

  const rows = await shop.deps.db.select().from(newsletterSubscribers)
  expect(rows.map((row) => [row.email, row.source])).toEqual([['mike@example.com', 'home']])
})

test('a bad e-mail gets a 422 with a clear message', async () => {
  const bad = ['', 'not-an-email', 'a@b', 'two@@example.com', 'sp ace@example.com']
  // Control, bidi and markup characters: each would end up in a mail header or on a staff page.
  bad.push('a\u0000b@example.com', '\u202eevil@example.com', '<script>alert(1)</script>@example.org')
  for (const email of bad) {
    const res = await shop.call('POST', '/api/newsletter', { email })
    expect(res.status).toBe(422)
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

describe('limits (docs/decisions/020)', () => {
  let limited: TestApp
  beforeAll(async () => {
    limited = await createTestApp({ TRUST_PROXY: 'true' })
  })
  afterAll(() => limited.close())
  const subscribe = (email: string, address: string) =>
    limited.call('POST', '/api/newsletter', { email }, { 'x-forwarded-for': address })

  test('one address has 60 sign-ups an hour, so shoppers behind one carrier address get through, then a 429', async () => {
    for (let i = 0; i < 60; i++)
      expect((await subscribe(`crew${i}@example.com`, '100.64.0.9')).status).toBe(200)
    const over = await subscribe('crew-over@example.com', '100.64.0.9')
    expect(over.status).toBe(429)
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await over.json()).error).toBe('Too many sign-ups from here. Please try again later.')
    limited.clock.advance(60 * 60 * 1000)
    expect((await subscribe('crew-later@example.com', '100.64.0.9')).status).toBe(200)
  })

  test('one inbox is signed up at most 5 times an hour, from any number of addresses, +tags included', async () => {
    limited.clock.advance(60 * 60 * 1000)
    for (let tag = 0; tag < 5; tag++) {
      expect((await subscribe(`inbox+${tag}@example.com`, `203.0.113.${tag}`)).status).toBe(200)
    }
    const sixth = await subscribe('Inbox@Example.com', '203.0.113.99')
    expect(sixth.status).toBe(429)
    expect((await sixth.json()).error).toBe('Too many sign-ups for this e-mail. Please try again in an hour.')
    limited.clock.advance(60 * 60 * 1000)
    expect((await subscribe('inbox@example.com', '203.0.113.99')).status).toBe(200)
  })
})

describe('a plain HTML form post (before hydration, or with JavaScript off)', () => {
  let forms: TestApp
  beforeEach(async () => {
    forms = await createTestApp()
  })
  afterEach(() => forms.close())

  const FORM = { 'content-type': 'application/x-www-form-urlencoded' }
  const post = (fields: Record<string, string>, headers: Record<string, string> = FORM) =>
    forms.call('POST', '/api/newsletter', new URLSearchParams(fields).toString(), headers)

  test('signs up and answers 303 to a page saying so, without the address in it', async () => {
    const res = await post({ email: 'Form.Crew@Example.com', source: 'home' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/newsletter/subscribed')
    expect(await res.text()).toBe('')
    const rows = await forms.deps.db.select().from(newsletterSubscribers)
    expect(rows.map((row) => [row.email, row.source])).toEqual([['form.crew@example.com', 'home']])
  })

  test('a repeat lands on the same page, so it never tells whether an address was on the list', async () => {
    await post({ email: 'again@example.com', source: 'footer' })
    const res = await post({ email: 'again@example.com', source: 'shop' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/newsletter/subscribed')
    expect(await forms.deps.db.select().from(newsletterSubscribers)).toHaveLength(1)
  })

  test('the supply-drop waitlist lands on the waitlist page; no source means the footer', async () => {
    const waitlist = await post({ email: 'drop@example.com', source: 'supply-drop' })
    expect(waitlist.headers.get('location')).toBe('/newsletter/waitlisted')
    const bare = await post({ email: 'bare@example.com' })
    expect(bare.headers.get('location')).toBe('/newsletter/subscribed')
    const rows = await forms.deps.db.select().from(newsletterSubscribers)
    expect(rows.map((row) => row.source).sort()).toEqual(['footer', 'supply-drop'])
  })

  test('multipart form data is a form post too', async () => {
    const data = new FormData()
    data.set('email', 'multi@example.com')
    data.set('source', 'home')
    const res = await forms.app.handle(
      new Request(`${ORIGIN}/api/newsletter`, { method: 'POST', headers: { origin: ORIGIN }, body: data }),
    )
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/newsletter/subscribed')
  })

  test('a bad, missing or overlong e-mail answers 303 to the error page, never JSON', async () => {
    const refused: Record<string, string>[] = [
      { email: 'crew@localhost', source: 'home' },
      { email: '' },
      { source: 'footer' },
      { email: `${'a'.repeat(250)}@example.com` },
    ]
    for (const fields of refused) {
      const res = await post(fields)
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/newsletter/invalid-email')
      expect(res.headers.get('content-type') ?? '').not.toContain('json')
    }
    expect(await forms.deps.db.select().from(newsletterSubscribers)).toHaveLength(0)
  })

  test('the rate limit answers 303 to a page asking to try later', async () => {
    for (let i = 0; i < 60; i++) await post({ email: `burst${i}@example.com` })
    const res = await post({ email: 'burst-last@example.com' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/newsletter/try-later')
  })

  test('a form posted from another site is refused with 403 and stores nothing', async () => {
    const res = await post(
      { email: 'cross@example.com' },
      { ...FORM, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    )
    expect(res.status).toBe(403)
    expect(await forms.deps.db.select().from(newsletterSubscribers)).toHaveLength(0)
  })

  test('the redirect carries the security headers of every answer', async () => {
    const res = await post({ email: 'headers@example.com' })
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self'")
  })

  test('JSON callers still get JSON', async () => {
    const res = await forms.call('POST', '/api/newsletter', { email: 'json@example.com', source: 'home' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ subscribed: true, message: 'Welcome to the Crew!' })
    const bad = await forms.call('POST', '/api/newsletter', { email: 'nope' })
    expect(bad.status).toBe(422)
    expect(bad.headers.get('location')).toBeNull()
  })
})

describe('a teaser an editor adds with a waitlist', () => {
  test('has its form accepted, and its plain form post lands on the waitlist page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'teasers-'))
    try {
      const teaser = contentFileForElsewhere(join(TEASER_CONTENT_DIR, 'supply-drop.mdx')).replace(
        /^title: .*$/m,
        'title: Winter Line',
      )
      writeFileSync(join(dir, 'winter-line.mdx'), teaser)
      writeFileSync(join(dir, 'draft-line.mdx'), teaser.replace(/^title:/m, 'draft: true\ntitle:'))
      writeFileSync(join(dir, 'no-form.mdx'), teaser.replace(/^waitlist: true$/m, 'waitlist: false'))
      expect(waitlistsFromContent(dir)).toEqual(['winter-line'])
      expect(waitlistsFromContent()).toEqual(['supply-drop'])

      const shop = await createTestApp({}, { waitlists: waitlistsFromContent(dir) })
      try {
        const form = await shop.app.handle(
          new Request('http://localhost:4321/api/newsletter', {
            method: 'POST',
            headers: { origin: 'http://localhost:4321', 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ email: 'winter@example.com', source: 'winter-line' }),
          }),
        )
        expect(form.status).toBe(303)
        expect(form.headers.get('location')).toBe('/newsletter/waitlisted')
        const draft = await shop.call('POST', '/api/newsletter', {
          email: 'd@example.com',
          source: 'draft-line',
        })
        expect(draft.status).toBe(422)
        expect((await draft.json()).error).toBe('Unknown sign-up form.')
      } finally {
        shop.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
