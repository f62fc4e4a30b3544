// Attacks on signing in: guessing passwords, telling real accounts from unknown ones by answer or by time,
// planting a session before sign-in, reading or keeping cookies after sign-out and password reset.
import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { createApp } from '../../../api/app'
import { createServices } from '../../../api/services'
import { sessions, signInFailures } from '../../../db/schema/auth'
import {
  cookieHeader,
  PASSWORD,
  setCookies,
  signIn,
  signUp,
  uniqueAddress,
  uniqueEmail,
  whoAmI,
} from '../support/accounts'
import { memoryMailer } from '../support/orders'
import { createTestApp, PRODUCTION_ENV, type TestApp } from '../support/test-app'
import { attackCounter } from './tally'

// Argon2id is slow on purpose; the timing comparisons hash a few dozen times.
setDefaultTimeout(60_000)

const attacks = attackCounter('identity-sign-in')
const mailer = memoryMailer()
let shop: TestApp

beforeAll(async () => {
  // The shop's real password hashing: a path that skipped it would answer about 0.1 s sooner, which the
  // timing tests below must be able to see (with light test hashes the difference would be a millisecond).
  shop = await createTestApp({ TRUST_PROXY: 'true', PASSWORD_HASH: 'strong' }, { mailer })
})
afterAll(() => {
  shop.close()
  attacks.record()
})
// Every test starts after the sign-in and reset windows of the one before.
beforeEach(() => shop.clock.advance(61 * 60_000))

const json = async (res: Response) => (await res.json()) as Record<string, unknown>

/** The median of `runs` timings of `call`, in milliseconds. */
async function medianMs(runs: number, call: (run: number) => Promise<unknown>): Promise<number> {
  const times: number[] = []
  for (let run = 0; run < runs; run++) {
    const start = performance.now()
    await call(run)
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)] ?? 0
}

/** Generous on a busy shared machine: within 3× of each other, or within 40 ms for fast calls. */
function similar(a: number, b: number): boolean {
  return Math.abs(a - b) < 40 || Math.max(a, b) / Math.max(1, Math.min(a, b)) < 3
}

describe('brute force', () => {
  test('the 11th guess in 10 minutes is refused, even with the right password, counted in the database', async () => {
    const victim = await signUp(shop)
    // Ten guesses at once (each is checked against the others already counted), from ten addresses, with
    // the e-mail spelled differently: the account still counts them all.
    attacks.tried(10)
    const guesses = await Promise.all(
      Array.from({ length: 10 }, (_, guess) =>
        signIn(
          shop,
          guess % 2 ? ` ${victim.email.toUpperCase()} ` : victim.email,
          `guess-${guess}-password`,
          uniqueAddress(),
        ),
      ),
    )
    expect(guesses.map((res) => res.status)).toEqual(Array(10).fill(401))
    const failures = await shop.deps.db
      .select()
      .from(signInFailures)
      .where(eq(signInFailures.account, victim.email))
    expect(failures).toHaveLength(10)

    attacks.tried()
    const locked = await signIn(shop, victim.email, victim.password, uniqueAddress())
    expect(locked.status).toBe(429)
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(setCookies(locked).has('session')).toBe(false)

    // A second server on the same database sees the same lock.
    const twin = createTestAppOnSameDatabase()
    attacks.tried()
    expect((await twin.handle(loginRequest(victim.email, victim.password))).status).toBe(429)

    // Once the window has passed, the owner gets in.
    shop.clock.advance(10 * 60_000 + 1000)
    expect((await signIn(shop, victim.email, victim.password, uniqueAddress())).status).toBe(200)
  })

  test('addresses rotated within one IPv6 /64 (one subscriber) count as one client', async () => {
    // Any spelling of an address in 2001:db8:77:1::/64, as a provider hands a whole /64 to one home.
    const network = [
      '2001:db8:77:1::1',
      '2001:db8:77:1::2',
      '2001:0db8:0077:0001:0000:0000:0000:0003',
      '2001:DB8:77:1:FFFF:FFFF:FFFF:FFFF',
      '2001:db8:77:1:a:b:c:d',
      '2001:db8:77:1::4',
      '2001:db8:77:1::5',
      '2001:db8:77:1::6',
      '2001:db8:77:1::7',
      '2001:db8:77:1::8',
      '2001:db8:77:1::9',
    ]
    attacks.tried(network.length)
    const first = await Promise.all(
      network
        .slice(0, 10)
        .map((address) => signIn(shop, uniqueEmail('spray'), 'Password123', { 'x-forwarded-for': address })),
    )
    expect(first.map((res) => res.status)).toEqual(Array(10).fill(401))
    const eleventh = await signIn(shop, uniqueEmail('spray'), 'Password123', {
      'x-forwarded-for': network[10] ?? '',
    })
    expect(eleventh.status).toBe(429)
    // The neighbouring /64 is someone else.
    expect(
      (await signIn(shop, uniqueEmail('spray'), 'Password123', { 'x-forwarded-for': '2001:db8:77:2::1' }))
        .status,
    ).toBe(401)
  })

  test('an unknown e-mail locks exactly like a real one, so the lock tells nothing', async () => {
    const ghost = uniqueEmail('ghost')
    attacks.tried(11)
    const first = await Promise.all(
      Array.from({ length: 10 }, (_, guess) =>
        signIn(shop, ghost, `guess-${guess}-password`, uniqueAddress()),
      ),
    )
    expect(first.map((res) => res.status)).toEqual(Array(10).fill(401))
    expect((await signIn(shop, ghost, 'guess-10-password', uniqueAddress())).status).toBe(429)
  })
})

