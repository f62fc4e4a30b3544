import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DEMO_WEBHOOK_SECRET } from '../../../api/adapters/demo-payments'
import { newsletterSubscribers } from '../../../db/schema'
import { signature } from '../checkout/helpers'
import { createTestApp, ORIGIN, type TestApp } from '../support/test-app'

/** A body that arrives in pieces with no Content-Length, as a `Transfer-Encoding: chunked` upload does. */
function chunked(text: string, chunkBytes = 16 * 1024): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text)
  let offset = 0
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close()
      controller.enqueue(bytes.slice(offset, offset + chunkBytes))
      offset += chunkBytes
    },
  })
}

function post(path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { origin: ORIGIN, 'content-type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit)
}

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp()
})
afterAll(() => shop.close())

describe('health', () => {
  test('answers ok when the database answers', async () => {
    const res = await shop.call('GET', '/api/health')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok' })
  })
})

describe('static site', () => {
  test('serves a directory page without and with the trailing slash', async () => {
    for (const path of ['/about', '/about/']) {
      const res = await shop.call('GET', path)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(await res.text()).toContain('<h1>About</h1>')
    }
  })

  test('HTML must be revalidated; hashed assets are cached for a year', async () => {
    const page = await shop.call('GET', '/')
    expect(page.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate')
    const asset = await shop.call('GET', '/_astro/app.AbC123.js')
    expect(asset.status).toBe(200)
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  })

  test('compresses text for clients that accept it and answers 304 to a matching ETag', async () => {
    const br = await shop.call('GET', '/', undefined, { 'accept-encoding': 'gzip, br' })
    expect(br.headers.get('content-encoding')).toBe('br')
    const gzip = await shop.call('GET', '/', undefined, { 'accept-encoding': 'gzip' })
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    const etag = gzip.headers.get('etag')
    expect(etag).toBeTruthy()
    const again = await shop.call('GET', '/', undefined, { 'if-none-match': etag ?? '' })
    expect(again.status).toBe(304)
  })

  test('an unknown path gets the Page Not Found page with status 404', async () => {
    const res = await shop.call('GET', '/no/such/page')
    expect(res.status).toBe(404)
    const html = await res.text()
    expect(html).toContain('Page Not Found')
    expect(html).toContain('The requested page could not be found.')
    expect(res.headers.get('cache-control')).toBe('no-store')
  })

  test('an unknown product gets the product not-found page with status 404', async () => {
    const res = await shop.call('GET', '/products/no-such-thing')
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('Product not found')
  })

  test('paths that try to leave the site folder find nothing', async () => {
    const res = await shop.call('GET', '/..%2F..%2Fpackage.json')
    expect(res.status).toBe(404)
  })

  test('an unknown API path is a JSON 404, not a page', async () => {
    const res = await shop.call('GET', '/api/nothing-here')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ error: 'Not found.' })
  })
})

describe('security', () => {
  test('every answer carries the security headers', async () => {
    for (const path of ['/', '/api/health', '/missing']) {
      const res = await shop.call('GET', path)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    }
  })

  test('state-changing calls from another site are refused', async () => {
    const res = await shop.call(
      'POST',
      '/api/newsletter',
      { email: 'a@b.co' },
      { origin: 'https://evil.example' },
    )
    expect(res.status).toBe(403)
    expect((await res.json()).error).toBe('This request must come from the shop itself.')
  })

  test('a body over 64 KB is refused with 413', async () => {
    const big = JSON.stringify({ email: `${'a'.repeat(70 * 1024)}@example.com` })
    const res = await shop.call('POST', '/api/newsletter', big, { 'content-length': String(big.length) })
    expect(res.status).toBe(413)
  })

  describe('a chunked body (no Content-Length) is held to the same cap while it is read', () => {
    const big = JSON.stringify({ email: 'big@example.com', source: 'home', pad: 'x'.repeat(900 * 1024) })

    test('900 KB to a JSON route is a 413 and nothing is stored', async () => {
      const res = await shop.app.handle(post('/api/newsletter', chunked(big)))
      expect(res.status).toBe(413)
      expect(await res.json()).toEqual({ error: 'The request body is too large.' })
      const rows = await shop.deps.db.select().from(newsletterSubscribers)
      expect(rows.map((row) => row.email)).not.toContain('big@example.com')
    })

    test('a small chunked body is read as usual', async () => {
      const body = JSON.stringify({ email: 'chunked@example.com', source: 'home' })
      const res = await shop.app.handle(post('/api/newsletter', chunked(body, 8)))
      expect(res.status).toBe(200)
    })

    test('the webhook, which reads its raw body itself, is capped too', async () => {
      const request = post('/api/stripe/webhook', chunked(big), { 'stripe-signature': 't=1,v1=00' })
      request.headers.delete('origin')
      const res = await shop.app.handle(request)
      expect(res.status).toBe(413)
      expect(await res.json()).toEqual({ error: 'The request body is too large.' })
    })

    test('a signed event sent in chunks still verifies: the route reads the body unchanged', async () => {
      const event = JSON.stringify({
        id: 'evt_chunked',
        object: 'event',
        type: 'payment_intent.succeeded',
        created: 1,
        data: { object: { id: 'pi_1', object: 'payment_intent' } },
      })
      const header = await signature(
        event,
        DEMO_WEBHOOK_SECRET,
        Math.floor(shop.clock.now().getTime() / 1000),
      )
      const request = post('/api/stripe/webhook', chunked(event, 7), { 'stripe-signature': header })
      request.headers.delete('origin')
      const res = await shop.app.handle(request)
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ received: true, status: 'ignored' })
    })

    test('through a listening server too', async () => {
      const served = await createTestApp()
      served.app.listen({ port: 0, hostname: '127.0.0.1' })
      try {
        const url = `http://127.0.0.1:${served.app.server?.port}`
        const send = (body: string) =>
          fetch(`${url}/api/newsletter`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: ORIGIN },
            body: chunked(body),
          })
        const res = await send(big)
        expect(res.status).toBe(413)
        expect(await res.json()).toEqual({ error: 'The request body is too large.' })
        const small = await send(JSON.stringify({ email: 'served@example.com' }))
        expect(small.status).toBe(200)
      } finally {
        await served.app.stop()
        served.close()
      }
    })
  })

  test('a body that is not JSON gets a 400 that does not echo it', async () => {
    const res = await shop.call('POST', '/api/newsletter', '{"email": "secret-password', {
      'content-type': 'application/json',
    })
    expect(res.status).toBe(400)
    const text = await res.text()
    expect(text).not.toContain('secret-password')
    expect(JSON.parse(text).error).toBe('The request body is not valid JSON.')
  })

  test('schema failures name the field and never echo the value', async () => {
    const res = await shop.call('POST', '/api/newsletter', { email: 12345678 })
    expect(res.status).toBe(422)
    const text = await res.text()
    expect(text).not.toContain('12345678')
    expect(JSON.parse(text).error).toBe('Please enter your e-mail address.')
  })
})

test('the shop origin constant is what the app trusts', () => {
  expect(shop.deps.config.publicUrl).toBe(ORIGIN)
})

test('an anonymous caller is not signed in: the sign-in check answers 401', async () => {
  const res = await shop.call('GET', '/api/auth/user')
  expect(res.status).toBe(401)
  expect(await res.json()).toEqual({ error: 'Please sign in to continue.' })
  // Nothing to clear for a browser that sent no session cookies.
  expect(res.headers.getSetCookie()).toEqual([])
})
