// Sign-up, sign-in, sessions and sign-out through the real app: cookies, stored hashes, bad input and
// the brute-force limit.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { Elysia } from 'elysia'
import { createApp } from '../../../api/app'
import { setSessionCookies } from '../../../api/modules/auth/cookies'
import { hashToken, SESSION_LIFETIME_MS } from '../../../api/modules/auth/sessions'
import { createServices } from '../../../api/services'
import { sessions, signInFailures, users } from '../../../db/schema'
import { cookieHeader, PASSWORD, setCookies, signIn, signUp, uniqueEmail, whoAmI } from '../support/accounts'
import { createTestApp, ORIGIN, type TestApp } from '../support/test-app'

// Argon2id is slow on purpose (about 0.2 s a hash on a busy machine), and these tests hash a lot.
setDefaultTimeout(60_000)

let shop: TestApp
beforeAll(async () => {
  // Trusting X-Forwarded-For lets a test play several client addresses.
  shop = await createTestApp({ TRUST_PROXY: 'true' })
})
afterAll(() => shop.close())

const DAY_MS = 24 * 60 * 60 * 1000
const THIRTY_DAYS_S = String(30 * 24 * 60 * 60)

describe('sign-up', () => {
  test('creates the account, signs it in with two cookies, and stores only hashes', async () => {
    const email = uniqueEmail('Dana')
    const res = await shop.call('POST', '/auth/register', {
      firstName: ' Dana ',
      lastName: 'Cole',
      email: ` ${email.toUpperCase()} `,
      password: PASSWORD,
    })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toEqual({
      authenticated: true,
      message: 'Account created successfully!',
      user: {
        id: expect.any(String),
        email: email.toLowerCase(),
        firstName: 'Dana',
        lastName: 'Cole',
        phone: '',
        photoURL: null,
        address: null,
        notifications: { email: true, sms: false },
        role: 'customer',
        hasPassword: true,
        // Signed in at once; the address is proved later by the e-mailed link.
        emailVerified: false,
      },
    })
    expect(res.headers.get('cache-control')).toBe('no-store')

    const cookies = setCookies(res)
    const session = cookies.get('session')
    const hint = cookies.get('signed_in')
    expect(session?.value).toMatch(/^[a-z2-7]{32}$/)
    expect(session?.attributes).toEqual(
      expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/', `Max-Age=${THIRTY_DAYS_S}`]),
    )
    // Not Secure on plain-http test and development servers (production is checked below).
    expect(session?.attributes).not.toContain('Secure')
    expect(hint?.value).toBe('1')
    expect(hint?.attributes).toEqual(
      expect.arrayContaining(['SameSite=Lax', 'Path=/', `Max-Age=${THIRTY_DAYS_S}`]),
    )
    expect(hint?.attributes).not.toContain('HttpOnly')

    const [row] = await shop.deps.db.select().from(users).where(eq(users.id, body.user.id))
    expect(row?.passwordHash).toStartWith('$argon2id$')
    expect(row?.passwordHash).not.toContain(PASSWORD)
    const stored = await shop.deps.db.select().from(sessions).where(eq(sessions.userId, body.user.id))
    expect(stored.map((s) => s.id)).toEqual([hashToken(session?.value ?? '')])
    expect(stored[0]?.expiresAt.getTime()).toBe(shop.clock.now().getTime() + SESSION_LIFETIME_MS)

    const me = await whoAmI(shop, cookieHeader(res))
    expect(me.status).toBe(200)
    expect(await me.json()).toEqual(body.user)
  })

  test('a taken e-mail is a 409 whatever its capitals, and signs nobody in', async () => {
    const first = await signUp(shop)
    const res = await shop.call('POST', '/auth/register', {
      firstName: 'Other',
      lastName: 'Person',
      email: first.email.toUpperCase(),
      password: 'another-password',
    })
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({
      error:
        'An account with this e-mail already exists. Please sign in, or reset your password if you forgot it.',
    })
    expect(res.headers.getSetCookie()).toEqual([])
    // The first owner's password still works; the second one never became anything.
    expect((await signIn(shop, first.email, first.password)).status).toBe(200)
    expect((await signIn(shop, first.email, 'another-password')).status).toBe(401)
  })

  test('a password of six characters outside the Basic Multilingual Plane is long enough, and signs in', async () => {
    const email = uniqueEmail()
    const password = '👍🪓🔨🪚🧔🪵'
    const res = await shop.call('POST', '/auth/register', {
      firstName: 'Sam',
      lastName: 'Carpenter',
      email,
      password,
    })
    expect(res.status).toBe(200)
    expect((await signIn(shop, email, password)).status).toBe(200)
    // 200 such characters (400 UTF-16 units) are within the limit too.
    const longest = {
      firstName: 'Sam',
      lastName: 'Carpenter',
      email: uniqueEmail(),
      password: '👍'.repeat(200),
    }
    expect((await shop.call('POST', '/auth/register', longest)).status).toBe(200)
  })

  test('bad input is refused with a message naming the problem', async () => {
    const valid = { firstName: 'Sam', lastName: 'Carpenter', email: uniqueEmail(), password: PASSWORD }
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...valid, password: '12345' }, 422, 'Password must be at least 6 characters long.'],
      [{ ...valid, password: 'x'.repeat(201) }, 422, 'Passwords can be at most 200 characters.'],
      // Characters as a person counts them: five thumbs are five (ten UTF-16 units), 201 of them too many.
      [
        { ...valid, email: uniqueEmail(), password: '👍'.repeat(5) },
        422,
        'Password must be at least 6 characters long.',
      ],
      [
        { ...valid, email: uniqueEmail(), password: '👍'.repeat(201) },
        422,
        'Passwords can be at most 200 characters.',
      ],
      [
        { ...valid, email: 'not-an-email' },
        422,
        'Please enter a valid e-mail address, like name@example.com.',
      ],
      [
        { ...valid, email: 'two@@example.com' },
        422,
        'Please enter a valid e-mail address, like name@example.com.',
      ],
      [
        { ...valid, email: `${'a'.repeat(250)}@example.com` },
        422,
        'Please enter a valid e-mail address, like name@example.com.',
      ],
      [{ ...valid, firstName: '   ' }, 422, 'Please enter your first name.'],
      [{ ...valid, lastName: '' }, 422, 'Please enter your last name.'],
      [{ ...valid, firstName: 'x'.repeat(61) }, 422, 'First name must be at most 60 characters.'],
      [{ ...valid, firstName: 'Sam\nX-Injected: yes' }, 422, 'Please check your first name.'],
      [
        { firstName: 'Sam', lastName: 'Carpenter', email: uniqueEmail() },
        422,
        'Passwords can be at most 200 characters.',
      ],
    ]
    for (const [body, status, error] of cases) {
      const res = await shop.call('POST', '/auth/register', body)
      expect({ body, status: res.status, error: (await res.json()).error }).toEqual({ body, status, error })
      expect(res.headers.getSetCookie()).toEqual([])
    }
  })

  test('unknown fields are ignored: nobody signs up as staff', async () => {
    const res = await shop.call('POST', '/auth/register', {
      firstName: 'Sam',
      lastName: 'Carpenter',
      email: uniqueEmail(),
      password: PASSWORD,
      role: 'staff',
      id: 'chosen-id',
      passwordHash: 'x',
    })
    expect(res.status).toBe(200)
    const { user } = await res.json()
    expect(user.role).toBe('customer')
    expect(user.id).not.toBe('chosen-id')
  })

  test('a body that is not JSON, or too large, is refused without echoing it', async () => {
    const broken = await shop.call('POST', '/auth/register', '{"password": "hunter22"', {
      'content-type': 'application/json',
    })
    expect(broken.status).toBe(400)
    expect(await broken.text()).not.toContain('hunter22')
    const big = JSON.stringify({
      firstName: 'Sam',
      lastName: 'x'.repeat(70_000),
      email: uniqueEmail(),
      password: PASSWORD,
    })
    const huge = await shop.call('POST', '/auth/register', big, { 'content-length': String(big.length) })
    expect(huge.status).toBe(413)
    expect(await huge.text()).not.toContain(PASSWORD)
  })
})

