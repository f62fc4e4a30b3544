// Attacks on an account through an address someone registered before its owner came: becoming staff when
// the owner runs `npm run staff -- add` on it, keeping a way in after the owner signs in with Google
// (account pre-hijacking), and proving an address one does not read (guessed, replayed and borrowed
// verification links, the owner opening a squatter's welcome link; links asked for to flood an inbox).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { OAuth2Server } from 'oauth2-mock-server'
import { captureLog, setLogLevel } from '../../../api/lib/log'
import { sessions } from '../../../db/schema/auth'
import { users } from '../../../db/schema/users'
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
import { holdCalls } from '../support/hold-calls'
import { requestLinesWritten } from '../support/log-lines'
import { memoryMailer } from '../support/orders'
import { createTestApp, ORIGIN, type TestApp } from '../support/test-app'
import { attackCounter } from './tally'

// Argon2id is slow on purpose, and every sign-up and sign-in hashes.
setDefaultTimeout(60_000)

const attacks = attackCounter('identity-takeover')
const mailer = memoryMailer()
let provider: OAuth2Server
let shop: TestApp
/** What the provider puts in the next ID tokens. */
let claims: Record<string, unknown> = {}

beforeAll(async () => {
  provider = await startGoogleProvider(() => claims)
  shop = await createTestApp({ ...googleEnv(provider, 'takeover-test'), TRUST_PROXY: 'true' }, { mailer })
})
afterAll(async () => {
  shop.close()
  await provider.stop()
  attacks.record()
})

/** The owner of `email` signs in with Google (its verified claim); answers the callback's answer. */
function ownerSignsInWithGoogle(email: string): Promise<Response> {
  return signsInWithGoogle(email, `google-${email}`)
}

/** Whoever holds the Google account `subject`, with the verified address `email`, signs in with it. */
async function signsInWithGoogle(email: string, subject: string): Promise<Response> {
  claims = { sub: subject, email, email_verified: true, given_name: 'Owen', family_name: 'Owner' }
  const start = await shop.call('GET', '/auth/google')
  const atProvider = await fetch(new URL(start.headers.get('location') ?? ''), { redirect: 'manual' })
  const callback = new URL(atProvider.headers.get('location') ?? '')
  const done = await shop.call('GET', callback.pathname + callback.search, undefined, {
    cookie: cookieHeader(start),
  })
  expect(done.status).toBe(302)
  return done
}

/** Verification links e-mailed to `email` so far, newest last. */
async function linksMailedTo(email: string): Promise<string[]> {
  await shop.runDueJobs()
  return mailer.sent
    .filter((message) => message.to === email)
    .flatMap((message) => /verify-email\?token=([a-z2-7]{32})/.exec(message.text)?.[1] ?? [])
}

/** Uses a link, signed in as `customer` (or signed out, with null). */
function verify(token: unknown, customer: Customer | null) {
  return shop.call(
    'POST',
    '/api/auth/verify-email',
    { token },
    { ...uniqueAddress(), ...(customer ? { cookie: customer.cookie } : {}) },
  )
}

async function sessionCount(userId: string): Promise<number> {
  return (await shop.deps.db.select().from(sessions).where(eq(sessions.userId, userId))).length
}

// Password checks (`Bun.password.verify`) stand between a sign-in's lookup and its session; queued jobs
// (`jobs.enqueue`: the verification e-mail) between a sign-up's account and its session.
const holdPasswordChecks = () => holdCalls(Bun.password, 'verify')

const holdJobsQueued = () => holdCalls(shop.services.jobs, 'enqueue')

/**
 * A squatter's sign-up held after its account is made and before its session, while `ownerComesIn` takes
 * the address over: it is answered 409 and sets no session cookie. Answers the account's id.
 */
