// Attacks on where the shop sends people and whose requests it takes: crafted `next` values after sign-in
// (dot segments, backslashes, encodings, tabs and newlines that a URL parser turns into another host), on
// the sign-in page's own logic and through Google's round trip on the server; and state-changing requests
// with every mix of Host, Origin and Fetch Metadata, DNS rebinding among them. The shop takes a request
// from PUBLIC_URL, or from a page at the very IP address or `localhost` the request was sent to; nothing
// else.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { isIP } from 'node:net'
import { OAuth2Server } from 'oauth2-mock-server'
import { afterSignIn, googleSignInHref } from '../../../site/features/account/redirects'
import { cookieHeader, uniqueEmail } from '../support/accounts'
import { createTestApp, ORIGIN, type TestApp } from '../support/test-app'
import { attackCounter } from './tally'

setDefaultTimeout(60_000)

const attacks = attackCounter('redirects-origins')
let provider: OAuth2Server
let shop: TestApp
let email = ''

beforeAll(async () => {
  provider = new OAuth2Server()
  await provider.issuer.keys.generate('RS256')
  await provider.start(0, 'localhost')
  provider.service.on('beforeTokenSigning', (token) => {
    Object.assign(token.payload, {
      sub: `google-${email}`,
      email,
      email_verified: true,
      given_name: 'Gail',
      family_name: 'Grover',
    })
  })
  shop = await createTestApp({
    GOOGLE_CLIENT_ID: 'grit-and-whisker-redirects',
    GOOGLE_CLIENT_SECRET: 'test-secret',
    GOOGLE_ISSUER: provider.issuer.url ?? '',
    TRUST_PROXY: 'true',
  })
})
afterAll(async () => {
  shop.close()
  await provider.stop()
  attacks.record()
})

/** Whether a browser on the shop's page `page`, sent to `target`, stays on the shop. */
function staysOnTheShop(target: string, page = `${ORIGIN}/login`): boolean {
  try {
    return new URL(target, page).origin === ORIGIN
  } catch {
    return false
  }
}

const HOSTS = ['evil.example', 'evil.example:443', '127.0.0.1', '[::1]', 'evil.example%2F']
/** Shapes of a path that a URL parser turns into `//host…` or `\\host…`, or that are another host already. */
const SHAPES = [
  (h: string) => `/.//${h}/phish`,
  (h: string) => `/..//${h}/phish`,
  (h: string) => `/a/..//${h}`,
  (h: string) => `/./.././/${h}`,
  (h: string) => `/%2e//${h}`,
  (h: string) => `/%2E%2E//${h}`,
  (h: string) => `/.%2e//${h}`,
  (h: string) => `/.\\/${h}`,
  (h: string) => `/..\\\\${h}`,
  (h: string) => `/.\\\\${h}`,
  (h: string) => `/./\\${h}`,
  (h: string) => `/.\t//${h}`,
  (h: string) => `/.\n//${h}`,
  (h: string) => `/\t/${h}`,
  (h: string) => `/\r\n/${h}`,
  (h: string) => `//${h}`,
  (h: string) => `/\\${h}`,
  (h: string) => `\\\\${h}`,
  (h: string) => `https://${h}`,
  (h: string) => `http:${h}`,
  (h: string) => `/ /${h}`,
  (h: string) => `/.%09//${h}`,
  (h: string) => `/%5C${h}`,
  (h: string) => `/%2F%2F${h}`,
]
const NEXTS = HOSTS.flatMap((host) => SHAPES.map((shape) => shape(host)))