/** A request to sign in, built by hand for the second app. */
function loginRequest(email: string, password: string): Request {
  return new Request('http://localhost:4321/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://localhost:4321', ...uniqueAddress() },
    body: JSON.stringify({ email, password }),
  })
}

/** Another instance of the shop over this test's database (as behind a load balancer). */
function createTestAppOnSameDatabase() {
  // The same database and clock; its services and their in-memory state are its own.
  return createApp(shop.deps, createServices(shop.deps))
}

describe('flooding sign-ups (docs/decisions/020)', () => {
  test('one inbox signed up from 12 addresses, +tags rotated: 5 accounts, then 429 for every address', async () => {
    const inbox = uniqueEmail('flood')
    const [local, host] = inbox.split('@')
    attacks.tried(12)
    const statuses: number[] = []
    for (let tag = 0; tag < 12; tag++) {
      const res = await shop.call(
        'POST',
        '/auth/register',
        { firstName: 'Flood', lastName: 'Er', email: `${local}+${tag}@${host}`, password: PASSWORD },
        uniqueAddress(),
      )
      statuses.push(res.status)
    }
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(7).fill(429)])
  })

  test('signing up and deleting the account in a loop: still 5 sign-ups for the inbox, then 429', async () => {
    const inbox = uniqueEmail('loop')
    attacks.tried(8)
    const statuses: number[] = []
    for (let round = 0; round < 8; round++) {
      const from = uniqueAddress()
      const res = await shop.call(
        'POST',
        '/auth/register',
        { firstName: 'Loop', lastName: 'Er', email: inbox, password: PASSWORD },
        from,
      )
      statuses.push(res.status)
      if (res.status !== 200) continue
      const deleted = await shop.call(
        'DELETE',
        '/api/user',
        { password: PASSWORD },
        {
          ...from,
          cookie: cookieHeader(res),
        },
      )
      expect(deleted.status).toBe(204)
    }
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(3).fill(429)])
  })

  test('one address sending sign-ups in a burst of 40 at once: at most 30 are let through the limit', async () => {
    attacks.tried(40)
    const address = { 'x-forwarded-for': '192.0.2.40' }
    // Too-short passwords: refused after the limit is counted, without the cost of 40 hashes.
    const statuses = await Promise.all(
      Array.from({ length: 40 }, () =>
        shop.call(
          'POST',
          '/auth/register',
          { firstName: 'Burst', lastName: 'Er', email: uniqueEmail('burst'), password: 'short' },
          address,
        ),
      ).map(async (res) => (await res).status),
    )
    expect(statuses.filter((status) => status === 422)).toHaveLength(30)
    expect(statuses.filter((status) => status === 429)).toHaveLength(10)
  })

  test("an inbox's tagged accounts share its links: 3 verification and 3 reset e-mails an hour in all", async () => {
    const inbox = uniqueEmail('links')
    const [local, host] = inbox.split('@')
    const tagged = (tag: number) => `${local}+${tag}@${host}`
    // Three accounts of one inbox, within its sign-ups: each asking for its own links from its own address.
    const accounts = []
    for (let tag = 0; tag < 3; tag++) accounts.push(await signUp(shop, { email: tagged(tag) }))
    attacks.tried(12)
    const verifications: number[] = []
    for (const account of [...accounts, ...accounts]) {
      const res = await shop.call('POST', '/api/auth/resend-verification', undefined, {
        cookie: account.cookie,
        ...uniqueAddress(),
      })
      verifications.push(res.status)
    }
    expect(verifications).toEqual([200, 200, 200, 429, 429, 429])
    const resets: number[] = []
    for (let tag = 0; tag < 6; tag++) {
      const res = await shop.call(
        'POST',
        '/api/auth/forgot-password',
        { email: tagged(tag) },
        uniqueAddress(),
      )
      resets.push(res.status)
    }
    expect(resets).toEqual([200, 200, 200, 429, 429, 429])
  })

  test('the newsletter: one inbox from 12 addresses is taken 5 times, then 429', async () => {
    attacks.tried(12)
    const statuses: number[] = []
    for (let tag = 0; tag < 12; tag++) {
      const res = await shop.call(
        'POST',
        '/api/newsletter',
        { email: `newsflood+${tag}@example.com` },
        uniqueAddress(),
      )
      statuses.push(res.status)
    }
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(7).fill(429)])
  })
})

