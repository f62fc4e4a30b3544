// Races between a Google change of hands, a password reset and `npm run staff -- add`, and what `add`
// does and says on an account left without a password (docs/decisions/016-verified-e-mail.md, 012).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { OAuth2Server } from 'oauth2-mock-server'
import type { MailMessage } from '../../../api/adapters/types'
import { sessions } from '../../../db/schema'
import { users } from '../../../db/schema/users'
import { cookieHeader, setCookies, signIn, signUp, uniqueAddress, whoAmI } from '../support/accounts'
import { googleEnv, startGoogleProvider } from '../support/google-provider'
import { holdCalls } from '../support/hold-calls'
import { staffCommand as runStaffCommand } from '../support/staff-command'
import { createTestApp, type TestApp } from '../support/test-app'
import { attackCounter } from './tally'

setDefaultTimeout(60_000)

const attacks = attackCounter('identity-races')
const STAFF_PASSWORD = 'a-long-staff-password'
let provider: OAuth2Server
let shop: TestApp
let claims: Record<string, unknown> = {}
let mailFails = false
const sent: MailMessage[] = []

beforeAll(async () => {
  provider = await startGoogleProvider(() => claims)
  shop = await createTestApp(
    { ...googleEnv(provider), TRUST_PROXY: 'true' },
    {
      mailer: {
        name: 'outbox',
        async send(message) {
          if (mailFails) throw new Error('SMTP down')
          sent.push(message)
        },
        async forgetCustomer() {},
      },
    },
  )
})
afterAll(async () => {
  shop.close()
  await provider.stop()
  attacks.record()
})

/** Google sent the browser back with `subject`'s verified `email`: the callback request, not yet answered. */
async function googleCallback(email: string, subject: string): Promise<{ done: Promise<Response> }> {
  claims = { sub: subject, email, email_verified: true, given_name: 'G', family_name: 'H' }
  const start = await shop.call('GET', '/auth/google')
  const atProvider = await fetch(new URL(start.headers.get('location') ?? ''), { redirect: 'manual' })
  const callback = new URL(atProvider.headers.get('location') ?? '')
  return {
    done: shop.call('GET', callback.pathname + callback.search, undefined, { cookie: cookieHeader(start) }),
  }
}

/** Only the first call of `owner[method]` waits for `release()` (`after`: once it has run). */
const holdFirst = <T extends object>(owner: T, method: keyof T, after = false) =>
  holdCalls(owner, method, { onlyFirst: true, after })

/** The last reset link mailed to `email`. */
async function resetLinkFor(email: string): Promise<string> {
  await shop.call('POST', '/api/auth/forgot-password', { email }, uniqueAddress())
  await shop.runDueJobs()
  const mail = sent.filter((m) => m.to === email && m.text.includes('/reset-password')).at(-1)
  return /reset-password\?token=([a-z2-7]{32})/.exec(mail?.text ?? '')?.[1] ?? 'missing'
}

async function sessionsOf(userId: string): Promise<number> {
  return (await shop.deps.db.select().from(sessions).where(eq(sessions.userId, userId))).length
}

async function userRow(id: string) {
  const [row] = await shop.deps.db.select().from(users).where(eq(users.id, id))
  return row
}

/** Runs `npm run staff -- …` against this test's database. */
const staffCommand = (args: string[], env: Record<string, string> = {}) => runStaffCommand(shop, args, env)

/** Password links the staff command (its outbox, in DATA_DIR) e-mailed to `email`. */
function outboxLinks(email: string): number {
  const dir = join(shop.deps.config.dataDir, 'outbox')
  if (!existsSync(dir)) return 0
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as MailMessage)
    .filter((m) => m.to === email && m.text.includes('/reset-password')).length
}

describe('Google change of hands', () => {
  test('a reset in flight while another Google identity takes the account sets nothing', async () => {
    // Old holder: a password and Google identity A on the address.
    const old = await signUp(shop)
    await shop.deps.db
      .update(users)
      .set({ googleSubject: `A-${old.id}`, emailVerifiedAt: new Date() })
      .where(eq(users.id, old.id))
    const token = await resetLinkFor(old.email)
    // The old holder's reset is between spending the link and setting the password (hashing it).
    const hash = holdFirst(Bun.password, 'hash')
    const reset = shop.call('POST', '/api/auth/reset-password', { token, password: 'old-holder-again' })
    await hash.entered
    // The address changed hands: Google identity B takes the account over.
    const taken = await (await googleCallback(old.email, `B-${old.id}`)).done
    expect(taken.status).toBe(302)
    const newHolder = cookieHeader(taken)
    expect((await whoAmI(shop, newHolder)).status).toBe(200)
    hash.release()
    hash.restore()
    attacks.tried(2)
    // The take-over retired the link: the reset sets no password and ends nobody's session.
    const answer = await reset
    expect(answer.status).toBe(422)
    expect(((await answer.json()) as { error?: string }).error).toBe(
      'This reset link is invalid or has expired. Please ask for a new one.',
    )
    expect((await whoAmI(shop, newHolder)).status).toBe(200)
    expect((await signIn(shop, old.email, 'old-holder-again', uniqueAddress())).status).toBe(401)
  })

  test('a Google sign-in of the old identity in flight while another identity takes the account gets no session', async () => {
    const old = await signUp(shop)
    await shop.deps.db
      .update(users)
      .set({ googleSubject: `A-${old.id}`, passwordHash: null, emailVerifiedAt: new Date() })
      .where(eq(users.id, old.id))
    // The old holder's callback found the account by identity A and is about to make its session.
    const create = holdFirst(shop.services.auth.sessions, 'create')
    const oldCallback = await googleCallback(old.email, `A-${old.id}`)
    await create.entered
    const taken = await (await googleCallback(old.email, `B-${old.id}`)).done
    expect(taken.status).toBe(302)
    create.release()
    create.restore()
    const oldDone = await oldCallback.done
    attacks.tried()
    expect(oldDone.headers.get('location')).toBe('/login?google=failed')
    expect(setCookies(oldDone).get('session')?.value ?? '').toBe('')
    expect((await userRow(old.id))?.googleSubject).toBe(`B-${old.id}`)
    expect(await sessionsOf(old.id)).toBe(1)
  })
})