describe('sign-in', () => {
  test('the right password signs in; the answer carries the user and fresh cookies', async () => {
    const customer = await signUp(shop)
    const res = await signIn(shop, customer.email.toUpperCase(), customer.password)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.authenticated).toBe(true)
    expect(body.message).toBe('Login successful!')
    expect(body.user.email).toBe(customer.email)
    const cookie = cookieHeader(res)
    expect(cookie).not.toBe(customer.cookie)
    expect((await whoAmI(shop, cookie)).status).toBe(200)
  })

  test('a wrong password and an unknown e-mail get the same answer', async () => {
    const customer = await signUp(shop)
    const wrong = await signIn(shop, customer.email, 'not-the-password')
    const unknown = await signIn(shop, uniqueEmail('nobody'), 'not-the-password')
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    const wrongBody = await wrong.json()
    expect(wrongBody).toEqual({ error: 'The e-mail or password is incorrect.' })
    expect(await unknown.json()).toEqual(wrongBody)
    expect(wrong.headers.getSetCookie()).toEqual([])
    expect(unknown.headers.getSetCookie()).toEqual([])
    const empty = await signIn(shop, customer.email, '')
    expect(empty.status).toBe(401)
  })

  test('a malformed e-mail or a missing field is a 4xx without a session', async () => {
    expect((await signIn(shop, 'nope', PASSWORD)).status).toBe(422)
    const missing = await shop.call('POST', '/api/auth/login', { email: uniqueEmail() })
    expect(missing.status).toBe(422)
    const huge = await signIn(shop, uniqueEmail(), 'x'.repeat(201))
    expect(huge.status).toBe(422)
    // Too long in characters, though within the body's cap of UTF-16 units.
    const hugeThumbs = await signIn(shop, uniqueEmail(), '👍'.repeat(201))
    expect(hugeThumbs.status).toBe(422)
    expect((await hugeThumbs.json()).error).toBe('Passwords can be at most 200 characters.')
  })
})

