// Proving an e-mail address: the link sent once at sign-up (through the jobs queue and the real SMTP
// adapter to a local sink), the verify call's answers for a good, used, expired and made-up link, signed
// out and signed in as another account, sending the link again from the account page, and a used reset
// link proving the address too.
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { hashToken } from '../../../api/modules/auth/sessions'
import { emailVerificationTokens, jobs, users } from '../../../db/schema'
import { type SmtpSink, startSmtpSink } from '../../fakes/smtp-sink'
import { type Customer, signUp, uniqueAddress, whoAmI } from '../support/accounts'
import { createTestApp, ORIGIN, type TestApp } from '../support/test-app'

// Argon2id is slow on purpose, and every sign-up hashes.
setDefaultTimeout(60_000)

let shop: TestApp
let sink: SmtpSink
beforeAll(async () => {
  sink = await startSmtpSink()
  shop = await createTestApp({ SMTP_URL: sink.url, TRUST_PROXY: 'true' })
})
afterAll(async () => {
  shop.close()
  await sink.stop()
})
afterEach(() => {
  sink.messages.length = 0
  // The next test starts after every limit window of this one.
  shop.clock.advance(2 * 60 * 60 * 1000)
})

const SUBJECT = 'Confirm your e-mail address for Grit & Whisker'

/** The raw message is quoted-printable: soft line breaks and '=3D' undone, enough to read the link. */
function decoded(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
}

/** Runs the queued jobs and answers the tokens of the verification e-mails sent to `email`. */
async function tokensMailedTo(email: string): Promise<string[]> {
  await shop.runDueJobs()
  return sink.messages
    .filter((message) => message.to.includes(email) && message.subject === SUBJECT)
    .map((message) => {
      const match = /http:\/\/localhost:4321\/verify-email\?token=([a-z2-7]{32})/.exec(decoded(message.raw))
      if (!match?.[1]) throw new Error(`no verification link in:\n${message.raw}`)
      return match[1]
    })
}

async function onlyToken(email: string): Promise<string> {
  const tokens = await tokensMailedTo(email)
  expect(tokens).toHaveLength(1)
  return tokens[0] ?? ''
}

/** Uses a link, signed in as `customer` (or signed out, with null). */
function verify(
  token: unknown,
  customer: Customer | null,
  headers: Record<string, string> = uniqueAddress(),
) {
  return shop.call(
    'POST',
    '/api/auth/verify-email',
    { token },
    { ...headers, ...(customer ? { cookie: customer.cookie } : {}) },
  )
}

function resend(customer: Customer, headers: Record<string, string> = uniqueAddress()) {
  return shop.call('POST', '/api/auth/resend-verification', undefined, {
    cookie: customer.cookie,
    ...headers,
  })
}

async function verified(customer: Customer): Promise<boolean> {
  const me = (await (await whoAmI(shop, customer.cookie)).json()) as { emailVerified: boolean }
  return me.emailVerified
}

