import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestApp, ORIGIN, type TestApp } from '../support/test-app'

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

test('nobody is signed in until accounts exist: the sign-in check answers 401', async () => {
  const res = await shop.call('GET', '/api/auth/user')
  expect(res.status).toBe(401)
  expect(await res.json()).toEqual({ error: 'Not signed in.' })
})