describe('sessions', () => {
  test('a guessed or altered session cookie signs nobody in, and the browser is told to drop it', async () => {
    const customer = await signUp(shop)
    const token = /session=([a-z2-7]+)/.exec(customer.cookie)?.[1] ?? ''
    const altered = `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`
    for (const cookie of [
      `session=${altered}; signed_in=1`,
      'session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa; signed_in=1',
      `session=${hashToken(token)}; signed_in=1`,
      `session=${token}x; signed_in=1`,
      'signed_in=1',
    ]) {
      const res = await whoAmI(shop, cookie)
      expect(res.status).toBe(401)
      const cleared = setCookies(res)
      expect(cleared.get('signed_in')?.attributes).toContain('Max-Age=0')
      expect(cleared.get('session')?.attributes).toContain('Max-Age=0')
    }
    expect((await whoAmI(shop, customer.cookie)).status).toBe(200)
  })

  test('sign-out deletes the session on the server: the old cookie no longer works', async () => {
    const customer = await signUp(shop)
    const res = await shop.call('POST', '/api/auth/logout', undefined, { cookie: customer.cookie })
    expect(res.status).toBe(200)
    const cleared = setCookies(res)
    expect(cleared.get('session')?.value).toBe('')
    expect(cleared.get('session')?.attributes).toContain('Max-Age=0')
    expect(cleared.get('signed_in')?.attributes).toContain('Max-Age=0')
    expect(await shop.deps.db.select().from(sessions).where(eq(sessions.userId, customer.id))).toEqual([])
    expect((await whoAmI(shop, customer.cookie)).status).toBe(401)
    // Signing out twice, or without a session, is not an error.
    expect((await shop.call('POST', '/api/auth/logout')).status).toBe(200)
  })

  test('signing in again in the same browser retires the session it held before', async () => {
    const customer = await signUp(shop)
    const again = await shop.call(
      'POST',
      '/api/auth/login',
      { email: customer.email, password: customer.password },
      { cookie: customer.cookie },
    )
    expect(again.status).toBe(200)
    expect((await whoAmI(shop, customer.cookie)).status).toBe(401)
    expect((await whoAmI(shop, cookieHeader(again))).status).toBe(200)
  })

  test('signing out in one browser leaves the others signed in', async () => {
    const customer = await signUp(shop)
    const other = cookieHeader(await signIn(shop, customer.email, customer.password))
    await shop.call('POST', '/api/auth/logout', undefined, { cookie: customer.cookie })
    expect((await whoAmI(shop, other)).status).toBe(200)
  })

  test('a session lasts 30 days, and use in its second half renews it for 30 more', async () => {
    const customer = await signUp(shop)
    const start = shop.clock.now().getTime()

    shop.clock.advance(10 * DAY_MS)
    const early = await whoAmI(shop, customer.cookie)
    expect(early.status).toBe(200)
    expect(early.headers.getSetCookie()).toEqual([])

    shop.clock.advance(6 * DAY_MS)
    const renewed = await whoAmI(shop, customer.cookie)
    expect(renewed.status).toBe(200)
    const cookies = setCookies(renewed)
    expect(cookies.get('session')?.attributes).toContain(`Max-Age=${THIRTY_DAYS_S}`)
    expect(cookies.get('signed_in')?.attributes).toContain(`Max-Age=${THIRTY_DAYS_S}`)
    const [row] = await shop.deps.db.select().from(sessions).where(eq(sessions.userId, customer.id))
    expect(row?.expiresAt.getTime()).toBe(start + 16 * DAY_MS + SESSION_LIFETIME_MS)

    // 40 days after sign-up, still signed in thanks to the renewal; 30 idle days later, signed out.
    shop.clock.advance(24 * DAY_MS)
    expect((await whoAmI(shop, customer.cookie)).status).toBe(200)
    shop.clock.advance(30 * DAY_MS + 1)
    expect((await whoAmI(shop, customer.cookie)).status).toBe(401)
    expect(await shop.deps.db.select().from(sessions).where(eq(sessions.userId, customer.id))).toEqual([])
  })

  test('in production both cookies are Secure', async () => {
    const app = new Elysia().get('/', ({ cookie }) => {
      setSessionCookies(cookie, 'a'.repeat(32), new Date(Date.now() + 1000_000), new Date(), { secure: true })
      return 'ok'
    })
    const res = await app.handle(new Request('http://localhost/'))
    for (const [, cookie] of setCookies(res)) expect(cookie.attributes).toContain('Secure')
  })
})

