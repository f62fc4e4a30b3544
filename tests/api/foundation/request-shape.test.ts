/**
 * Requests the routes were not made for: a wrong method (405 with Allow), a body in a type the route does
 * not read (415), a body too large (413, chunked or not), JSON nested absurdly deep (400), and characters
 * that have no place in a name or an address (422), while ordinary Unicode is stored as it was typed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { newsletterSubscribers } from '../../../db/schema'
import { HOME } from '../checkout/helpers'
import { signUp, uniqueEmail } from '../support/accounts'
import { createTestApp, ORIGIN, type TestApp } from '../support/test-app'

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
})
afterAll(() => shop.close())

let counter = 0
/** A client address of its own per request, so the rate limits never answer in place of the route. */
function fresh(): Record<string, string> {
  counter += 1
  return { 'x-forwarded-for': `10.91.${(counter >> 8) & 255}.${counter & 255}` }
}

function send(
  method: string,
  path: string,
  init: { body?: BodyInit; headers?: Record<string, string> } = {},
) {
  return shop.app.handle(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers: { origin: ORIGIN, ...fresh(), ...init.headers },
      body: init.body,
      duplex: 'half',
    } as RequestInit),
  )
}

/** A concrete path for a route pattern: /api/orders/:id → /api/orders/1. */
const concrete = (path: string) => path.replace(/:[^/]+/g, '1')

const routes = () =>
  shop.app.routes
    .filter((route) => route.path !== '/*')
    .map((route) => ({ method: route.method, path: route.path }))