async function signUpRacing(ownerComesIn: (email: string) => Promise<unknown>): Promise<string> {
  const email = uniqueEmail('race')
  const hold = holdJobsQueued()
  let inFlight: Promise<Response>
  try {
    inFlight = shop.call(
      'POST',
      '/auth/register',
      { firstName: 'Sq', lastName: 'Uatter', email, password: 'the-squatters-password' },
      uniqueAddress(),
    )
    await hold.entered
  } finally {
    hold.restore()
  }
  const [row] = await shop.deps.db.select().from(users).where(eq(users.email, email))
  if (!row) throw new Error('the held sign-up made no account')
  await ownerComesIn(email)
  hold.release()
  attacks.tried()
  const late = await inFlight
  expect(late.status).toBe(409)
  expect(setCookies(late).get('session')).toBeUndefined()
  return row.id
}

const STAFF_PASSWORD = 'the-owners-staff-password'
/** A profile written before the address's owner signs in with Google: phone and a saved address. */
const PLANTED_PROFILE = {
  phone: '+1 512 555 0199',
  address: { street: '1 Drop Box Ln', city: 'Austin', state: 'TX', zipCode: '73301', country: 'US' },
}

describe('staff by squatting', () => {
  test("the owner's `staff add` leaves a squatter no session and no password, and no dashboard", async () => {
    const squatter = await signUp(shop)
    const browsers = [
      squatter.cookie,
      cookieHeader(await signIn(shop, squatter.email, squatter.password, uniqueAddress())),
    ]
    const result = await shop.services.staff.add(squatter.email, async () => STAFF_PASSWORD)
    expect(result).toMatchObject({ outcome: 'promoted', credentials: 'replaced' })

    for (const cookie of browsers) {
      attacks.tried(2)
      expect((await shop.call('GET', '/api/dashboard/stats', undefined, { cookie })).status).toBe(401)
      expect((await shop.call('GET', '/api/orders', undefined, { cookie })).status).toBe(401)
    }
    attacks.tried()
    expect((await signIn(shop, squatter.email, squatter.password, uniqueAddress())).status).toBe(401)
    const owner = await signIn(shop, squatter.email, STAFF_PASSWORD, uniqueAddress())
    const stats = await shop.call('GET', '/api/dashboard/stats', undefined, { cookie: cookieHeader(owner) })
    expect(stats.status).toBe(200)
  })

  test('with no password given, the set-password link goes to the address only; the squatter gets nothing', async () => {
    const squatter = await signUp(shop)
    // Mail queued by earlier tests goes out first, so what follows is this test's alone.
    await shop.runDueJobs()
    const before = mailer.sent.length
    const result = await shop.services.staff.add(squatter.email, async () => null)
    expect(result).toMatchObject({ outcome: 'promoted', credentials: 'link-sent' })
    // The squatter asks for a reset link and tries the password they set: the links go to the owner's mailbox.
    attacks.tried(3)
    await shop.call('POST', '/api/auth/forgot-password', { email: squatter.email }, uniqueAddress())
    await shop.runDueJobs()
    const sent = mailer.sent.slice(before)
    expect([...new Set(sent.map((message) => message.to))]).toEqual([squatter.email])
    expect(sent.map((message) => message.subject)).toEqual(
      expect.arrayContaining([
        'Set your Grit & Whisker staff password',
        'Reset your Grit & Whisker password',
      ]),
    )
    const refused = await signIn(shop, squatter.email, squatter.password, uniqueAddress())
    expect(await refused.json()).toEqual({ error: 'The e-mail or password is incorrect.' })
    expect((await signIn(shop, squatter.email, '', uniqueAddress())).status).toBe(401)
    expect(await sessionCount(squatter.id)).toBe(0)
  })

  test("a squatter's password sign-in in flight while the owner runs `staff add` gets no session", async () => {
    const squatter = await signUp(shop)
    const hold = holdPasswordChecks()
    let inFlight: Promise<Response>
    try {
      inFlight = signIn(shop, squatter.email, squatter.password, uniqueAddress())
      await hold.entered
    } finally {
      hold.restore()
    }
    await shop.services.staff.add(squatter.email, async () => STAFF_PASSWORD)
    hold.release()
    attacks.tried()
    const late = await inFlight
    expect(late.status).toBe(401)
    expect(setCookies(late).get('session')).toBeUndefined()
    expect(await sessionCount(squatter.id)).toBe(0)
  })

  test("a squatter's sign-up in flight while the owner runs `staff add` gets no session", async () => {
    const squatter = await signUpRacing((email) => shop.services.staff.add(email, async () => STAFF_PASSWORD))
    expect(await sessionCount(squatter)).toBe(0)
  })
})