describe('the link sent at sign-up', () => {
  test('sign-up signs in at once, unverified, and queues exactly one e-mail with a link', async () => {
    const customer = await signUp(shop)
    expect(await verified(customer)).toBe(false)
    // Queued, not sent in the request: the answer does not wait for the mail server.
    expect(sink.messages).toEqual([])
    const queued = await shop.deps.db.select().from(jobs).where(eq(jobs.type, 'email-verification'))
    expect(queued.filter((job) => JSON.stringify(job.payload).includes(customer.id))).toHaveLength(1)

    const token = await onlyToken(customer.email)
    // Only the hash is stored, for 24 hours.
    const [row] = await shop.deps.db
      .select()
      .from(emailVerificationTokens)
      .where(eq(emailVerificationTokens.id, hashToken(token)))
    expect(row?.userId).toBe(customer.id)
    expect(row?.expiresAt.getTime()).toBe(shop.clock.now().getTime() + 24 * 60 * 60 * 1000)
    expect(JSON.stringify(await shop.deps.db.select().from(emailVerificationTokens))).not.toContain(token)

    // Running the jobs again sends nothing more.
    expect(await tokensMailedTo(customer.email)).toHaveLength(1)
  })

  test('the link proves the address once; a second use says it was used', async () => {
    const customer = await signUp(shop)
    const token = await onlyToken(customer.email)

    const ok = await verify(token, customer)
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ message: 'Your e-mail address is verified. Thank you!' })
    expect(ok.headers.get('cache-control')).toBe('no-store')
    expect(await verified(customer)).toBe(true)
    const [user] = await shop.deps.db.select().from(users).where(eq(users.id, customer.id))
    expect(user?.emailVerifiedAt?.getTime()).toBe(shop.clock.now().getTime())

    const again = await verify(token, customer)
    expect(again.status).toBe(409)
    expect(await again.json()).toEqual({
      error: 'This link has already been used: your e-mail address is verified.',
      reason: 'used',
    })
  })

  test('a link older than 24 hours is refused with its own message, and proves nothing', async () => {
    const customer = await signUp(shop)
    const token = await onlyToken(customer.email)
    shop.clock.advance(24 * 60 * 60 * 1000)
    const late = await verify(token, customer)
    expect(late.status).toBe(422)
    expect(await late.json()).toEqual({
      error: 'This link has expired. Sign in and send a new one from your account page.',
      reason: 'expired',
    })
    expect(await verified(customer)).toBe(false)
  })

  test('made-up, malformed, oversize and missing tokens are a 422', async () => {
    const customer = await signUp(shop)
    for (const token of ['', 'abc', 'a'.repeat(32), 'A'.repeat(32), '../../etc/passwd', 'x'.repeat(64)]) {
      const res = await verify(token, customer)
      expect({ token, status: res.status }).toEqual({ token, status: 422 })
      expect(await res.json()).toEqual({
        error: 'This verification link is not valid. Sign in and send a new one from your account page.',
        reason: 'invalid',
      })
    }
    expect((await verify('x'.repeat(65), customer)).status).toBe(422)
    expect((await verify(42, customer)).status).toBe(422)
    expect(
      (await shop.call('POST', '/api/auth/verify-email', {}, { ...uniqueAddress(), cookie: customer.cookie }))
        .status,
    ).toBe(422)
  })

  test('a link proves only the address it was sent to', async () => {
    const customer = await signUp(shop)
    const token = await onlyToken(customer.email)
    await shop.deps.db
      .update(users)
      .set({ email: `moved.${customer.email}` })
      .where(eq(users.id, customer.id))
    expect((await verify(token, customer)).status).toBe(422)
    const [user] = await shop.deps.db.select().from(users).where(eq(users.id, customer.id))
    expect(user?.emailVerifiedAt).toBeNull()
  })

  test('signed out, the link proves nothing and stays good for its account to use signed in', async () => {
    const customer = await signUp(shop)
    const token = await onlyToken(customer.email)
    const signedOut = await verify(token, null)
    expect(signedOut.status).toBe(401)
    expect(await verified(customer)).toBe(false)
    expect((await verify(token, customer)).status).toBe(200)
    expect(await verified(customer)).toBe(true)
  })

  test('signed in as another account, the link is refused (403) and stays good for its own', async () => {
    const customer = await signUp(shop)
    const other = await signUp(shop)
    const token = await onlyToken(customer.email)
    const wrong = await verify(token, other)
    expect(wrong.status).toBe(403)
    expect(await wrong.json()).toEqual({
      error:
        'This link was sent for another account. Sign out, then sign in to the account you made with this e-mail address.',
      reason: 'otherAccount',
    })
    expect([await verified(customer), await verified(other)]).toEqual([false, false])
    expect((await verify(token, customer)).status).toBe(200)
  })

  test('using links is limited per address, with Retry-After', async () => {
    const customer = await signUp(shop)
    const address = uniqueAddress()
    for (let i = 0; i < 20; i++) expect((await verify('a'.repeat(32), customer, address)).status).toBe(422)
    const next = await verify('b'.repeat(32), customer, address)
    expect(next.status).toBe(429)
    expect(Number(next.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

describe('sending the link again', () => {
  test('signed in and unverified: a new link, which retires the one before', async () => {
    const customer = await signUp(shop)
    const first = await onlyToken(customer.email)
    sink.messages.length = 0
    const res = await resend(customer)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      message: 'We have sent a new link to your e-mail address. It works for 24 hours.',
      emailVerified: false,
    })
    const second = await onlyToken(customer.email)
    expect(second).not.toBe(first)
    expect((await verify(first, customer)).status).toBe(422)
    expect((await verify(second, customer)).status).toBe(200)
  })

  test('already verified: says so and sends nothing', async () => {
    const customer = await signUp(shop)
    await verify(await onlyToken(customer.email), customer)
    sink.messages.length = 0
    const res = await resend(customer)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      message: 'Your e-mail address is already verified.',
      emailVerified: true,
    })
    await shop.runDueJobs()
    expect(sink.messages).toEqual([])
  })

  test('only when signed in', async () => {
    const res = await shop.call('POST', '/api/auth/resend-verification', undefined, uniqueAddress())
    expect(res.status).toBe(401)
    const forged = await shop.call('POST', '/api/auth/resend-verification', undefined, {
      cookie: 'session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    })
    expect(forged.status).toBe(401)
  })

  test('limited like reset requests: 3 an hour per inbox, 5 per 15 minutes per address', async () => {
    const customer = await signUp(shop)
    for (let i = 0; i < 3; i++) expect((await resend(customer)).status).toBe(200)
    const fourth = await resend(customer)
    expect(fourth.status).toBe(429)
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await fourth.json()).error).toBe(
      'Too many links asked for this e-mail. Please check your inbox, or try again in an hour.',
    )

    const address = uniqueAddress()
    for (let i = 0; i < 5; i++) expect((await resend(await signUp(shop), address)).status).toBe(200)
    const sixth = await resend(await signUp(shop), address)
    expect(sixth.status).toBe(429)
    expect(sixth.headers.get('retry-after')).not.toBeNull()
  })
})