describe('enumeration: real and unknown e-mails look the same', () => {
  test('sign-in: the same status, body and cookies for a wrong password and an unknown e-mail, in similar time', async () => {
    const real = await signUp(shop)
    attacks.tried(2)
    const wrong = await signIn(shop, real.email, 'not-the-password', uniqueAddress())
    const unknown = await signIn(shop, uniqueEmail('nobody'), 'not-the-password', uniqueAddress())
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(wrong.status)
    expect(await json(unknown)).toEqual(await json(wrong))
    expect(unknown.headers.getSetCookie()).toEqual(wrong.headers.getSetCookie())

    attacks.tried(10)
    const knownTime = await medianMs(5, () => signIn(shop, real.email, 'wrong-password!', uniqueAddress()))
    shop.clock.advance(11 * 60_000)
    const unknownTime = await medianMs(5, (run) =>
      signIn(shop, `nobody.${run}.${Date.now()}@example.com`, 'wrong-password!', uniqueAddress()),
    )
    expect({ knownTime, unknownTime, similar: similar(knownTime, unknownTime) }).toMatchObject({
      similar: true,
    })
  })

  test('forgot-password: the same answer for an account and an unknown e-mail, in similar time', async () => {
    const real = await signUp(shop)
    attacks.tried(2)
    const known = await shop.call('POST', '/api/auth/forgot-password', { email: real.email }, uniqueAddress())
    const unknown = await shop.call(
      'POST',
      '/api/auth/forgot-password',
      { email: uniqueEmail('nobody') },
      uniqueAddress(),
    )
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    expect(await json(unknown)).toEqual(await json(known))

    attacks.tried(6)
    // Three per e-mail per hour are allowed; the clock moves on between them.
    const knownTime = await medianMs(3, async () => {
      shop.clock.advance(61 * 60_000)
      return shop.call('POST', '/api/auth/forgot-password', { email: real.email }, uniqueAddress())
    })
    const unknownTime = await medianMs(3, async () => {
      shop.clock.advance(61 * 60_000)
      return shop.call('POST', '/api/auth/forgot-password', { email: uniqueEmail('x') }, uniqueAddress())
    })
    expect({ knownTime, unknownTime, similar: similar(knownTime, unknownTime) }).toMatchObject({
      similar: true,
    })
  })

  test('sign-up: a taken e-mail takes as long as a new one and says nothing about the account', async () => {
    const password = await signUp(shop)
    const google = uniqueEmail('google')
    await shop.services.accounts.create({
      email: google,
      passwordHash: null,
      googleSubject: `sub-${Date.now()}`,
      firstName: 'Gia',
      lastName: 'Google',
    })
    const register = (email: string) =>
      shop.call(
        'POST',
        '/auth/register',
        { firstName: 'Eve', lastName: 'Probe', email, password: 'probe-password' },
        uniqueAddress(),
      )
    attacks.tried(2)
    const takenByPassword = await register(password.email.toUpperCase())
    const takenByGoogle = await register(google)
    // The one thing sign-up must say (the address is taken) is said the same way for every kind of
    // account: no name, no sign-in method, no session.
    expect(takenByPassword.status).toBe(409)
    expect(takenByGoogle.status).toBe(409)
    expect(await json(takenByGoogle)).toEqual(await json(takenByPassword))
    expect(takenByPassword.headers.getSetCookie()).toEqual([])

    attacks.tried(8)
    const takenTime = await medianMs(4, () => register(password.email))
    const newTime = await medianMs(4, () => register(uniqueEmail('fresh')))
    expect({ takenTime, newTime, similar: similar(takenTime, newTime) }).toMatchObject({ similar: true })
  })
})

