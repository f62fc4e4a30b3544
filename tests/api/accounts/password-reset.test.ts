// Forgot password → e-mail (through the real SMTP adapter to a local sink) → reset, with the attacks on
// each step: unknown e-mails, replayed and expired links, too many requests, secrets in logs.

import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { createApp } from '../../../api/app'
import { captureLog, setLogLevel } from '../../../api/lib/log'
import { hashToken } from '../../../api/modules/auth/sessions'
import { createServices } from '../../../api/services'
import { passwordResetTokens, signInFailures, users } from '../../../db/schema'
import { type SmtpSink, startSmtpSink } from '../../fakes/smtp-sink'
import {
  cookieHeader,
  setCookies,
  signIn,
  signUp,
  uniqueAddress,
  uniqueEmail,
  whoAmI,
} from '../support/accounts'
import { requestLinesWritten } from '../support/log-lines'
import { createTestApp, ORIGIN, type TestApp } from '../support/test-app'

// Argon2id is slow on purpose (about 0.2 s a hash on a busy machine), and these tests hash a lot.
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
})

const SAME_ANSWER = {
  message:
    'If an account exists for that e-mail, we have sent it a link to reset the password. The link works for 1 hour.',
}

function forgot(email: string, headers: Record<string, string> = uniqueAddress()) {
  return shop.call('POST', '/api/auth/forgot-password', { email }, headers)
}

/** The raw message is quoted-printable: soft line breaks and '=3D' undone, enough to read the link. */
function decoded(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
}

function linkIn(raw: string): string {
  const match = /http:\/\/localhost:4321\/reset-password\?token=([a-z2-7]{32})/.exec(decoded(raw))
  if (!match?.[1]) throw new Error(`no reset link in:\n${raw}`)
  return match[1]
}

const RESET_SUBJECT = 'Reset your Grit & Whisker password'

/** The reset e-mails that arrived (sign-up also sends a verification e-mail, which these tests leave aside). */
const resetMails = () => sink.messages.filter((message) => message.subject === RESET_SUBJECT)

/** Runs the queued e-mail jobs and answers the token in the one reset e-mail sent to `email`. */
async function tokenMailedTo(email: string): Promise<string> {
  await shop.runDueJobs()
  const mails = resetMails().filter((message) => message.to.includes(email))
  expect(mails).toHaveLength(1)
  return linkIn(mails[0]?.raw ?? '')
}

describe('forgot password', () => {
  test('an existing and an unknown e-mail get the same answer; only the account gets mail', async () => {
    const customer = await signUp(shop)
    const known = await forgot(customer.email.toUpperCase())
    const unknown = await forgot(uniqueEmail('ghost'))
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    expect(await known.json()).toEqual(SAME_ANSWER)
    expect(await unknown.json()).toEqual(SAME_ANSWER)
    // The request itself sends nothing in either case (the same work, so the same timing): a job does.
    expect(sink.messages).toEqual([])

    const token = await tokenMailedTo(customer.email)
    expect(resetMails()).toHaveLength(1)
    expect(decoded(resetMails()[0]?.raw ?? '')).toContain(`${ORIGIN}/reset-password?token=${token}`)
    // Only the token's hash is kept.
    const rows = await shop.deps.db.select().from(passwordResetTokens)
    expect(rows.map((row) => row.id)).toContain(hashToken(token))
    expect(JSON.stringify(rows)).not.toContain(token)
  })

  test('a malformed or a missing e-mail is a 422', async () => {
    const bad = await forgot('not-an-email')
    expect(bad.status).toBe(422)
    expect((await bad.json()).error).toBe('Please enter a valid e-mail address, like name@example.com.')
    const missing = await shop.call('POST', '/api/auth/forgot-password', {}, uniqueAddress())
    expect(missing.status).toBe(422)
  })

  test('an account made with Google is told to sign in with Google, and gets no link', async () => {
    const email = uniqueEmail('googler')
    await shop.deps.db.insert(users).values({
      id: `google-${Date.now()}`,
      email,
      passwordHash: null,
      googleSubject: `sub-${Date.now()}`,
      createdAt: shop.clock.now(),
      updatedAt: shop.clock.now(),
    })
    expect(await (await forgot(email)).json()).toEqual(SAME_ANSWER)
    await shop.runDueJobs()
    const [mail] = sink.messages
    expect(mail?.subject).toBe('Signing in to Grit & Whisker')
    expect(decoded(mail?.raw ?? '')).toContain('signs in with Google')
    expect(decoded(mail?.raw ?? '')).not.toContain('reset-password?token=')
  })

  test('requests are limited per e-mail and per address, with Retry-After', async () => {
    const customer = await signUp(shop)
    for (let i = 0; i < 3; i++) expect((await forgot(customer.email)).status).toBe(200)
    const fourth = await forgot(customer.email)
    expect(fourth.status).toBe(429)
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await fourth.json()).error).toBe(
      'Too many reset requests for this e-mail. Please check your inbox, or try again in an hour.',
    )

    // Counted in the database: a second server instance on the same database refuses too.
    const other = createApp(shop.deps, createServices(shop.deps))
    const viaOther = await other.handle(
      new Request(`${ORIGIN}/api/auth/forgot-password`, {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/json', ...uniqueAddress() },
        body: JSON.stringify({ email: customer.email }),
      }),
    )
    expect(viaOther.status).toBe(429)

    const address = uniqueAddress()
    for (let i = 0; i < 5; i++) expect((await forgot(uniqueEmail('spray'), address)).status).toBe(200)
    const sixth = await forgot(uniqueEmail('spray'), address)
    expect(sixth.status).toBe(429)
    expect(sixth.headers.get('retry-after')).not.toBeNull()
  })
})