describe('other proofs', () => {
  test('a used reset link proves the address', async () => {
    const customer = await signUp(shop)
    await shop.call('POST', '/api/auth/forgot-password', { email: customer.email }, uniqueAddress())
    await shop.runDueJobs()
    const mail = sink.messages.find((message) => message.subject === 'Reset your Grit & Whisker password')
    const token = /reset-password\?token=([a-z2-7]{32})/.exec(decoded(mail?.raw ?? ''))?.[1]
    const reset = await shop.call(
      'POST',
      '/api/auth/reset-password',
      { token, password: 'a-brand-new-password' },
      uniqueAddress(),
    )
    expect(reset.status).toBe(200)
    const [user] = await shop.deps.db.select().from(users).where(eq(users.id, customer.id))
    expect(user?.emailVerifiedAt?.getTime()).toBe(shop.clock.now().getTime())
  })
})

describe('what a proved address shows', () => {
  test("the data export shows the address's newsletter sign-up once the link proved it, not before", async () => {
    const customer = await signUp(shop)
    const joined = await shop.call('POST', '/api/newsletter', { email: customer.email }, uniqueAddress())
    expect(joined.status).toBe(200)
    const newsletter = async () => {
      const res = await shop.call('GET', '/api/user/export', undefined, { cookie: customer.cookie })
      return ((await res.json()) as { newsletter: Record<string, unknown> }).newsletter
    }
    // Signed up with a password only: nothing says the address is theirs, so the list is not shown.
    expect(await newsletter()).toMatchObject({
      shown: false,
      note: expect.stringContaining('confirmation link'),
    })

    expect((await verify(await onlyToken(customer.email), customer)).status).toBe(200)
    expect(await newsletter()).toMatchObject({ shown: true, subscribed: true })
  })
})

test('the verify call needs the shop origin like every other state change', async () => {
  const res = await shop.app.handle(
    new Request(`${ORIGIN}/api/auth/verify-email`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'a'.repeat(32) }),
    }),
  )
  expect(res.status).toBe(403)
})
