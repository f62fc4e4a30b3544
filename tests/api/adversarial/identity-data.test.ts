// Attacks on "Download my data" and "Delete account": reading or deleting someone else's account (forged
// and ended sessions, ids and e-mails in the request, another site's page), guessing the password that
// deletion asks for, hostile passwords, parallel deletions, and a stranger who registers a deleted
// customer's e-mail, or a customer's e-mail before they do, to see what is tied to it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { orders, users } from '../../../db/schema'
import { getRates, HOME, payDemo, rateFor, sessionBody } from '../checkout/helpers'
import {
  type Customer,
  cookieHeader,
  PASSWORD,
  signIn,
  signUp,
  uniqueAddress,
  uniqueEmail,
  whoAmI,
} from '../support/accounts'
import { createTestApp, ORIGIN, type TestApp } from '../support/test-app'
import { HOSTILE_STRINGS } from './fuzz-support'
import { attackCounter } from './tally'

setDefaultTimeout(120_000)

const attacks = attackCounter('identity-data')
let shop: TestApp
let victim: Customer
let attacker: Customer
let victimOrder: number

/** What only the victim's answers may contain. */
const VICTIM = { lastName: 'Stonewright', street: '9 Secret Kiln Ln', phone: '555-0199' }

beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
  victim = await signUp(shop, { firstName: 'Vera', lastName: VICTIM.lastName })
  attacker = await signUp(shop, { firstName: 'Mallory', lastName: 'Attacker' })
  const saved = await shop.call(
    'PUT',
    '/api/auth/update-profile',
    {
      phone: VICTIM.phone,
      address: { street: VICTIM.street, city: 'Denver', state: 'CO', zipCode: '80202', country: 'US' },
    },
    { cookie: victim.cookie },
  )
  expect(saved.status).toBe(200)
  const address = { ...HOME, name: `Vera ${VICTIM.lastName}`, street1: VICTIM.street }
  const items = [{ id: 2, quantity: 1 }]
  const rate = rateFor(await getRates(shop, items, address), 'USPS Priority Mail')
  const opened = await shop.call(
    'POST',
    '/api/create-checkout-session',
    sessionBody(items, rate, {
      customer_email: victim.email,
      shipping_address: address,
      billing_address: address,
    }),
    { cookie: victim.cookie },
  )
  expect(opened.status).toBe(200)
  const paid = await payDemo(shop, ((await opened.json()) as { sessionId: string }).sessionId)
  victimOrder = Number(((await paid.json()) as { orderNumber: string }).orderNumber)
  await shop.runDueJobs()
  expect(await shop.services.orders.markShipped(victimOrder, 'staff-test')).toBe(true)
})
afterAll(() => {
  shop.close()
  attacks.record()
})

function leaksVictim(text: string): string[] {
  return [victim.email, VICTIM.lastName, VICTIM.street, VICTIM.phone].filter((secret) =>
    text.includes(secret),
  )
}

async function victimStillThere(): Promise<void> {
  expect((await whoAmI(shop, victim.cookie)).status).toBe(200)
  expect(await shop.deps.db.select().from(users).where(eq(users.id, victim.id))).toHaveLength(1)
}

function exportAs(cookie: string | undefined, headers: Record<string, string> = {}, query = '') {
  return shop.call('GET', `/api/user/export${query}`, undefined, {
    ...(cookie ? { cookie } : {}),
    ...headers,
  })
}