describe('reset password', () => {
  test('the e-mailed link sets a new password, signs out every browser, and works once', async () => {
    const customer = await signUp(shop)
    const otherBrowser = cookieHeader(await signIn(shop, customer.email, customer.password))
    await forgot(customer.email)
    const token = await tokenMailedTo(customer.email)

    const valid = await shop.call('POST', '/api/auth/validate-reset-token', { token })
    expect(valid.status).toBe(200)

    // A password that breaks the rules does not use up the link.
    const short = await shop.call('POST', '/api/auth/reset-password', { token, password: '12345' })
    expect(short.status).toBe(422)
    expect((await short.json()).error).toBe('Password must be at least 6 characters long.')
    expect((await shop.call('POST', '/api/auth/validate-reset-token', { token })).status).toBe(200)

    const reset = await shop.call(
      'POST',
      '/api/auth/reset-password',
      { token, password: 'brand-new-password' },
      { cookie: customer.cookie },
    )
    expect(reset.status).toBe(200)
    expect(await reset.json()).toEqual({
      message: 'Your password has been updated. Please sign in with your new password.',
    })
    expect(setCookies(reset).get('session')?.attributes).toContain('Max-Age=0')

    // Every session of the account is gone, in this browser and the other.
    expect((await whoAmI(shop, customer.cookie)).status).toBe(401)
    expect((await whoAmI(shop, otherBrowser)).status).toBe(401)
    expect((await signIn(shop, customer.email, customer.password)).status).toBe(401)
    expect((await signIn(shop, customer.email, 'brand-new-password')).status).toBe(200)

    // Replayed: refused, and the password stays the new one.
    const replay = await shop.call('POST', '/api/auth/reset-password', { token, password: 'attacker-choice' })
    expect(replay.status).toBe(422)
    expect((await replay.json()).error).toBe(
      'This reset link is invalid or has expired. Please ask for a new one.',
    )
    expect((await shop.call('POST', '/api/auth/validate-reset-token', { token })).status).toBe(422)
    expect((await signIn(shop, customer.email, 'attacker-choice')).status).toBe(401)
  })

  test("a staff account's link sets only a staff-strength password, and a shorter one leaves the link good", async () => {
    const staff = await signUp(shop)
    await shop.deps.db.update(users).set({ role: 'staff' }).where(eq(users.id, staff.id))
    await forgot(staff.email)
    const token = await tokenMailedTo(staff.email)
    const short = await shop.call('POST', '/api/auth/reset-password', { token, password: 'abc123' })
    expect(short.status).toBe(422)
    expect((await short.json()).error).toBe("A staff account's password must be at least 12 characters long.")
    expect((await signIn(shop, staff.email, 'abc123')).status).toBe(401)
    expect((await shop.call('POST', '/api/auth/validate-reset-token', { token })).status).toBe(200)
    const long = await shop.call('POST', '/api/auth/reset-password', { token, password: 'twelve-chars' })
    expect(long.status).toBe(200)
    expect((await signIn(shop, staff.email, 'twelve-chars')).status).toBe(200)
  })

  test('a staff password shorter than the staff rule (an account made staff before it) opens nothing until a link sets a longer one', async () => {
    const staff = await signUp(shop, { password: 'short-pw' })
    await shop.deps.db.update(users).set({ role: 'staff' }).where(eq(users.id, staff.id))
    const failuresBefore = await shop.deps.db.$count(signInFailures)
    const refused = await signIn(shop, staff.email, 'short-pw')
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({
      error:
        "A staff account's password must be at least 12 characters long, and this one is shorter. Choose 'Forgot Password' to set a new one.",
      newPasswordNeeded: true,
    })
    // No session, and the attempt stays counted against the sign-in limit.
    expect(refused.headers.get('set-cookie') ?? '').not.toContain('session=')
    expect(await shop.deps.db.$count(signInFailures)).toBe(failuresBefore + 1)
    // A wrong password still gets the usual answer, which says nothing of the account.
    expect((await signIn(shop, staff.email, 'not-the-pw')).status).toBe(401)

    await forgot(staff.email)
    const token = await tokenMailedTo(staff.email)
    expect(
      (await shop.call('POST', '/api/auth/reset-password', { token, password: 'a-longer-staff-pw' })).status,
    ).toBe(200)
    expect((await signIn(shop, staff.email, 'short-pw')).status).toBe(401)
    expect((await signIn(shop, staff.email, 'a-longer-staff-pw')).status).toBe(200)
  })

  test('a link older than an hour is refused', async () => {
    const customer = await signUp(shop)
    await forgot(customer.email)
    const token = await tokenMailedTo(customer.email)
    shop.clock.advance(59 * 60 * 1000)
    expect((await shop.call('POST', '/api/auth/validate-reset-token', { token })).status).toBe(200)
    shop.clock.advance(60 * 1000)
    expect((await shop.call('POST', '/api/auth/validate-reset-token', { token })).status).toBe(422)
    const late = await shop.call('POST', '/api/auth/reset-password', { token, password: 'too-late-now' })
    expect(late.status).toBe(422)
    expect((await signIn(shop, customer.email, customer.password)).status).toBe(200)
  })

  test('asking again retires the earlier link', async () => {
    const customer = await signUp(shop)
    await forgot(customer.email)
    const first = await tokenMailedTo(customer.email)
    sink.messages.length = 0
    await forgot(customer.email)
    const second = await tokenMailedTo(customer.email)
    expect(second).not.toBe(first)
    expect((await shop.call('POST', '/api/auth/validate-reset-token', { token: first })).status).toBe(422)
    expect((await shop.call('POST', '/api/auth/validate-reset-token', { token: second })).status).toBe(200)
  })

  test('using reset links is limited per address', async () => {
    const address = uniqueAddress()
    for (let i = 0; i < 20; i++) {
      const res = await shop.call(
        'POST',
        '/api/auth/validate-reset-token',
        { token: 'a'.repeat(32) },
        address,
      )
      expect(res.status).toBe(422)
    }
    const guess = await shop.call(
      'POST',
      '/api/auth/reset-password',
      { token: 'b'.repeat(32), password: 'pw-123456' },
      address,
    )
    expect(guess.status).toBe(429)
    expect(guess.headers.get('retry-after')).not.toBeNull()
  })

  test('made-up, malformed and oversize tokens are refused', async () => {
    for (const token of ['', 'abc', 'a'.repeat(32), 'A'.repeat(32), '../../etc/passwd', 'x'.repeat(64)]) {
      const res = await shop.call('POST', '/api/auth/validate-reset-token', { token }, uniqueAddress())
      expect({ token, status: res.status }).toEqual({ token, status: 422 })
      const reset = await shop.call(
        'POST',
        '/api/auth/reset-password',
        { token, password: 'whatever-pass' },
        uniqueAddress(),
      )
      expect({ token, status: reset.status }).toEqual({ token, status: 422 })
    }
    const oversize = await shop.call('POST', '/api/auth/validate-reset-token', { token: 'x'.repeat(65) })
    expect(oversize.status).toBe(422)
    const missing = await shop.call('POST', '/api/auth/reset-password', { token: 'a'.repeat(32) })
    expect(missing.status).toBe(422)
  })
})

