// Answers while the server shuts down (api/server.ts): draining, every answer closes its connection;
// closing, a new request is told to come back (503, Retry-After) and nothing is done for it.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { lifecycle } from '../../../api/lib/lifecycle'
import { newsletterSubscribers } from '../../../db/schema'
import { createTestApp, type TestApp } from '../support/test-app'

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp()
})
afterAll(() => shop.close())
afterEach(() => {
  lifecycle.draining = false
  lifecycle.closing = false
})

describe('shutting down', () => {
  test('while draining, requests are served and every answer closes its connection', async () => {
    lifecycle.draining = true
    const res = await shop.call('GET', '/api/health')
    expect(res.status).toBe(200)
    expect(res.headers.get('connection')).toBe('close')
    expect((await shop.call('GET', '/api/ready')).status).toBe(503)
  })

  test('once closing, a new request is answered 503 with Retry-After, and nothing is done for it', async () => {
    lifecycle.draining = true
    lifecycle.closing = true
    const before = performance.now()
    const res = await shop.call(
      'POST',
      '/api/newsletter',
      { email: 'closing@example.com' },
      { 'x-forwarded-for': '10.99.0.1' },
    )
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('2')
    expect(res.headers.get('connection')).toBe('close')
    expect(res.headers.get('x-request-id')).toBeTruthy()
    // Like every answer, it carries the security headers.
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(await res.json()).toEqual({ error: 'The shop is restarting. Please try again in a moment.' })
    expect(lifecycle.lastRequestAt).toBeGreaterThanOrEqual(before)
    const rows = await shop.deps.db.select().from(newsletterSubscribers)
    expect(rows.some((row) => row.email === 'closing@example.com')).toBe(false)
  })

  test('every request notes when it arrived, so the listener closes at a quiet moment', async () => {
    const before = performance.now()
    await shop.call('GET', '/api/health')
    expect(lifecycle.lastRequestAt).toBeGreaterThanOrEqual(before)
  })
})
