// Google sign-in against a local OpenID provider (oauth2-mock-server) through the real openid-client
// adapter: PKCE, state and nonce travel the whole round trip, and the ID token is really verified.
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { OAuth2Server } from 'oauth2-mock-server'
import type { CookieJar } from '../../../api/modules/auth/cookies'
import { readTrip, saveTrip } from '../../../api/modules/auth/google-trip'
import { sessions, users } from '../../../db/schema'
import {
  type Customer,
  cookieHeader,
  setCookies,
  signIn,
  signUp,
  uniqueAddress,
  uniqueEmail,
  whoAmI,
} from '../support/accounts'
import { googleEnv, startGoogleProvider } from '../support/google-provider'
import { memoryMailer } from '../support/orders'
import { createTestApp, ORIGIN, type TestApp } from '../support/test-app'

const CLIENT_ID = 'grit-and-whisker-test'
let provider: OAuth2Server
// Argon2id is slow on purpose (about 0.2 s a hash on a busy machine), and these tests hash a lot.
setDefaultTimeout(60_000)

let shop: TestApp
const mailer = memoryMailer()
/** What the provider puts in the next ID tokens. */
let claims: Record<string, unknown> = {}

beforeAll(async () => {
  provider = await startGoogleProvider(() => claims)
  shop = await createTestApp({ ...googleEnv(provider, CLIENT_ID), TRUST_PROXY: 'true' }, { mailer })
})
afterAll(async () => {
  shop.close()
  await provider.stop()
})
afterEach(() => {
  provider.service.removeAllListeners('beforeAuthorizeRedirect')
})

function person(email: string, extra: Record<string, unknown> = {}) {
  return {
    sub: `google-${email}`,
    email,
    email_verified: true,
    given_name: 'Gail',
    family_name: 'Grover',
    picture: 'https://lh3.example/photo.jpg',
    ...extra,
  }
}

/**
 * The browser's trip: /auth/google → the provider's authorize page (which answers at once) → the shop's
 * callback with the sign-in cookie. `tamper` may change the callback URL on the way back.
 */
async function googleRoundTrip(
  tamper: (callback: URL) => URL = (url) => url,
  startPath = '/auth/google',
  tamperCookie: (cookie: string) => string = (cookie) => cookie,
) {
  const start = await shop.call('GET', startPath)
  expect(start.status).toBe(302)
  const authorize = new URL(start.headers.get('location') ?? '')
  const signInCookie = tamperCookie(cookieHeader(start))
  const atProvider = await fetch(authorize, { redirect: 'manual' })
  expect(atProvider.status).toBe(302)
  const callback = tamper(new URL(atProvider.headers.get('location') ?? ''))
  expect(callback.origin + callback.pathname).toBe(`${ORIGIN}/auth/google/callback`)
  const done = await shop.call('GET', callback.pathname + callback.search, undefined, {
    cookie: signInCookie,
  })
  return { start, authorize, done }
}

/** Proves the customer's e-mail with the link sign-up sent, as its owner would. */
async function proveEmail(customer: Customer) {
  await shop.runDueJobs()
  const mail = mailer.sent.find(
    (message) => message.to === customer.email && message.text.includes('/verify-email'),
  )
  const token = /verify-email\?token=([a-z2-7]{32})/.exec(mail?.text ?? '')?.[1]
  const res = await shop.call(
    'POST',
    '/api/auth/verify-email',
    { token },
    {
      ...uniqueAddress(),
      cookie: customer.cookie,
    },
  )
  expect(res.status).toBe(200)
}

describe('without configuration', () => {
  test('/auth/google is a page that says Google sign-in is not set up, with a way back', async () => {
    const plain = await createTestApp()
    try {
      const res = await plain.call('GET', '/auth/google')
      expect(res.status).toBe(503)
      expect(res.headers.get('content-type')).toStartWith('text/html')
      const html = await res.text()
      expect(html).toContain('<h1>Google sign-in is not set up</h1>')
      expect(html).toContain('<a href="/login">Back to sign in</a>')
      expect(html).toContain('<html lang="en">')
      const callback = await plain.call('GET', '/auth/google/callback?code=x&state=y')
      expect(callback.status).toBe(302)
      expect(callback.headers.get('location')).toBe('/auth/google')
    } finally {
      plain.close()
    }
  })
})