describe('requests from other sites', () => {
  test('cross-origin POSTs and PUTs are refused before they do anything', async () => {
    const customer = await signUp(shop)
    const evil = { origin: 'https://evil.example', cookie: customer.cookie }
    const attempts: [string, string, unknown][] = [
      [
        'POST',
        '/auth/register',
        { firstName: 'E', lastName: 'Vil', email: uniqueEmail(), password: PASSWORD },
      ],
      ['POST', '/api/auth/login', { email: customer.email, password: customer.password }],
      ['POST', '/api/auth/logout', undefined],
      ['POST', '/api/auth/forgot-password', { email: customer.email }],
      ['POST', '/api/auth/reset-password', { token: 'a'.repeat(32), password: 'new-password' }],
      ['PUT', '/api/auth/update-profile', { firstName: 'Hacked' }],
      ['PUT', '/api/user/notifications', { sms: true }],
    ]
    for (const [method, path, body] of attempts) {
      const res = await shop.call(method, path, body, evil)
      expect({ path, status: res.status }).toEqual({ path, status: 403 })
    }
    const sameSiteFetch = await shop.call('POST', '/api/auth/logout', undefined, {
      cookie: customer.cookie,
      'sec-fetch-site': 'cross-site',
      origin: 'null',
    })
    expect(sameSiteFetch.status).toBe(403)
    const me = await whoAmI(shop, customer.cookie)
    expect(me.status).toBe(200)
    expect((await me.json()).firstName).toBe('Sam')
  })
})