describe('account pre-hijacking through Google', () => {
  test("a squatter's sign-up in flight while the owner comes in gets no session", async () => {
    const squatter = await signUpRacing(ownerSignsInWithGoogle)
    // The owner's own session from Google, and no other.
    expect(await sessionCount(squatter)).toBe(1)
  })

  test('a squatter signed in in three browsers keeps none of them, nor the password, once the owner comes', async () => {
    const squatter = await signUp(shop)
    const browsers = [squatter.cookie]
    for (let i = 0; i < 2; i++) {
      browsers.push(cookieHeader(await signIn(shop, squatter.email, squatter.password, uniqueAddress())))
    }
    // The squatter fills the account in, hoping the owner will not notice.
    await shop.call('PUT', '/api/auth/update-profile', { phone: '555-0199' }, { cookie: squatter.cookie })

    const done = await ownerSignsInWithGoogle(squatter.email)
    expect(setCookies(done).get('session')?.value).toMatch(/^[a-z2-7]{32}$/)

    attacks.tried(browsers.length)
    for (const cookie of browsers) expect((await whoAmI(shop, cookie)).status).toBe(401)
    attacks.tried(2)
    const password = await signIn(shop, squatter.email, squatter.password, uniqueAddress())
    expect(password.status).toBe(401)
    // A reset for the address now tells its mailbox (the owner's) to use Google; it holds no link to use.
    await shop.call('POST', '/api/auth/forgot-password', { email: squatter.email }, uniqueAddress())
    await shop.runDueJobs()
    const last = mailer.sent.at(-1)
    expect(last?.to).toBe(squatter.email)
    expect(last?.text).not.toContain('reset-password?token=')
    expect(await sessionCount(squatter.id)).toBe(1)
    const [row] = await shop.deps.db.select().from(users).where(eq(users.id, squatter.id))
    expect(row?.passwordHash).toBeNull()
    expect(row?.emailVerifiedAt).not.toBeNull()
  })

  test("the squatter's profile goes with them: no saved address to ship to, no phone, Google's names", async () => {
    const squatter = await signUp(shop, { firstName: 'Sly', lastName: 'Squatter' })
    // Planted for the owner's checkout, which pre-fills a signed-in customer's saved address.
    const planted = await shop.call('PUT', '/api/auth/update-profile', PLANTED_PROFILE, {
      cookie: squatter.cookie,
    })
    expect(planted.status).toBe(200)

    const owner = cookieHeader(await ownerSignsInWithGoogle(squatter.email))
    attacks.tried()
    const me = (await (await whoAmI(shop, owner)).json()) as Record<string, unknown>
    expect(me).toMatchObject({
      email: squatter.email,
      firstName: 'Owen',
      lastName: 'Owner',
      phone: '',
      address: null,
      notifications: { email: true, sms: false },
      hasPassword: false,
      emailVerified: true,
    })
  })

  test("a squatter's password sign-in in flight while the owner comes in gets no session", async () => {
    const squatter = await signUp(shop)
    const hold = holdPasswordChecks()
    let inFlight: Promise<Response>
    try {
      inFlight = signIn(shop, squatter.email, squatter.password, uniqueAddress())
      await hold.entered
    } finally {
      hold.restore()
    }
    await ownerSignsInWithGoogle(squatter.email)
    hold.release()
    attacks.tried()
    const late = await inFlight
    expect(late.status).toBe(401)
    expect(setCookies(late).get('session')).toBeUndefined()
    expect(await sessionCount(squatter.id)).toBe(1)
  })

  test('an address that changed hands: its previous holder keeps no session, password or reset link', async () => {
    const before = await signUp(shop)
    const [link] = await linksMailedTo(before.email)
    expect((await verify(link, before)).status).toBe(200)
    const theirGoogle = cookieHeader(await signsInWithGoogle(before.email, `old-${before.email}`))
    await shop.call('PUT', '/api/auth/update-profile', PLANTED_PROFILE, { cookie: theirGoogle })
    // A reset link they asked for while the mailbox was theirs.
    await shop.call('POST', '/api/auth/forgot-password', { email: before.email }, uniqueAddress())
    await shop.runDueJobs()
    const reset = /reset-password\?token=([a-z2-7]{32})/.exec(mailer.sent.at(-1)?.text ?? '')?.[1]
    expect(reset).toBeDefined()

    // The domain changed hands: its new holder signs in with a Google account of their own.
    const now = cookieHeader(await signsInWithGoogle(before.email, `new-${before.email}`))
    await shop.call('PUT', '/api/auth/update-profile', { phone: '555-0142' }, { cookie: now })

    attacks.tried(4)
    for (const cookie of [before.cookie, theirGoogle]) expect((await whoAmI(shop, cookie)).status).toBe(401)
    expect((await signIn(shop, before.email, before.password, uniqueAddress())).status).toBe(401)
    const used = await shop.call(
      'POST',
      '/api/auth/reset-password',
      { token: reset, password: 'taken-back-again' },
      uniqueAddress(),
    )
    expect(used.status).toBe(422)
    expect(((await used.json()) as { error?: string }).error).toMatch(/link/i)
    const newHolder = (await (await whoAmI(shop, now)).json()) as Record<string, unknown>
    // Their home address is not the new holder's to read, nor to ship to.
    expect(newHolder).toMatchObject({ address: null, phone: '555-0142' })
    expect(await sessionCount(before.id)).toBe(1)
  })

  test('an owner whose address was proved keeps the password and sessions they had', async () => {
    const owner = await signUp(shop, { firstName: 'Dana', lastName: 'Cole' })
    const [link] = await linksMailedTo(owner.email)
    expect((await verify(link, owner)).status).toBe(200)
    await shop.call('PUT', '/api/auth/update-profile', PLANTED_PROFILE, { cookie: owner.cookie })
    await ownerSignsInWithGoogle(owner.email)
    const me = await whoAmI(shop, owner.cookie)
    expect(me.status).toBe(200)
    // Their own profile too: names, phone and the saved address stay as they wrote them.
    expect(await me.json()).toMatchObject({
      firstName: 'Dana',
      lastName: 'Cole',
      phone: PLANTED_PROFILE.phone,
      address: PLANTED_PROFILE.address,
    })
    expect((await signIn(shop, owner.email, owner.password, uniqueAddress())).status).toBe(200)
  })
})

