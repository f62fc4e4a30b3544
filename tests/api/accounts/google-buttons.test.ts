// The Google buttons are on the pages only when Google sign-in is configured. The site is built before the
// server knows its configuration, so each page with a Google button is built twice (the second under
// /without-google/) and the server answers with the one that fits; nothing links to a page that cannot work.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { OAuth2Server } from 'oauth2-mock-server'
import { createTestApp, type TestApp } from '../support/test-app'

setDefaultTimeout(30_000)

let provider: OAuth2Server
let withGoogle: TestApp
let withoutGoogle: TestApp

beforeAll(async () => {
  provider = new OAuth2Server()
  await provider.issuer.keys.generate('RS256')
  await provider.start(0, 'localhost')
  withGoogle = await createTestApp({
    GOOGLE_CLIENT_ID: 'buttons-test',
    GOOGLE_CLIENT_SECRET: 'test-secret',
    GOOGLE_ISSUER: provider.issuer.url ?? '',
  })
  withoutGoogle = await createTestApp()
})
afterAll(async () => {
  withGoogle.close()
  withoutGoogle.close()
  await provider.stop()
})

async function page(shop: TestApp, path: string): Promise<{ status: number; html: string }> {
  const res = await shop.call('GET', path)
  return { status: res.status, html: await res.text() }
}

describe('with Google sign-in configured', () => {
  test('the sign-in page links to Google sign-in, which leads on to Google', async () => {
    const login = await page(withGoogle, '/login')
    expect(login.status).toBe(200)
    expect(login.html).toContain('Sign in with Google')
    expect((await page(withGoogle, '/google-sign-in')).html).toContain('/auth/google')
    expect((await withGoogle.call('GET', '/auth/google')).status).toBe(302)
  })
})

describe('without Google sign-in', () => {
  test('the sign-in page has no Google button, and no page links to Google sign-in', async () => {
    const login = await page(withoutGoogle, '/login')
    expect(login.status).toBe(200)
    expect(login.html).toContain('Welcome Back')
    expect(login.html).not.toContain('google')
    const google = await page(withoutGoogle, '/google-sign-in')
    expect(google.status).toBe(200)
    expect(google.html).not.toContain('/auth/google')
  })

  test('the same answer for every spelling of the page, with its own ETag', async () => {
    const plain = await withoutGoogle.call('GET', '/login')
    for (const path of ['/login/', '/login/index.html']) {
      const res = await withoutGoogle.call('GET', path)
      expect([path, res.status, res.headers.get('etag')]).toEqual([path, 200, plain.headers.get('etag')])
    }
    const other = await withGoogle.call('GET', '/login')
    expect(other.headers.get('etag')).not.toBe(plain.headers.get('etag'))
  })
})

test('the built variants are never served at their own address', async () => {
  for (const shop of [withGoogle, withoutGoogle]) {
    for (const path of [
      '/without-google/login',
      '/without-google/login/',
      '/without-google/google-sign-in',
    ]) {
      expect([path, (await shop.call('GET', path)).status]).toEqual([path, 404])
    }
  }
})