describe('brute force', () => {
  test('10 failures in 10 minutes lock the account, from any address, with a Retry-After', async () => {
    const customer = await signUp(shop)
    for (let i = 0; i < 10; i++) {
      const res = await signIn(shop, customer.email, `guess-${i}`, { 'x-forwarded-for': `10.1.0.${i}` })
      expect(res.status).toBe(401)
    }
    const locked = await signIn(shop, customer.email, customer.password, { 'x-forwarded-for': '10.1.1.1' })
    expect(locked.status).toBe(429)
    expect(Number(locked.headers.get('retry-after'))).toBe(600)
    expect((await locked.json()).error).toBe(
      'Too many sign-in attempts. Please wait 10 minutes and try again, or reset your password.',
    )
    expect(locked.headers.getSetCookie()).toEqual([])

    // Refused attempts are not counted, so the lock ends 10 minutes after the 10th failure.
    shop.clock.advance(9 * 60 * 1000)
    const still = await signIn(shop, customer.email, customer.password, { 'x-forwarded-for': '10.1.1.2' })
    expect(still.status).toBe(429)
    expect(Number(still.headers.get('retry-after'))).toBe(60)
    shop.clock.advance(60 * 1000)
    const open = await signIn(shop, customer.email, customer.password, { 'x-forwarded-for': '10.1.1.3' })
    expect(open.status).toBe(200)
  })

  test('10 failures from one address lock that address for every account', async () => {
    const victim = await signUp(shop)
    const address = { 'x-forwarded-for': '10.2.0.1' }
    for (let i = 0; i < 10; i++) {
      expect((await signIn(shop, uniqueEmail('spray'), 'password1', address)).status).toBe(401)
    }
    expect((await signIn(shop, victim.email, victim.password, address)).status).toBe(429)
    // The account itself is fine from elsewhere.
    expect(
      (await signIn(shop, victim.email, victim.password, { 'x-forwarded-for': '10.2.0.2' })).status,
    ).toBe(200)
  })

  test('a burst of parallel guesses gets no more than 10 tries', async () => {
    const customer = await signUp(shop)
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        signIn(shop, customer.email, `parallel-${i}`, { 'x-forwarded-for': `10.3.0.${i}` }),
      ),
    )
    const statuses = answers.map((res) => res.status)
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10)
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(15)
  })

  test('failures count across server instances sharing the database', async () => {
    const customer = await signUp(shop)
    // A second instance: its own app and services (and in-memory counters), the same database.
    const other = createApp(shop.deps, createServices(shop.deps))
    const viaOther = (password: string) =>
      other.handle(
        new Request(`${ORIGIN}/api/auth/login`, {
          method: 'POST',
          headers: { origin: ORIGIN, 'content-type': 'application/json', 'x-forwarded-for': '10.5.0.9' },
          body: JSON.stringify({ email: customer.email, password }),
        }),
      )
    for (let i = 0; i < 5; i++) expect((await signIn(shop, customer.email, `a-${i}`)).status).toBe(401)
    for (let i = 0; i < 5; i++) expect((await viaOther(`b-${i}`)).status).toBe(401)
    expect((await viaOther(customer.password)).status).toBe(429)
    expect((await signIn(shop, customer.email, customer.password)).status).toBe(429)
  })

  test('a successful sign-in does not count as a failure', async () => {
    const customer = await signUp(shop)
    const address = { 'x-forwarded-for': '10.4.0.1' }
    for (let i = 0; i < 15; i++) {
      expect((await signIn(shop, customer.email, customer.password, address)).status).toBe(200)
    }
    const failures = await shop.deps.db
      .select()
      .from(signInFailures)
      .where(eq(signInFailures.account, customer.email))
    expect(failures).toEqual([])
  })
})