describe('staff rule', () => {
  test("a customer's reset in flight while `staff add` makes the account staff sets no customer-length password", async () => {
    const person = await signUp(shop)
    await shop.deps.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, person.id))
    const token = await resetLinkFor(person.email)
    // The reset has checked the role (customer) and not yet set the password.
    const check = holdFirst(shop.services.accounts, 'findById', true)
    const reset = shop.call('POST', '/api/auth/reset-password', { token, password: 'short123' })
    await check.entered
    const added = await staffCommand(['add', person.email], { STAFF_PASSWORD })
    expect(added.code).toBe(0)
    check.release()
    check.restore()
    attacks.tried(2)
    expect((await reset).status).toBe(422)
    expect((await userRow(person.id))?.role).toBe('staff')
    expect((await signIn(shop, person.email, 'short123', uniqueAddress())).status).toBe(401)
    expect((await signIn(shop, person.email, STAFF_PASSWORD, uniqueAddress())).status).toBe(200)
  })
})

describe('staff add on an account left without a password', () => {
  test('after the link e-mail failed, running again with STAFF_PASSWORD, as told, sets it', async () => {
    const person = await signUp(shop)
    await shop.deps.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, person.id))
    mailFails = true
    const failed = await shop.services.staff.add(person.email, async () => null).catch((e: Error) => e)
    mailFails = false
    expect(String(failed)).toContain('Run the command again with STAFF_PASSWORD set, or once mail works.')
    const again = await staffCommand(['add', person.email], { STAFF_PASSWORD })
    expect(again.code).toBe(0)
    expect(again.out).toContain(
      `${person.email} was staff already. It had no password and no Google sign-in, so the one given is its password now, and every session of the account has ended.`,
    )
    expect((await signIn(shop, person.email, STAFF_PASSWORD, uniqueAddress())).status).toBe(200)
  })

  test('a verified account with neither a password nor Google gets a link to set one, not "Google only"', async () => {
    const person = await signUp(shop)
    await shop.deps.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, person.id))
    expect((await staffCommand(['add', person.email])).code).toBe(0) // no STAFF_PASSWORD: link e-mailed
    expect((await staffCommand(['remove', person.email])).code).toBe(0)
    const before = outboxLinks(person.email)
    const again = await staffCommand(['add', person.email])
    expect(again.code).toBe(0)
    expect((await userRow(person.id))?.googleSubject).toBeNull()
    expect((await userRow(person.id))?.passwordHash).toBeNull()
    expect(again.out).toContain(
      `${person.email} is staff now. It had no password and no Google sign-in, so a link to set a password was e-mailed to ${person.email}`,
    )
    expect(outboxLinks(person.email)).toBeGreaterThan(before)
  })
})

describe('an account deleted while someone signs in to it', () => {
  test('a password sign-in in flight is refused like a wrong password, and leaves no session', async () => {
    const owner = await signUp(shop)
    // The sign-in has found the account and is checking the password.
    const verify = holdFirst(Bun.password, 'verify')
    const signingIn = signIn(shop, owner.email, owner.password, uniqueAddress())
    await verify.entered
    verify.restore()
    // The owner deletes the account in another browser meanwhile.
    const deleted = await shop.call(
      'DELETE',
      '/api/user',
      { password: owner.password },
      { cookie: owner.cookie, ...uniqueAddress() },
    )
    expect(deleted.status).toBe(204)
    verify.release()
    const answer = await signingIn
    attacks.tried()
    expect(answer.status).toBe(401)
    expect(await answer.json()).toEqual({ error: 'The e-mail or password is incorrect.' })
    expect(setCookies(answer).get('session')?.value ?? '').toBe('')
    expect(await sessionsOf(owner.id)).toBe(0)
  })

  test('a Google sign-in in flight ends at the sign-in page, not in an error', async () => {
    const owner = await signUp(shop)
    await shop.deps.db
      .update(users)
      .set({ googleSubject: `G-${owner.id}`, emailVerifiedAt: new Date() })
      .where(eq(users.id, owner.id))
    // The callback found the account by its identity and is about to make its session.
    const create = holdFirst(shop.services.auth.sessions, 'create')
    const callback = await googleCallback(owner.email, `G-${owner.id}`)
    await create.entered
    await shop.deps.db.delete(users).where(eq(users.id, owner.id))
    create.release()
    create.restore()
    const done = await callback.done
    attacks.tried()
    expect(done.status).toBe(302)
    expect(done.headers.get('location')).toBe('/login?google=failed')
    expect(setCookies(done).get('session')?.value ?? '').toBe('')
    expect(await sessionsOf(owner.id)).toBe(0)
  })
})