describe('proving an address one does not read', () => {
  let squatter: Customer
  beforeAll(async () => {
    squatter = await signUp(shop)
  })

  test('guessed tokens of every shape prove nothing', async () => {
    const guesses = [
      'a'.repeat(32),
      '2'.repeat(32),
      'abcdefghijklmnopqrstuvwxyz234567',
      'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
      `${'a'.repeat(31)}=`,
      ' '.repeat(32),
      '',
      'null',
      squatter.id,
      squatter.email,
      /session=([a-z2-7]+)/.exec(squatter.cookie)?.[1] ?? '',
    ]
    for (const token of guesses) {
      attacks.tried()
      const res = await verify(token, squatter)
      expect({ token, status: res.status }).toEqual({ token, status: 422 })
    }
    for (const body of [{ token: ['a'.repeat(32)] }, { token: { $ne: null } }, { token: null }, {}]) {
      attacks.tried()
      const res = await shop.call('POST', '/api/auth/verify-email', body, {
        ...uniqueAddress(),
        cookie: squatter.cookie,
      })
      expect(res.status).toBe(422)
    }
    expect((await (await whoAmI(shop, squatter.cookie)).json()).emailVerified).toBe(false)
  })

  test("another account's link proves nothing used by someone else's session, and stays good for its own", async () => {
    const other = await signUp(shop)
    const [link] = await linksMailedTo(other.email)
    attacks.tried()
    const res = await verify(link, squatter)
    expect(res.status).toBe(403)
    expect((await res.json()).reason).toBe('otherAccount')
    expect((await (await whoAmI(shop, squatter.cookie)).json()).emailVerified).toBe(false)
    expect((await (await whoAmI(shop, other.cookie)).json()).emailVerified).toBe(false)
    expect((await verify(link, other)).status).toBe(200)
  })

  test("the owner who opens the welcome link of a squatter's sign-up proves nothing, so Google still clears the squatter out", async () => {
    const squatter = await signUp(shop)
    const [link] = await linksMailedTo(squatter.email)
    // The owner reads the mail they never asked for and opens it: signed out (a mail gateway running the
    // page's script is signed out too), or signed in to an account of their own.
    const ownersOtherAccount = await signUp(shop)
    attacks.tried(2)
    expect((await verify(link, null)).status).toBe(401)
    expect((await verify(link, ownersOtherAccount)).status).toBe(403)
    const [before] = await shop.deps.db.select().from(users).where(eq(users.id, squatter.id))
    expect(before?.emailVerifiedAt).toBeNull()

    await ownerSignsInWithGoogle(squatter.email)
    attacks.tried(2)
    expect((await whoAmI(shop, squatter.cookie)).status).toBe(401)
    expect((await signIn(shop, squatter.email, squatter.password, uniqueAddress())).status).toBe(401)
    const [after] = await shop.deps.db.select().from(users).where(eq(users.id, squatter.id))
    expect(after?.passwordHash).toBeNull()
  })

  test('a link sent again goes only to the address of the account, never where the caller says', async () => {
    // Mail queued by earlier tests goes out first, so what follows is this request's alone.
    await shop.runDueJobs()
    const before = mailer.sent.length
    attacks.tried()
    const res = await shop.call(
      'POST',
      '/api/auth/resend-verification',
      JSON.stringify({ email: 'attacker@evil.example', userId: 'someone-else' }),
      { cookie: squatter.cookie, 'content-type': 'application/json', ...uniqueAddress() },
    )
    expect(res.status).toBe(200)
    await shop.runDueJobs()
    const sent = mailer.sent.slice(before)
    expect(sent.map((message) => message.to)).toEqual([squatter.email])
  })

  test('twenty parallel uses of one link: one proves, the rest are told it was used', async () => {
    const customer = await signUp(shop)
    const [link] = await linksMailedTo(customer.email)
    attacks.tried(20)
    const answers = await Promise.all(Array.from({ length: 20 }, () => verify(link, customer)))
    const statuses = answers.map((res) => res.status).sort()
    expect(statuses.filter((status) => status === 200)).toHaveLength(1)
    expect(statuses.filter((status) => status === 409)).toHaveLength(19)
  })

  test('an inbox cannot be flooded: three links an hour per inbox, whatever the address', async () => {
    const target = await signUp(shop)
    const answers: number[] = []
    for (let i = 0; i < 10; i++) {
      attacks.tried()
      const res = await shop.call('POST', '/api/auth/resend-verification', undefined, {
        cookie: target.cookie,
        ...uniqueAddress(),
      })
      answers.push(res.status)
    }
    expect(answers.filter((status) => status === 200)).toHaveLength(3)
    expect(answers.filter((status) => status === 429)).toHaveLength(7)
    // The sign-up's link and three more, no others.
    expect(await linksMailedTo(target.email)).toHaveLength(4)
  })

  test('no verification token reaches a log line', async () => {
    const lines: string[] = []
    setLogLevel('info')
    const restore = captureLog((line) => lines.push(line))
    let token = ''
    try {
      const customer = await signUp(shop, { email: uniqueEmail('logged') })
      ;[token = ''] = await linksMailedTo(customer.email)
      await verify(token, null)
      await verify(token, customer)
      await verify(token, customer)
      await shop.call('GET', `/verify-email?token=${token}`)
      await requestLinesWritten()
    } finally {
      restore()
      setLogLevel('silent')
    }
    attacks.tried()
    expect(token).toMatch(/^[a-z2-7]{32}$/)
    expect(lines.join('\n')).not.toContain(token)
    expect(lines.some((line) => line.includes('"path":"/api/auth/verify-email"'))).toBe(true)
  })
})

test('the verify call refuses other origins like every state change', async () => {
  attacks.tried()
  const res = await shop.app.handle(
    new Request(`${ORIGIN}/api/auth/verify-email`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'a'.repeat(32) }),
    }),
  )
  expect(res.status).toBe(403)
})