describe('reading someone else’s data', () => {
  test("the victim's own export holds her data (so the checks below could see it if it leaked)", async () => {
    const res = await exportAs(victim.cookie)
    expect(leaksVictim(await res.text())).toEqual([
      victim.email,
      VICTIM.lastName,
      VICTIM.street,
      VICTIM.phone,
    ])
  })

  test('forged, altered and ended sessions get 401 and nothing of hers', async () => {
    const token = victim.cookie.match(/session=([a-z2-7]+)/)?.[1] ?? ''
    const forged = [
      'session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      `session=${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`,
      `session=${token.toUpperCase()}`,
      `session=${token}x`,
      `session=${victim.id}`,
      'signed_in=1',
      `session=${encodeURIComponent(`${token}; session=${token}`)}`,
      ...HOSTILE_STRINGS.slice(0, 10).map((value) => `session=${encodeURIComponent(value)}`),
    ]
    for (const cookie of forged) {
      attacks.tried()
      const res = await exportAs(cookie)
      expect([cookie, res.status, leaksVictim(await res.text())]).toEqual([cookie, 401, []])
    }
  })

  test("ids and e-mails in the query are ignored: the caller's own data only", async () => {
    for (const query of [
      `?userId=${victim.id}`,
      `?id=${victim.id}`,
      `?email=${encodeURIComponent(victim.email)}`,
      `?user=${victim.id}&user=${attacker.id}`,
    ]) {
      attacks.tried()
      const res = await exportAs(attacker.cookie, {}, query)
      const text = await res.text()
      expect([query, leaksVictim(text)]).toEqual([query, []])
      if (res.status === 200) expect(JSON.parse(text).profile.email).toBe(attacker.email)
    }
  })

  test("another site's page cannot load it, whatever it asks for", async () => {
    const cases: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' },
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
      { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' },
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
    ]
    for (const headers of cases) {
      attacks.tried()
      const res = await exportAs(victim.cookie, { ...headers, origin: 'https://evil.example' })
      expect(res.status).toBe(403)
      expect(leaksVictim(await res.text())).toEqual([])
    }
    // And every answer of it tells a browser not to sniff it into a script or keep it.
    attacks.tried()
    const own = await exportAs(victim.cookie)
    expect(own.headers.get('x-content-type-options')).toBe('nosniff')
    expect(own.headers.get('cache-control')).toBe('no-store')
    expect(own.headers.get('content-disposition')).toStartWith('attachment;')
  })
})

describe('deleting someone else’s account', () => {
  test('requests from another site, or of a kind the route does not read, delete nothing', async () => {
    const forged: { headers: Record<string, string>; body: string; type?: string }[] = [
      { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, body: '{}' },
      { headers: { origin: 'https://evil.example' }, body: '{}' },
      { headers: { origin: 'null' }, body: '{}' },
      { headers: { 'sec-fetch-site': 'same-site', origin: 'https://shop.evil.example' }, body: '{}' },
      { headers: {}, body: `{"password":"${PASSWORD}"}` },
      { headers: {}, body: `password=${PASSWORD}`, type: 'application/x-www-form-urlencoded' },
      { headers: {}, body: `{"password":"${PASSWORD}"}`, type: 'text/plain' },
    ]
    for (const { headers, body, type } of forged) {
      attacks.tried()
      const res = await shop.app.handle(
        new Request(`${ORIGIN}/api/user`, {
          method: 'DELETE',
          headers: { cookie: victim.cookie, 'content-type': type ?? 'application/json', ...headers },
          body,
        }),
      )
      // The last two come from the shop's origin but are not JSON: the route never reads them.
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(res.status).not.toBe(204)
    }
    await victimStillThere()
  })

  test("the attacker's own session with the victim's id, e-mail or password deletes nobody else", async () => {
    const mallory = await signUp(shop, { password: 'mallorys-own-password' })
    // The victim's password (the attacker may know it) is not the session's account's password.
    const bodies: unknown[] = [
      { password: PASSWORD, userId: victim.id },
      { password: PASSWORD, email: victim.email },
      { password: PASSWORD, id: victim.id, user: { id: victim.id } },
    ]
    for (const body of bodies) {
      attacks.tried()
      const res = await shop.call('DELETE', '/api/user', body, { cookie: mallory.cookie, ...uniqueAddress() })
      expect(res.status).toBe(403)
    }
    await victimStillThere()
    // With the attacker's own password, the victim's id in the body deletes the attacker, and only them.
    attacks.tried()
    const own = await shop.call(
      'DELETE',
      '/api/user',
      { password: 'mallorys-own-password', userId: victim.id, email: victim.email },
      { cookie: mallory.cookie, ...uniqueAddress() },
    )
    expect(own.status).toBe(204)
    expect(await shop.deps.db.select().from(users).where(eq(users.id, mallory.id))).toEqual([])
    await victimStillThere()
  })

  test('hostile passwords are refused cleanly, never a 5xx', async () => {
    const target = await signUp(shop)
    for (const password of [...HOSTILE_STRINGS, 'x'.repeat(201), 12345, null, true, ['a'], { $ne: '' }]) {
      attacks.tried()
      const res = await shop.call(
        'DELETE',
        '/api/user',
        { password },
        { cookie: target.cookie, ...uniqueAddress() },
      )
      expect([403, 422, 429]).toContain(res.status)
    }
    expect((await whoAmI(shop, target.cookie)).status).toBe(200)
  })

  test('guessing the password from many addresses stops at 10 for the account, then 429', async () => {
    const target = await signUp(shop)
    const statuses: number[] = []
    for (let guess = 0; guess < 14; guess++) {
      attacks.tried()
      const res = await shop.call(
        'DELETE',
        '/api/user',
        { password: `guess-${guess}` },
        { cookie: target.cookie, ...uniqueAddress() },
      )
      statuses.push(res.status)
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(403))
    expect(statuses.slice(10)).toEqual(Array(4).fill(429))
    // Parallel guesses cannot slip past the limit together either.
    const burst = await signUp(shop)
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        shop.call(
          'DELETE',
          '/api/user',
          { password: `burst-${index}` },
          { cookie: burst.cookie, ...uniqueAddress() },
        ),
      ),
    )
    attacks.tried(answers.length)
    expect(answers.filter((res) => res.status === 403).length).toBeLessThanOrEqual(10)
    expect((await whoAmI(shop, burst.cookie)).status).toBe(200)
  })
})