describe('a method the path does not take', () => {
  test('every API path answers other methods with 405 and an Allow header naming its own', async () => {
    const methodsByPath = new Map<string, Set<string>>()
    for (const route of routes()) {
      const methods = methodsByPath.get(route.path) ?? new Set<string>()
      methods.add(route.method)
      if (route.method === 'GET') methods.add('HEAD')
      methodsByPath.set(route.path, methods)
    }
    expect(methodsByPath.size).toBeGreaterThan(25)
    for (const [path, methods] of methodsByPath) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
        if (methods.has(method)) continue
        const res = await send(method, concrete(path))
        const allow = (res.headers.get('allow') ?? '').split(', ').sort()
        expect({ method, path, status: res.status, allow }).toEqual({
          method,
          path,
          status: 405,
          allow: [...methods].sort(),
        })
        expect((await res.json()).error).toStartWith('This address does not take that method.')
      }
    }
  })

  test('GET /api/newsletter is a 405 that says to POST, not a 404', async () => {
    const res = await send('GET', '/api/newsletter')
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST')
    expect(await res.json()).toEqual({ error: 'This address does not take that method. It takes POST.' })
  })

  test('a page of the site takes GET and HEAD: other methods get a 405, never the page or a 404', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      for (const path of ['/', '/about', '/about/']) {
        const res = await send(method, path, {
          body: method === 'DELETE' ? undefined : '{}',
          headers: { 'content-type': 'application/json' },
        })
        expect({ method, path, status: res.status, allow: res.headers.get('allow') }).toEqual({
          method,
          path,
          status: 405,
          allow: 'GET, HEAD',
        })
      }
    }
    expect((await send('GET', '/about')).status).toBe(200)
    expect((await send('HEAD', '/about')).status).toBe(200)
  })

  test('a path that does not exist for any method stays a 404', async () => {
    expect(
      (
        await send('POST', '/api/nothing-here', {
          body: '{}',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(404)
    expect((await send('DELETE', '/no/such/page')).status).toBe(404)
    expect((await send('GET', '/api/nothing-here')).status).toBe(404)
  })
})

describe('a body in a content type the route does not read', () => {
  const JSON_ROUTES: [string, string, unknown][] = [
    ['POST', '/api/validate-discount', { code: 'GRIT15', amount: 40 }],
    ['POST', '/api/auth/login', { email: 'a@example.com', password: 'sawdust-and-cedar' }],
    [
      'POST',
      '/auth/register',
      { firstName: 'A', lastName: 'B', email: 'a@example.com', password: 'x'.repeat(8) },
    ],
    ['POST', '/api/shipping/rates', { address: HOME, items: [{ id: 1, quantity: 1 }] }],
    ['PUT', '/api/auth/update-profile', { firstName: 'Text' }],
  ]

  test.each(JSON_ROUTES)(
    '%s %s: JSON sent as text/plain is a 415, never read as JSON',
    async (method, path, body) => {
      const res = await send(method, path, {
        body: JSON.stringify(body),
        headers: { 'content-type': 'text/plain' },
      })
      expect(res.status).toBe(415)
      expect(await res.json()).toEqual({
        error: 'This address does not take that content type. Send the body as application/json.',
      })
    },
  )

  test('a form post, XML, no Content-Type at all: all 415 on a JSON route', async () => {
    for (const type of [
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/jsonp',
      'text/json',
    ]) {
      const res = await send('POST', '/api/validate-discount', {
        body: 'code=GRIT15&amount=40',
        headers: { 'content-type': type },
      })
      expect({ type, status: res.status }).toEqual({ type, status: 415 })
    }
    const untyped = await send('POST', '/api/validate-discount', {
      body: new Blob(['{"code":"GRIT15","amount":40}']),
    })
    expect(untyped.status).toBe(415)
    expect((await untyped.json()).error).toBe(
      'The request body has no Content-Type. Send it as application/json.',
    )
  })

  test('JSON with a charset, or in capitals, is still JSON', async () => {
    for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
      const res = await send('POST', '/api/newsletter', {
        body: JSON.stringify({ email: uniqueEmail() }),
        headers: { 'content-type': type },
      })
      expect({ type, status: res.status }).toEqual({ type, status: 200 })
    }
  })

  test('the newsletter also takes the form posts of decision 009, and refuses text/plain', async () => {
    const form = await send('POST', '/api/newsletter', {
      body: new URLSearchParams({ email: 'form-shape@example.com', source: 'home' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect([form.status, form.headers.get('location')]).toEqual([303, '/newsletter/subscribed'])
    const multipart = new FormData()
    multipart.set('email', 'multipart-shape@example.com')
    const sent = await send('POST', '/api/newsletter', { body: multipart })
    expect([sent.status, sent.headers.get('location')]).toEqual([303, '/newsletter/subscribed'])
    const text = await send('POST', '/api/newsletter', {
      body: 'email=plain-shape@example.com',
      headers: { 'content-type': 'text/plain' },
    })
    expect(text.status).toBe(415)
    const emails = (await shop.deps.db.select().from(newsletterSubscribers)).map((row) => row.email)
    expect(emails).toContain('form-shape@example.com')
    expect(emails).toContain('multipart-shape@example.com')
    expect(emails).not.toContain('plain-shape@example.com')
  })
})

/** A body that arrives in pieces with no Content-Length, as a `Transfer-Encoding: chunked` upload does. */
function chunked(bytes: number, chunkBytes = 64 * 1024): ReadableStream<Uint8Array> {
  let sent = 0
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close()
      const size = Math.min(chunkBytes, bytes - sent)
      controller.enqueue(
        new TextEncoder().encode(sent === 0 ? `{"email":"${'a'.repeat(size - 10)}` : 'a'.repeat(size)),
      )
      sent += size
    },
  })
}

describe('bodies over the cap', () => {
  const TOO_LARGE = { error: 'The request body is too large.' }

  test.each([
    ['1 MB', 1024 * 1024],
    ['10 MB', 10 * 1024 * 1024],
  ])('%s with a Content-Length is a 413 with a clear message', async (_, bytes) => {
    const body = JSON.stringify({ email: `${'a'.repeat(bytes)}@example.com` })
    const res = await send('POST', '/api/newsletter', {
      body,
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual(TOO_LARGE)
  })

  test.each([
    ['1 MB', 1024 * 1024],
    ['10 MB', 10 * 1024 * 1024],
  ])('%s chunked, with no length declared, is a 413 too', async (_, bytes) => {
    for (const path of ['/api/newsletter', '/api/auth/login', '/api/stripe/webhook']) {
      const res = await send('POST', path, {
        body: chunked(bytes),
        headers: { 'content-type': 'application/json' },
      })
      expect({ path, status: res.status }).toEqual({ path, status: 413 })
      expect(await res.json()).toEqual(TOO_LARGE)
    }
  })

  test('10 MB chunked to a listening server is a 413, and the server answers the next request', async () => {
    const served = await createTestApp()
    served.app.listen({ port: 0, hostname: '127.0.0.1' })
    try {
      const url = `http://127.0.0.1:${served.app.server?.port}/api/newsletter`
      const headers = { 'content-type': 'application/json', origin: ORIGIN }
      const res = await fetch(url, { method: 'POST', headers, body: chunked(10 * 1024 * 1024) })
      expect(res.status).toBe(413)
      expect(await res.json()).toEqual(TOO_LARGE)
      const next = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: 'after@example.com' }),
      })
      expect(next.status).toBe(200)
    } finally {
      await served.app.stop(true)
      served.close()
    }
  })
})