describe('session fixation', () => {
  const PLANTED = 'session=abcdefghijklmnopqrstuvwxyz234567; signed_in=1'

  test('a session cookie planted before sign-in is never the one after it', async () => {
    const customer = await signUp(shop)
    attacks.tried()
    const res = await signIn(shop, customer.email, customer.password, { cookie: PLANTED, ...uniqueAddress() })
    expect(res.status).toBe(200)
    const issued = setCookies(res).get('session')?.value
    expect(issued).toMatch(/^[a-z2-7]{32}$/)
    expect(issued).not.toBe('abcdefghijklmnopqrstuvwxyz234567')
    expect((await whoAmI(shop, PLANTED)).status).toBe(401)
  })

  test("an attacker's own live session planted in a victim's browser is ended when the victim signs in", async () => {
    const [attacker, victim, other] = await Promise.all([signUp(shop), signUp(shop), signUp(shop)])
    attacks.tried(2)
    // The victim's browser carries the attacker's cookie, then the victim signs in (or signs up).
    const res = await signIn(shop, victim.email, victim.password, {
      cookie: attacker.cookie,
      ...uniqueAddress(),
    })
    expect(res.status).toBe(200)
    expect(cookieHeader(res)).not.toBe(attacker.cookie)
    // The attacker's copy signs nobody in: not the victim, not even the attacker.
    expect((await whoAmI(shop, attacker.cookie)).status).toBe(401)
    expect(((await json(await whoAmI(shop, cookieHeader(res)))) as { email: string }).email).toBe(
      victim.email,
    )

    const registered = await shop.call(
      'POST',
      '/auth/register',
      { firstName: 'New', lastName: 'Person', email: uniqueEmail('new'), password: PASSWORD },
      { cookie: other.cookie, ...uniqueAddress() },
    )
    expect(registered.status).toBe(200)
    expect((await whoAmI(shop, other.cookie)).status).toBe(401)
  })
})