describe('after a deletion', () => {
  test('parallel deletions with the right password delete once, and no old cookie opens anything', async () => {
    const target = await signUp(shop)
    const second = cookieHeader(await signIn(shop, target.email, PASSWORD, uniqueAddress()))
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        shop.call(
          'DELETE',
          '/api/user',
          { password: PASSWORD },
          { cookie: target.cookie, ...uniqueAddress() },
        ),
      ),
    )
    attacks.tried(answers.length)
    expect(answers.every((res) => res.status === 204 || res.status === 401)).toBe(true)
    expect(answers.some((res) => res.status === 204)).toBe(true)
    expect(await shop.deps.db.select().from(users).where(eq(users.email, target.email))).toEqual([])
    for (const cookie of [target.cookie, second]) {
      for (const [method, path, body] of [
        ['GET', '/api/auth/user', undefined],
        ['GET', '/api/user/export', undefined],
        ['GET', '/api/user/orders', undefined],
        ['DELETE', '/api/user', { password: PASSWORD }],
        ['PUT', '/api/user/notifications', { sms: true }],
      ] as const) {
        attacks.tried()
        const res = await shop.call(method, path, body, { cookie })
        expect([path, res.status]).toEqual([path, 401])
      }
    }
  })

  test("whoever registers a deleted customer's e-mail sees none of her orders, address or name", async () => {
    const email = uniqueEmail('gone')
    const before = await signUp(shop, { email, lastName: VICTIM.lastName })
    const address = { ...HOME, name: `Gone ${VICTIM.lastName}`, street1: VICTIM.street }
    const items = [{ id: 1, quantity: 1 }]
    const rate = rateFor(await getRates(shop, items, address), 'USPS Priority Mail')
    const opened = await shop.call(
      'POST',
      '/api/create-checkout-session',
      sessionBody(items, rate, {
        customer_email: email,
        shipping_address: address,
        billing_address: address,
      }),
      { cookie: before.cookie },
    )
    const paid = await payDemo(shop, ((await opened.json()) as { sessionId: string }).sessionId)
    const number = Number(((await paid.json()) as { orderNumber: string }).orderNumber)
    await shop.runDueJobs()
    await shop.services.orders.markShipped(number, 'staff-test')
    expect(
      (await shop.call('DELETE', '/api/user', { password: PASSWORD }, { cookie: before.cookie })).status,
    ).toBe(204)

    const squatter = await signUp(shop, { email, firstName: 'Squat', lastName: 'Ter' })
    for (const path of [
      '/api/user/export',
      '/api/user/orders',
      `/api/user/orders/${number}`,
      '/api/auth/user',
    ]) {
      attacks.tried()
      const res = await shop.call('GET', path, undefined, { cookie: squatter.cookie })
      const text = await res.text()
      expect([path, text.includes(VICTIM.street), text.includes(VICTIM.lastName)]).toEqual([
        path,
        false,
        false,
      ])
    }
    // The order itself kept nothing that points back at her.
    const [kept] = await shop.deps.db.select().from(orders).where(eq(orders.id, number))
    expect(JSON.stringify(kept)).not.toContain(email)
  })

  test("registering someone's e-mail first does not tell whether it is on the newsletter list", async () => {
    const email = uniqueEmail('subscriber')
    await shop.call('POST', '/api/newsletter', { email, source: 'supply-drop' })
    const squatter = await signUp(shop, { email })
    attacks.tried()
    const text = await (await exportAs(squatter.cookie)).text()
    expect(JSON.parse(text).newsletter.shown).toBe(false)
    expect(text).not.toContain('supply-drop')
  })
})