describe('open redirect after sign-in', () => {
  test('the sign-in page sends the visitor to a path on the shop for every crafted next', () => {
    const left: string[] = []
    for (const next of NEXTS) {
      for (const search of [
        `?next=${encodeURIComponent(next)}`,
        // Sent half-encoded, as a hand-made link would be: the browser's URLSearchParams decodes it.
        `?next=${next.replaceAll('/', '%2F')}`,
      ]) {
        attacks.tried()
        const target = afterSignIn(search)
        const google = googleSignInHref(search)
        if (!staysOnTheShop(target) || !staysOnTheShop(google) || !target.startsWith('/')) left.push(search)
      }
    }
    expect(left).toEqual([])
  })

  test("Google's round trip, checked on the server, sends the visitor back to a path on the shop", async () => {
    const left: { next: string; location: string | null }[] = []
    for (const next of NEXTS) {
      attacks.tried()
      email = uniqueEmail('redirect')
      const start = await shop.call('GET', `/auth/google?next=${encodeURIComponent(next)}`, undefined, {
        'x-forwarded-for': '10.60.0.1',
      })
      expect(start.status).toBe(302)
      const atProvider = await fetch(start.headers.get('location') ?? '', { redirect: 'manual' })
      const callback = new URL(atProvider.headers.get('location') ?? '')
      const done = await shop.call('GET', callback.pathname + callback.search, undefined, {
        cookie: cookieHeader(start),
        'x-forwarded-for': '10.60.0.1',
      })
      const location = done.headers.get('location')
      if (done.status !== 302 || !location || !staysOnTheShop(location, `${ORIGIN}/auth/google/callback`)) {
        left.push({ next, location })
      }
    }
    expect(left).toEqual([])
  })
})

describe('which requests may change state', () => {
  const PORT = new URL(ORIGIN).port
  const HOST_NAMES = [
    `localhost:${PORT}`,
    `127.0.0.1:${PORT}`,
    `[::1]:${PORT}`,
    `192.168.1.20:${PORT}`,
    `[fd00::20]:${PORT}`,
    `localhost:5000`,
    `rebound.example:${PORT}`,
    `127.0.0.1.nip.io:${PORT}`,
    `evil.localhost:${PORT}`,
    `localhost.evil.example:${PORT}`,
    `shop.example`,
  ]
  const FETCH_SITES = [null, 'same-origin', 'same-site', 'cross-site', 'none']

  /**
   * The rule, written out independently of the shop's code: PUBLIC_URL, or the very address the request
   * was sent to when it is an IP literal or exactly `localhost`; Fetch Metadata, when sent, same-origin.
   */
  function expected(host: string, origin: string | null, site: string | null): boolean {
    if (site !== null && site !== 'same-origin') return false
    if (origin === null) return site === 'same-origin'
    if (origin === ORIGIN) return true
    if (origin !== `http://${host}` && origin !== `https://${host}`) return false
    const name = host.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1')
    return name === 'localhost' || isIP(name) !== 0
  }

  test('every mix of Host, Origin and Sec-Fetch-Site is taken exactly when the rule says so', async () => {
    const wrong: string[] = []
    let taken = 0
    for (const host of HOST_NAMES) {
      const origins = [
        null,
        'null',
        ORIGIN,
        `http://${host}`,
        `https://${host}`,
        ...HOST_NAMES.filter((other) => other !== host).map((other) => `http://${other}`),
      ]
      for (const origin of origins) {
        for (const site of FETCH_SITES) {
          attacks.tried()
          const headers: Record<string, string> = {}
          if (origin !== null) headers.origin = origin
          if (site !== null) headers['sec-fetch-site'] = site
          const res = await shop.app.handle(
            new Request(`http://${host}/api/auth/logout`, { method: 'POST', headers }),
          )
          const ok = res.status === 200
          if (ok) taken += 1
          if (ok !== expected(host, origin, site) || (!ok && res.status !== 403)) {
            wrong.push(`${host} ← ${origin} (${site ?? 'no Fetch Metadata'}): ${res.status}`)
          }
        }
      }
    }
    expect(wrong).toEqual([])
    // The matrix is not all refusals: the shop's own addresses do get through.
    expect(taken).toBeGreaterThan(10)
  })

  test("DNS rebinding: a page on an attacker's name, resolved to the shop, is refused however it asks", async () => {
    for (const name of [
      'rebound.example',
      'a.b.rebound.example',
      '127-0-0-1.rebound.example',
      'localhost.rebound.example',
    ]) {
      for (const port of [PORT, '80', '']) {
        const host = port ? `${name}:${port}` : name
        for (const site of [null, 'same-origin']) {
          attacks.tried()
          const headers: Record<string, string> = {
            origin: `http://${host}`,
            'content-type': 'application/json',
          }
          if (site) headers['sec-fetch-site'] = site
          const res = await shop.app.handle(
            new Request(`http://${host}/api/newsletter`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ email: 'rebound@example.com' }),
            }),
          )
          expect(res.status).toBe(403)
        }
      }
    }
  })
})