describe('JSON nested absurdly deep', () => {
  const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`
  const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
  const inField = (depth: number) => `{"email":"deep@example.com","source":${arrays(depth)}}`

  test.each([
    ['arrays', arrays(10_000)],
    ['objects', objects(10_000)],
    ['inside a field', inField(10_000)],
  ])('10,000 levels of %s is a 400, quickly, on every kind of route', async (_, body) => {
    const staff = await signUp(shop)
    const started = performance.now()
    for (const [method, path, cookie] of [
      ['POST', '/api/newsletter', ''],
      ['POST', '/api/auth/login', ''],
      ['POST', '/api/shipping/rates', ''],
      ['POST', '/api/create-checkout-session', ''],
      ['PUT', '/api/auth/update-profile', staff.cookie],
    ] as const) {
      const res = await send(method, path, { body, headers: { 'content-type': 'application/json', cookie } })
      expect({ path, status: res.status }).toEqual({ path, status: 400 })
      expect(await res.json()).toEqual({
        error: 'The request body is nested too deeply (more than 32 levels).',
      })
    }
    expect(performance.now() - started).toBeLessThan(5_000)
  })

  test('an ordinary body is far from too deep', async () => {
    const res = await send('POST', '/api/shipping/rates', {
      body: JSON.stringify({ address: HOME, items: [{ id: 1, quantity: 1, weight: '3.0' }], subtotal: 21 }),
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(200)
  })
})

describe('unicode and control characters in string fields', () => {
  test('names refuse control characters and bidi overrides with a 422 naming the field', async () => {
    for (const firstName of [
      'Sam\u0000',
      'Sam\u0007bell',
      'Sam\u0085',
      'Sam\u2028Two',
      '\u202eSam',
      'Sam\u2066x',
    ]) {
      const res = await send('POST', '/auth/register', {
        body: JSON.stringify({
          firstName,
          lastName: 'Carpenter',
          email: uniqueEmail(),
          password: 'sawdust-and-cedar',
        }),
        headers: { 'content-type': 'application/json' },
      })
      expect({ firstName, status: res.status }).toEqual({ firstName, status: 422 })
      expect(await res.json()).toEqual({ error: 'Please check your first name.' })
    }
  })

  test('a shipping address refuses a control character inside a field, naming it', async () => {
    for (const [field, value, label] of [
      ['name', 'Dana\u0000Cole', 'name'],
      ['street1', '12 Mill Rd\nBcc: x', 'street address'],
      ['city', 'San\u0008Francisco', 'city'],
    ]) {
      const res = await send('POST', '/api/shipping/rates', {
        body: JSON.stringify({
          address: { ...HOME, [field as string]: value },
          items: [{ id: 1, quantity: 1 }],
        }),
        headers: { 'content-type': 'application/json' },
      })
      expect({ field, status: res.status }).toEqual({ field, status: 422 })
      expect(await res.json()).toEqual({
        error: `Please check the ${label}: it has a character that cannot be printed.`,
      })
    }
  })

  test('letters of any script, emoji and markup are stored as plain text and come back unchanged', async () => {
    const customer = await signUp(shop, { firstName: 'José Ñúñez', lastName: '山田 🧔' })
    const markup = '<script>alert(1)</script>'
    const res = await send('PUT', '/api/auth/update-profile', {
      body: JSON.stringify({ firstName: markup, lastName: "O'Brien; DROP TABLE users;--" }),
      headers: { 'content-type': 'application/json', cookie: customer.cookie },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('application/json')
    const me = await (await send('GET', '/api/auth/user', { headers: { cookie: customer.cookie } })).json()
    expect([me.firstName, me.lastName]).toEqual([markup, "O'Brien; DROP TABLE users;--"])
  })
})