test('no password, token or session cookie ever reaches a log line', async () => {
  const lines: string[] = []
  const originals = { log: console.log, info: console.info, warn: console.warn, error: console.error }
  for (const level of ['log', 'info', 'warn', 'error'] as const) {
    console[level] = (...args: unknown[]) => {
      lines.push(
        args.map((arg) => (arg instanceof Error ? `${arg.message} ${arg.stack}` : String(arg))).join(' '),
      )
    }
  }
  // The shop's own JSON log (a line per request, job messages) is read too, at every level.
  setLogLevel('info')
  const restoreLog = captureLog((line) => lines.push(line))
  const secrets: string[] = []
  let email = 'no-email'
  try {
    const password = 'log-canary-password-1'
    secrets.push(password)
    const customer = await signUp(shop, { password })
    email = customer.email
    await signIn(shop, customer.email, password)
    secrets.push(/session=([a-z2-7]+)/.exec(customer.cookie)?.[1] ?? 'no-session')
    await signIn(shop, customer.email, 'log-canary-wrong-2')
    secrets.push('log-canary-wrong-2')
    await shop.call('POST', '/auth/register', '{"password":"log-canary-broken-3"', {
      'content-type': 'application/json',
      ...uniqueAddress(),
    })
    secrets.push('log-canary-broken-3')
    await forgot(customer.email)
    const token = await tokenMailedTo(customer.email)
    secrets.push(token)
    await shop.call('POST', '/api/auth/reset-password', { token, password: 'log-canary-new-4' })
    secrets.push('log-canary-new-4')
    await shop.call('POST', '/api/auth/reset-password', { token, password: 'log-canary-replay-5' })
    secrets.push('log-canary-replay-5')
    await whoAmI(shop, `session=${token}`)
    await shop.call('GET', `/reset-password?token=${token}`)
    await shop.runDueJobs()
    await requestLinesWritten()
  } finally {
    Object.assign(console, originals)
    restoreLog()
    setLogLevel('silent')
  }
  const text = lines.join('\n')
  for (const secret of secrets) expect(text).not.toContain(secret)
  expect(text).not.toContain(email)
  expect(secrets).toHaveLength(7)
  // The requests were logged, so the checks above read something.
  expect(lines.filter((line) => line.includes('"msg":"request"')).length).toBeGreaterThanOrEqual(9)
  expect(text).toContain('"path":"/reset-password"')
})