describe('with a provider', () => {
  test('the start sends the browser to the provider with PKCE, state and nonce kept in an HttpOnly cookie', async () => {
    const res = await shop.call('GET', '/auth/google')
    expect(res.status).toBe(302)
    const url = new URL(res.headers.get('location') ?? '')
    expect(url.origin).toBe(new URL(provider.issuer.url ?? '').origin)
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID)
    expect(url.searchParams.get('redirect_uri')).toBe(`${ORIGIN}/auth/google/callback`)
    expect(url.searchParams.get('response_type')).toBe('code')
    expect(url.searchParams.get('scope')).toBe('openid email profile')
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/)
    const state = url.searchParams.get('state') ?? ''
    const nonce = url.searchParams.get('nonce') ?? ''
    expect(state.length).toBeGreaterThan(20)
    expect(nonce.length).toBeGreaterThan(20)
    const cookie = setCookies(res).get('google_sign_in')
    expect(cookie?.attributes).toEqual(
      expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/', 'Max-Age=600']),
    )
    expect(cookie?.value.split('.')[0]).toBe(state)
    expect(cookie?.value).not.toContain(url.searchParams.get('code_challenge') ?? '-')
  })

  test("in production the trip's cookie is host-only, and one under the plain name is not read", () => {
    const policy = { secure: true }
    const jar: Record<string, { value?: unknown; set(options: Record<string, unknown>): void }> = {}
    const cookieOf = (name: string) => {
      jar[name] ??= {
        set(options) {
          Object.assign(this, options)
        },
      }
      return jar[name]
    }
    const proxy = new Proxy(jar, { get: (_, name: string) => cookieOf(name) }) as unknown as CookieJar
    const trip = {
      checks: { state: 's'.repeat(22), nonce: 'n'.repeat(22), codeVerifier: 'v'.repeat(43) },
      next: null,
    }
    saveTrip(proxy, trip, policy)
    expect(jar['__Host-google_sign_in']).toMatchObject({ path: '/', secure: true, httpOnly: true })
    expect(readTrip(proxy, policy)).toEqual(trip)
    // Planted under the plain name (as another host under the domain could): not this shop's trip.
    const planted = { google_sign_in: { value: jar['__Host-google_sign_in']?.value } } as unknown as CookieJar
    expect(readTrip(planted, policy)).toBeNull()
  })

  test('a new verified e-mail creates an account without a password and signs it in by cookie', async () => {
    const email = uniqueEmail('gail')
    claims = person(email)
    const { done } = await googleRoundTrip()
    expect(done.status).toBe(302)
    expect(done.headers.get('location')).toBe('/account')
    const cookies = setCookies(done)
    expect(cookies.get('session')?.attributes).toContain('HttpOnly')
    expect(cookies.get('signed_in')?.value).toBe('1')
    expect(cookies.get('google_sign_in')?.attributes).toContain('Max-Age=0')

    const res = await whoAmI(shop, cookieHeader(done))
    expect(res.status).toBe(200)
    const me = await res.json()
    expect(me).toMatchObject({
      email,
      firstName: 'Gail',
      lastName: 'Grover',
      photoURL: 'https://lh3.example/photo.jpg',
      hasPassword: false,
      role: 'customer',
    })

    // docs/product.md#accounts: a Google account cannot sign in with a password, and is told to use Google.
    const password = await signIn(shop, email, 'any-password-at-all')
    expect(password.status).toBe(401)
    expect(await password.json()).toEqual({
      error: 'This email is registered with Google. Please use Google Sign In.',
      useGoogle: true,
    })

    // Signing in again finds the same account.
    const again = await googleRoundTrip()
    expect((await (await whoAmI(shop, cookieHeader(again.done))).json()).id).toBe(me.id)
    expect(await shop.deps.db.select().from(users).where(eq(users.email, email))).toHaveLength(1)
  })

  test('a Google account has a verified e-mail', async () => {
    const email = uniqueEmail('proved')
    claims = person(email)
    const { done } = await googleRoundTrip()
    expect((await (await whoAmI(shop, cookieHeader(done))).json()).emailVerified).toBe(true)
  })

  test('a verified password account signs in with Google and keeps its password and sessions (docs/product.md#google-sign-in)', async () => {
    const customer = await signUp(shop, { firstName: 'Pat', lastName: 'Mason' })
    await proveEmail(customer)
    claims = person(customer.email, { given_name: 'Patricia' })
    const { done } = await googleRoundTrip()
    expect(done.headers.get('location')).toBe('/account')
    const me = await (await whoAmI(shop, cookieHeader(done))).json()
    expect(me.id).toBe(customer.id)
    // The account keeps its own name and its password, and the browser signed in before stays signed in.
    expect(me.firstName).toBe('Pat')
    expect(me.hasPassword).toBe(true)
    expect((await whoAmI(shop, customer.cookie)).status).toBe(200)
    expect((await signIn(shop, customer.email, customer.password)).status).toBe(200)
  })

  test('pre-hijacking: Google on an unverified account ends its sessions and clears its password', async () => {
    // Someone registers the address before its owner ever comes to the shop, and stays signed in.
    const squatter = await signUp(shop, { firstName: 'Pat', lastName: 'Mason' })
    const otherBrowser = cookieHeader(await signIn(shop, squatter.email, squatter.password, uniqueAddress()))
    expect((await whoAmI(shop, otherBrowser)).status).toBe(200)

    // The owner signs in with Google, whose claim proves the address.
    claims = person(squatter.email)
    const { done } = await googleRoundTrip()
    expect(done.headers.get('location')).toBe('/account')
    const me = await (await whoAmI(shop, cookieHeader(done))).json()
    expect(me).toMatchObject({ id: squatter.id, hasPassword: false, emailVerified: true })

    // Every session the squatter held is gone, and their password opens nothing.
    expect((await whoAmI(shop, squatter.cookie)).status).toBe(401)
    expect((await whoAmI(shop, otherBrowser)).status).toBe(401)
    const rows = await shop.deps.db.select().from(sessions).where(eq(sessions.userId, squatter.id))
    expect(rows).toHaveLength(1)
    const password = await signIn(shop, squatter.email, squatter.password, uniqueAddress())
    expect(password.status).toBe(401)
    expect((await password.json()).useGoogle).toBe(true)
  })

  test('a new Google account with the address of an account linked to another takes the account over', async () => {
    const email = uniqueEmail('relinked')
    claims = person(email)
    const first = await googleRoundTrip()
    const me = await (await whoAmI(shop, cookieHeader(first.done))).json()
    // The address now belongs to a new Google account (the old one deleted and made again): its reader owns
    // the account, as a reset link would let them (docs/decisions/016).
    claims = person(email, { sub: `new-owner-of-${email}` })
    const { done } = await googleRoundTrip()
    expect(done.headers.get('location')).toBe('/account')
    expect((await (await whoAmI(shop, cookieHeader(done))).json()).id).toBe(me.id)
    const [row] = await shop.deps.db.select().from(users).where(eq(users.id, me.id))
    expect(row?.googleSubject).toBe(`new-owner-of-${email}`)
  })

  test('an unverified e-mail signs nobody in and creates nothing', async () => {
    const customer = await signUp(shop)
    claims = person(customer.email, { email_verified: false })
    const { done } = await googleRoundTrip()
    expect(done.headers.get('location')).toBe('/login?google=unverified')
    expect(setCookies(done).get('session')).toBeUndefined()

    const stranger = uniqueEmail('unverified')
    claims = person(stranger, { email_verified: false })
    await googleRoundTrip()
    expect(await shop.deps.db.select().from(users).where(eq(users.email, stranger))).toEqual([])
  })

  test('a changed state, a missing sign-in cookie or a wrong nonce are refused', async () => {
    claims = person(uniqueEmail('tamper'))
    const badState = await googleRoundTrip((url) => {
      url.searchParams.set('state', 'forged-state')
      return url
    })
    expect(badState.done.headers.get('location')).toBe('/login?google=failed')
    expect(setCookies(badState.done).get('session')).toBeUndefined()

    const start = await shop.call('GET', '/auth/google')
    const atProvider = await fetch(new URL(start.headers.get('location') ?? ''), { redirect: 'manual' })
    const callback = new URL(atProvider.headers.get('location') ?? '')
    const noCookie = await shop.call('GET', callback.pathname + callback.search)
    expect(noCookie.headers.get('location')).toBe('/login?google=failed')

    claims = { ...person(uniqueEmail('nonce')), nonce: 'someone-elses-nonce' }
    const wrongNonce = await googleRoundTrip()
    expect(wrongNonce.done.headers.get('location')).toBe('/login?google=failed')
    expect(setCookies(wrongNonce.done).get('session')).toBeUndefined()
  })

  test('an ID token for another client is refused', async () => {
    claims = { ...person(uniqueEmail('aud')), aud: 'some-other-app' }
    const { done } = await googleRoundTrip()
    expect(done.headers.get('location')).toBe('/login?google=failed')
  })

  test('the provider saying no (access denied) leads back to the sign-in page', async () => {
    provider.service.once('beforeAuthorizeRedirect', (redirect) => {
      redirect.url.searchParams.delete('code')
      redirect.url.searchParams.set('error', 'access_denied')
    })
    claims = person(uniqueEmail('denied'))
    const { done } = await googleRoundTrip()
    expect(done.headers.get('location')).toBe('/login?google=failed')
  })

  test('no credential ever travels in a redirect URL', async () => {
    claims = person(uniqueEmail('urls'))
    const { done } = await googleRoundTrip()
    const session = setCookies(done).get('session')?.value ?? 'missing'
    expect(done.headers.get('location')).toBe('/account')
    expect(done.headers.get('location')).not.toContain(session)
  })

  test('the page to go back to (next) survives the round trip, and the provider never sees it', async () => {
    const next = '/account/orders?number=000042#items'
    claims = person(uniqueEmail('next'))
    const { start, authorize, done } = await googleRoundTrip(
      undefined,
      `/auth/google?next=${encodeURIComponent(next)}`,
    )
    expect(authorize.toString()).not.toContain('orders')
    expect(setCookies(start).get('google_sign_in')?.attributes).toContain('HttpOnly')
    expect(done.status).toBe(302)
    expect(done.headers.get('location')).toBe(next)
    expect(setCookies(done).get('signed_in')?.value).toBe('1')
  })

  test('a next that leaves the site is dropped: the account page, never another host', async () => {
    for (const next of [
      '//evil.example',
      'https://evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/\r\nLocation: https://evil.example',
    ]) {
      claims = person(uniqueEmail('evil'))
      const { done } = await googleRoundTrip(undefined, `/auth/google?next=${encodeURIComponent(next)}`)
      expect(done.headers.get('location')).toBe('/account')
    }
  })

  test('a next planted in the sign-in cookie is checked again on the way back', async () => {
    claims = person(uniqueEmail('planted'))
    const planted = Buffer.from('//evil.example/').toString('base64url')
    const { done } = await googleRoundTrip(undefined, '/auth/google?next=%2Fprofile', (cookie) =>
      cookie.replace(/(google_sign_in=[^.;]+\.[^.;]+\.[^.;]+)\.[^;]*/, `$1.${planted}`),
    )
    expect(done.headers.get('location')).toBe('/account')
  })

  test('a failed trip goes back to the sign-in page still knowing where the visitor was going', async () => {
    claims = { ...person(uniqueEmail('next-fail')), aud: 'some-other-app' }
    const { done } = await googleRoundTrip(undefined, '/auth/google?next=%2Fshipping')
    expect(done.headers.get('location')).toBe('/login?google=failed&next=%2Fshipping')
  })
})