describe('cookies', () => {
  test('the session cookie is HttpOnly, SameSite=Lax, Path=/, 30 days, and not Secure outside production', async () => {
    const customer = await signUp(shop)
    const res = await signIn(shop, customer.email, customer.password, uniqueAddress())
    const cookies = setCookies(res)
    const session = cookies.get('session')
    expect(session?.attributes).toEqual(
      expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/', `Max-Age=${30 * 24 * 3600}`]),
    )
    expect(session?.attributes).not.toContain('Secure')
    // The hint cookie is readable by pages and carries nothing secret.
    expect(cookies.get('signed_in')?.value).toBe('1')
    expect(cookies.get('signed_in')?.attributes).not.toContain('HttpOnly')
    expect(cookies.get('signed_in')?.attributes).toEqual(expect.arrayContaining(['SameSite=Lax', 'Path=/']))
  })

  test('in the production configuration every cookie a sign-in sets is Secure', async () => {
    const production = await createTestApp({ ...PRODUCTION_ENV, TRUST_PROXY: 'true' })
    try {
      const customer = await signUp(production)
      const res = await signIn(production, customer.email, customer.password, uniqueAddress())
      expect(res.status).toBe(200)
      const cookies = setCookies(res)
      // Host-only: a browser takes it only from this host over https, for the whole site, with no Domain.
      expect([...cookies.keys()].sort()).toEqual(['__Host-session', 'signed_in'])
      for (const [name, cookie] of cookies) {
        expect([name, cookie.attributes.includes('Secure')]).toEqual([name, true])
      }
      const session = cookies.get('__Host-session')
      expect(session?.attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/']))
      expect(session?.attributes.some((attribute) => /^domain=/i.test(attribute))).toBe(false)
      // The same token under the plain name (as another host under the domain could plant one) is not read.
      const token = session?.value ?? ''
      attacks.tried()
      expect((await whoAmI(production, `session=${token}`)).status).toBe(401)
      expect((await whoAmI(production, `__Host-session=${token}`)).status).toBe(200)
      // Signing out clears them with the same attributes, so the browser really drops them.
      const out = await production.call('POST', '/api/auth/logout', undefined, { cookie: cookieHeader(res) })
      for (const [, cookie] of setCookies(out)) expect(cookie.attributes).toContain('Secure')
      // A browser still holding the plain cookie from before the rename has it cleared, as soon as it asks
      // who is signed in and when it signs in again.
      const before = `session=${token}; signed_in=1`
      const asked = await whoAmI(production, before)
      expect(asked.status).toBe(401)
      expect(setCookies(asked).get('session')).toMatchObject({ value: '' })
      expect(setCookies(asked).get('session')?.attributes).toEqual(
        expect.arrayContaining(['Secure', 'Path=/', 'Max-Age=0']),
      )
      const again = await signIn(production, customer.email, customer.password, {
        ...uniqueAddress(),
        cookie: before,
      })
      expect(again.status).toBe(200)
      expect(setCookies(again).get('session')).toMatchObject({ value: '' })
    } finally {
      production.close()
    }
  })
})

describe('ending sessions', () => {
  const signedInCalls = (cookie: string): Promise<Response>[] => [
    shop.call('GET', '/api/auth/user', undefined, { cookie }),
    shop.call('GET', '/api/user/orders', undefined, { cookie }),
    shop.call('GET', '/api/user/orders/1', undefined, { cookie }),
    shop.call('PUT', '/api/auth/update-profile', { firstName: 'Mallory' }, { cookie }),
    shop.call('PUT', '/api/user/notifications', { email: false, sms: true }, { cookie }),
  ]

  test('after sign-out the old cookie gets 401 on every signed-in call', async () => {
    const customer = await signUp(shop)
    expect((await shop.call('POST', '/api/auth/logout', undefined, { cookie: customer.cookie })).status).toBe(
      200,
    )
    attacks.tried(5)
    for (const res of await Promise.all(signedInCalls(customer.cookie))) expect(res.status).toBe(401)
    const [row] = await shop.deps.db.select().from(sessions).where(eq(sessions.userId, customer.id))
    expect(row).toBeUndefined()
  })

  test('a password reset ends every session of the account: each old cookie gets 401', async () => {
    const customer = await signUp(shop)
    const laptop = await signIn(shop, customer.email, customer.password, uniqueAddress())
    const phone = cookieHeader(laptop)
    await shop.call('POST', '/api/auth/forgot-password', { email: customer.email }, uniqueAddress())
    await shop.runDueJobs()
    const mail = mailer.sent.findLast((message) => message.to === customer.email)
    const token = /reset-password\?token=([a-z2-7]{32})/.exec(mail?.text ?? '')?.[1]
    if (!token) throw new Error('no reset link was mailed')
    const reset = await shop.call(
      'POST',
      '/api/auth/reset-password',
      { token, password: 'a-brand-new-password' },
      uniqueAddress(),
    )
    expect(reset.status).toBe(200)
    attacks.tried(10)
    for (const cookie of [customer.cookie, phone]) {
      for (const res of await Promise.all(signedInCalls(cookie))) expect(res.status).toBe(401)
    }
    // The link is single use and the old password is gone.
    attacks.tried(2)
    expect(
      (
        await shop.call(
          'POST',
          '/api/auth/reset-password',
          { token, password: 'attacker-password' },
          uniqueAddress(),
        )
      ).status,
    ).toBe(422)
    expect((await signIn(shop, customer.email, customer.password, uniqueAddress())).status).toBe(401)
  })
})
