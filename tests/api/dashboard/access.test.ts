// Every staff call answers 401 to anonymous callers and 403 to customers before it does anything, and
// works for staff; `npm run staff` adds and removes staff, and a removed staff member is shut out at once.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { STAFF_ONLY_MESSAGE } from '../../../api/modules/auth/guard'
import { users } from '../../../db/schema'
import { type Customer, cookieHeader, signIn, signUp, uniqueAddress, uniqueEmail } from '../support/accounts'
import { orderRow, switchableCarrier } from '../support/orders'
import { staffCommand as runStaffCommand } from '../support/staff-command'
import { createTestApp, type TestApp } from '../support/test-app'
import { labelledAndFailedOrders, STAFF_PASSWORD, staffMember } from './helpers'

// Argon2id hashing and the staff command's own process take a while on a busy machine.
setDefaultTimeout(60_000)

let shop: TestApp
let carrier: ReturnType<typeof switchableCarrier>
let staff: Customer
let customer: Customer
let labelled: number
let failed: number

beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' }, (base) => {
    carrier = switchableCarrier(base.shipping)
    return { shipping: carrier.provider }
  })
  staff = await staffMember(shop)
  customer = await signUp(shop)
  ;({ labelled, failed } = await labelledAndFailedOrders(shop, carrier))
})
afterAll(() => shop.close())

/** Every staff call, with a body where it takes one. Ids are filled in once the orders exist. */
function staffCalls(): [method: string, path: string, body?: unknown][] {
  return [
    ['GET', '/api/dashboard/stats'],
    ['GET', '/api/orders'],
    ['GET', '/api/orders?limit=5'],
    ['GET', '/api/orders?q=dana%40example.com&status=failed&from=2026-03-01&to=2026-03-02'],
    ['GET', '/api/orders/export.csv?q=dana'],
    ['GET', '/api/dashboard/failed-emails'],
    ['GET', `/api/orders/${labelled}`],
    ['GET', `/api/orders/${labelled}/label`],
    ['POST', `/api/orders/${failed}/retry`],
    ['POST', `/api/orders/${labelled}/ship`],
    ['GET', '/api/products'],
    ['PATCH', '/api/products/2/weight', { weight: 2.8 }],
    ['PATCH', '/api/products/4/stock', { stock: 7 }],
    ['PATCH', '/api/products/1/stock', { variants: { 'Cedar Shop': 3 } }],
    ['GET', '/api/webhooks'],
    ['POST', '/api/calculate-package', { itemCount: 3 }],
  ]
}

function call(method: string, path: string, body: unknown, cookie: string | null): Promise<Response> {
  return shop.call(method, path, body, cookie ? { cookie } : {})
}

describe('access', () => {
  test('anonymous callers get 401 and customers 403 on every staff call, and nothing happens', async () => {
    expect((await orderRow(shop, failed))?.status).toBe('failed')
    expect((await orderRow(shop, labelled))?.status).toBe('label_created')
    for (const [method, path, body] of staffCalls()) {
      const anonymous = await call(method, path, body, null)
      expect([path, anonymous.status]).toEqual([path, 401])
      expect(await anonymous.json()).toEqual({ error: 'Please sign in to continue.' })

      const refused = await call(method, path, body, customer.cookie)
      expect([path, refused.status]).toEqual([path, 403])
      expect(await refused.json()).toEqual({ error: STAFF_ONLY_MESSAGE })
    }
    // A forged or stale cookie is no better than none.
    const forged = await call('GET', '/api/orders', undefined, 'session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')
    expect(forged.status).toBe(401)
    await shop.runDueJobs()
    expect((await orderRow(shop, failed))?.status).toBe('failed')
    expect((await orderRow(shop, labelled))?.status).toBe('label_created')
    expect(carrier.state.bought).toHaveLength(1)
    const products = await shop.services.catalog.byId(2)
    expect(products?.weightTenthsOz).toBe(28)
    const stock = await shop.services.stock.snapshot()
    expect([stock.level(4, ''), stock.level(1, 'Cedar Shop')]).toEqual([null, null])
  })

  test('staff get an answer from every staff call', async () => {
    for (const [method, path, body] of staffCalls()) {
      const res = await call(method, path, body, staff.cookie)
      expect([method, path, res.status]).toEqual([method, path, 200])
      expect(res.headers.get('cache-control')).toContain('no-store')
    }
  })

  test('a customer signed in with a cookie of their own cannot become staff through the profile call', async () => {
    const res = await shop.call(
      'PUT',
      '/api/auth/update-profile',
      { firstName: 'Sneaky', role: 'staff' },
      { cookie: customer.cookie },
    )
    expect(res.status).toBe(200)
    expect((await call('GET', '/api/orders', undefined, customer.cookie)).status).toBe(403)
  })
})

