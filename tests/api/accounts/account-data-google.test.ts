// Deleting an account made with Google, which has no password to ask for: a Google sign-in in the last 10
// minutes stands in for it. Against a local OpenID provider (oauth2-mock-server) through the real
// openid-client adapter, as google.test.ts signs in.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { OAuth2Server } from 'oauth2-mock-server'
import { newsletterSubscribers, sessions, users } from '../../../db/schema'
import { cookieHeader, PASSWORD, uniqueEmail, whoAmI } from '../support/accounts'
import { googleEnv, startGoogleProvider } from '../support/google-provider'
import { createTestApp, type TestApp } from '../support/test-app'

setDefaultTimeout(60_000)

const MINUTE = 60 * 1000
let provider: OAuth2Server
let shop: TestApp
/** What the provider puts in the next ID tokens. */
let claims: Record<string, unknown> = {}

beforeAll(async () => {
  provider = await startGoogleProvider(() => claims)
  shop = await createTestApp({ ...googleEnv(provider), TRUST_PROXY: 'true' })
})
afterAll(async () => {
  shop.close()
  await provider.stop()
})

function person(email: string) {
  return {
    sub: `google-${email}`,
    email,
    email_verified: true,
    given_name: 'Gail',
    family_name: 'Grover',
    picture: 'https://lh3.example/photo.jpg',
  }
}

/** The browser's whole Google round trip; the cookie of the session it ends with. */
async function signInWithGoogle(email: string): Promise<string> {
  claims = person(email)
  const start = await shop.call('GET', '/auth/google')
  expect(start.status).toBe(302)
  const atProvider = await fetch(new URL(start.headers.get('location') ?? ''), { redirect: 'manual' })
  const callback = new URL(atProvider.headers.get('location') ?? '')
  const done = await shop.call('GET', callback.pathname + callback.search, undefined, {
    cookie: cookieHeader(start),
  })
  expect(done.status).toBe(302)
  expect(done.headers.get('location')).toBe('/account')
  return cookieHeader(done)
}

function deleteAccount(cookie: string, body: unknown = {}): Promise<Response> {
  return shop.call('DELETE', '/api/user', body, { cookie })
}

async function idOf(cookie: string): Promise<string> {
  return ((await (await whoAmI(shop, cookie)).json()) as { id: string }).id
}

describe('an account made with Google', () => {
  test('each session records how it signed in', async () => {
    const cookie = await signInWithGoogle(uniqueEmail('gail'))
    const rows = await shop.deps.db
      .select({ signedInWith: sessions.signedInWith, createdAt: sessions.createdAt })
      .from(sessions)
      .where(eq(sessions.userId, await idOf(cookie)))
    expect(rows).toEqual([{ signedInWith: 'google', createdAt: shop.clock.now() }])
  })

  test('signed in with Google a moment ago, it is deleted without a password', async () => {
    const email = uniqueEmail('gail')
    const cookie = await signInWithGoogle(email)
    const id = await idOf(cookie)
    await shop.call('POST', '/api/newsletter', { email, source: 'home' })

    // Google proved the address is this account's, so the export says whether it is on the list.
    const data = await (await shop.call('GET', '/api/user/export', undefined, { cookie })).json()
    expect(data.profile.signsInWith).toEqual({ password: false, google: true })
    expect(data.profile.photoURL).toBe('https://lh3.example/photo.jpg')
    expect(data.newsletter).toEqual({
      shown: true,
      subscribed: true,
      source: 'home',
      subscribedAt: shop.clock.now().toISOString(),
    })
    expect(JSON.stringify(data)).not.toContain(`google-${email}`)

    shop.clock.advance(9 * MINUTE)
    // No password to send: no body at all will do.
    const res = await shop.call('DELETE', '/api/user', undefined, { cookie })
    expect(res.status).toBe(204)
    expect((await whoAmI(shop, cookie)).status).toBe(401)
    expect(await shop.deps.db.select().from(users).where(eq(users.id, id))).toEqual([])
    expect(
      await shop.deps.db
        .select()
        .from(users)
        .where(eq(users.googleSubject, `google-${email}`)),
    ).toEqual([])
    expect(
      await shop.deps.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)),
    ).toEqual([])

    // The same Google account signing in again starts a new, empty account.
    const again = await signInWithGoogle(email)
    expect(await idOf(again)).not.toBe(id)
    expect(await (await shop.call('GET', '/api/user/orders', undefined, { cookie: again })).json()).toEqual(
      [],
    )
  })

  test('a Google sign-in more than 10 minutes old must be repeated first; a password does not help', async () => {
    const email = uniqueEmail('gail')
    const old = await signInWithGoogle(email)
    shop.clock.advance(10 * MINUTE + 1000)
    const stale = await deleteAccount(old)
    expect(stale.status).toBe(403)
    expect(await stale.json()).toEqual({
      error: 'To delete your account, please sign in with Google again first. It only takes a moment.',
      reauthenticate: 'google',
    })
    expect((await deleteAccount(old, { password: PASSWORD })).status).toBe(403)
    expect((await whoAmI(shop, old)).status).toBe(200)

    // Signing in with Google again (another browser here) makes that session fresh enough.
    const fresh = await signInWithGoogle(email)
    expect((await deleteAccount(fresh)).status).toBe(204)
    // Every session ended, the older browser's too.
    expect((await whoAmI(shop, old)).status).toBe(401)
  })
})

describe('an account with a password and Google', () => {
  test('a recent Google sign-in is not enough: the password is asked for', async () => {
    const email = uniqueEmail('both')
    await shop.services.accounts.create({
      email,
      passwordHash: await Bun.password.hash(PASSWORD, 'argon2id'),
      googleSubject: `google-${email}`,
      firstName: 'Bo',
      lastName: 'Th',
    })
    const cookie = await signInWithGoogle(email)
    const res = await deleteAccount(cookie)
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({ error: 'Please enter your password to delete your account.' })
    expect((await deleteAccount(cookie, { password: PASSWORD })).status).toBe(204)
  })

  test('a staff password shorter than the staff rule proves nothing, here as at sign-in', async () => {
    const email = uniqueEmail('old.staff')
    await shop.services.accounts.create({
      email,
      passwordHash: await Bun.password.hash('short-pw', 'argon2id'),
      googleSubject: `google-${email}`,
      firstName: 'Jo',
      lastName: 'Mason',
    })
    await shop.deps.db.update(users).set({ role: 'staff' }).where(eq(users.email, email))
    const cookie = await signInWithGoogle(email)
    const res = await deleteAccount(cookie, { password: 'short-pw' })
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({
      error:
        "A staff account's password must be at least 12 characters long, and this one is shorter. Choose 'Forgot Password' to set a new one.",
      newPasswordNeeded: true,
    })
    expect((await whoAmI(shop, cookie)).status).toBe(200)
  })
})