/** Runs `npm run staff -- …` against this test's database. */
const staffCommand = (args: string[], env: Record<string, string> = {}) => runStaffCommand(shop, args, env)

/** The messages the outbox stand-in wrote to `email` (the shop's and the staff command's alike). */
function outboxFor(email: string): { to: string; subject: string; text: string }[] {
  const dir = join(shop.deps.config.dataDir, 'outbox')
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')))
    .filter((message) => message.to === email)
}

/** The owner of the account uses the link sign-up e-mailed, signed in. */
async function proveEmail(person: Customer) {
  await shop.runDueJobs()
  const token = outboxFor(person.email)
    .map((message) => /verify-email\?token=([a-z2-7]{32})/.exec(message.text)?.[1])
    .find(Boolean)
  const res = await shop.call(
    'POST',
    '/api/auth/verify-email',
    { token },
    {
      ...uniqueAddress(),
      cookie: person.cookie,
    },
  )
  expect(res.status).toBe(200)
}

describe('npm run staff', () => {
  test('add creates a staff account with STAFF_PASSWORD; list shows it; the password is never printed', async () => {
    const email = uniqueEmail('foreman')
    const added = await staffCommand(['add', email, '--name', 'Jo Mason'], { STAFF_PASSWORD })
    expect(added.code).toBe(0)
    expect(added.out).toContain(`Created ${email} as staff`)
    expect(added.out + added.err).not.toContain(STAFF_PASSWORD)

    const signedIn = await signIn(shop, email, STAFF_PASSWORD, uniqueAddress())
    expect(signedIn.status).toBe(200)
    expect((await signedIn.json()).user).toMatchObject({ role: 'staff', firstName: 'Jo', lastName: 'Mason' })
    const orders = await call('GET', '/api/orders', undefined, cookieHeader(signedIn))
    expect(orders.status).toBe(200)

    const listed = await staffCommand(['list'])
    expect(listed.code).toBe(0)
    expect(listed.out).toContain(email)
    expect(listed.out).not.toContain(customer.email)
  })

  test('add without a terminal or STAFF_PASSWORD refuses, and a short password is refused', async () => {
    const email = uniqueEmail('nopass')
    const noPassword = await staffCommand(['add', email])
    expect(noPassword.code).toBe(1)
    expect(noPassword.err).toContain('set STAFF_PASSWORD')
    const short = await staffCommand(['add', email], { STAFF_PASSWORD: 'short' })
    expect(short.code).toBe(1)
    expect(short.err).toContain('at least 12 characters')
    expect(await shop.services.accounts.findByEmail(email)).toBeNull()
    const bad = await staffCommand(['add', 'not-an-email'], { STAFF_PASSWORD })
    expect(bad.code).toBe(1)
  })

  test("add on a verified customer replaces the customer's password with a staff one and ends its sessions", async () => {
    const person = await signUp(shop)
    await proveEmail(person)
    expect((await call('GET', '/api/dashboard/stats', undefined, person.cookie)).status).toBe(403)
    const promoted = await staffCommand(['add', person.email], { STAFF_PASSWORD })
    expect(promoted.code).toBe(0)
    expect(promoted.out).toContain(
      `${person.email} is staff now. A customer's password may be shorter than a staff password must be, so its password was replaced with the one given and every session of the account has ended.`,
    )
    expect((await call('GET', '/api/dashboard/stats', undefined, person.cookie)).status).toBe(401)
    expect((await signIn(shop, person.email, person.password, uniqueAddress())).status).toBe(401)
    const staff = await signIn(shop, person.email, STAFF_PASSWORD, uniqueAddress())
    expect((await call('GET', '/api/dashboard/stats', undefined, cookieHeader(staff))).status).toBe(200)
  })

  test('add on a verified customer who signs in with Google only: their open session reaches the dashboard at once', async () => {
    const person = await signUp(shop)
    await proveEmail(person)
    // As a Google sign-in leaves it: no password, a Google identity.
    await shop.deps.db
      .update(users)
      .set({ passwordHash: null, googleSubject: `google-${person.id}` })
      .where(eq(users.id, person.id))
    const promoted = await staffCommand(['add', person.email])
    expect(promoted.code).toBe(0)
    expect(promoted.out).toContain(
      `${person.email} is staff now. Its e-mail is verified and it signs in with Google only, so its sign-in stays as it was.`,
    )
    expect((await call('GET', '/api/dashboard/stats', undefined, person.cookie)).status).toBe(200)
  })

  test('add on an unverified account ends its sessions and replaces its password with STAFF_PASSWORD', async () => {
    // Someone registered the owner's address before the owner ran the command, and stays signed in.
    const squatter = await signUp(shop)
    const otherBrowser = cookieHeader(await signIn(shop, squatter.email, squatter.password, uniqueAddress()))
    const added = await staffCommand(['add', squatter.email], { STAFF_PASSWORD })
    expect(added.code).toBe(0)
    expect(added.out).toContain(`${squatter.email} is staff now.`)
    expect(added.out).toContain(
      'Its e-mail was never verified, so its password was replaced with the one given and every session of the account has ended.',
    )
    expect(added.out + added.err).not.toContain(STAFF_PASSWORD)

    for (const cookie of [squatter.cookie, otherBrowser]) {
      expect((await call('GET', '/api/dashboard/stats', undefined, cookie)).status).toBe(401)
    }
    expect((await signIn(shop, squatter.email, squatter.password, uniqueAddress())).status).toBe(401)
    const owner = await signIn(shop, squatter.email, STAFF_PASSWORD, uniqueAddress())
    expect(owner.status).toBe(200)
    expect((await call('GET', '/api/dashboard/stats', undefined, cookieHeader(owner))).status).toBe(200)
  })

  test('add on an unverified account with no password given e-mails a link to set one', async () => {
    const squatter = await signUp(shop)
    const added = await staffCommand(['add', squatter.email])
    expect(added.code).toBe(0)
    expect(added.out).toContain(`${squatter.email} is staff now.`)
    expect(added.out).toContain(
      `Its e-mail was never verified, so its password was removed and every session of the account has ended. A link to set a new password was e-mailed to ${squatter.email}`,
    )
    expect((await call('GET', '/api/dashboard/stats', undefined, squatter.cookie)).status).toBe(401)
    // No password opens the account now: the squatter's is refused like any wrong one.
    const refused = await signIn(shop, squatter.email, squatter.password, uniqueAddress())
    expect(refused.status).toBe(401)
    expect(await refused.json()).toEqual({ error: 'The e-mail or password is incorrect.' })

    // The owner reads the link in their mailbox and sets a password: the address is proved by it.
    const [mail] = outboxFor(squatter.email).filter((message) => message.text.includes('/reset-password'))
    expect(mail?.subject).toBe('Set your Grit & Whisker staff password')
    const token = /reset-password\?token=([a-z2-7]{32})/.exec(mail?.text ?? '')?.[1]
    const set = await shop.call(
      'POST',
      '/api/auth/reset-password',
      { token, password: 'the-owners-own-password' },
      uniqueAddress(),
    )
    expect(set.status).toBe(200)
    const owner = await signIn(shop, squatter.email, 'the-owners-own-password', uniqueAddress())
    expect(owner.status).toBe(200)
    expect((await owner.json()).user).toMatchObject({ role: 'staff', emailVerified: true })
    expect((await call('GET', '/api/dashboard/stats', undefined, cookieHeader(owner))).status).toBe(200)
  })

  test('add again on an unverified staff account replaces its credentials too', async () => {
    const email = uniqueEmail('early')
    expect((await staffCommand(['add', email], { STAFF_PASSWORD })).code).toBe(0)
    const signedIn = cookieHeader(await signIn(shop, email, STAFF_PASSWORD, uniqueAddress()))
    const again = await staffCommand(['add', email], { STAFF_PASSWORD: 'another-long-staff-password' })
    expect(again.code).toBe(0)
    expect(again.out).toContain(`${email} was staff already.`)
    expect(again.out).toContain('its password was replaced with the one given')
    expect((await call('GET', '/api/orders', undefined, signedIn)).status).toBe(401)
    expect((await signIn(shop, email, 'another-long-staff-password', uniqueAddress())).status).toBe(200)
  })

  test('remove demotes and signs out everywhere: the next call is refused', async () => {
    const leaving = await staffMember(shop)
    const otherBrowser = await signIn(shop, leaving.email, STAFF_PASSWORD, uniqueAddress())
    expect((await call('GET', '/api/orders', undefined, leaving.cookie)).status).toBe(200)

    const removed = await staffCommand(['remove', leaving.email])
    expect(removed.code).toBe(0)
    expect(removed.out).toContain('is no longer staff')

    expect((await call('GET', '/api/orders', undefined, leaving.cookie)).status).toBe(401)
    expect((await call('GET', '/api/orders', undefined, cookieHeader(otherBrowser))).status).toBe(401)
    // Signing in again makes a customer session: still no dashboard.
    const back = await signIn(shop, leaving.email, STAFF_PASSWORD, uniqueAddress())
    expect((await call('GET', '/api/orders', undefined, cookieHeader(back))).status).toBe(403)
    expect((await staffCommand(['list'])).out).not.toContain(leaving.email)
  })

  test('remove of an unknown e-mail says so', async () => {
    const res = await staffCommand(['remove', uniqueEmail('nobody')])
    expect(res.code).toBe(1)
    expect(res.err).toContain('No account has the e-mail')
  })
})
