// Attacks on who may see what: one customer reaching another's orders and address through any account
// route, and every staff route tried anonymously, as a customer, as staff, by path tricks and after the
// staff role was taken away.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import { STAFF_ONLY_MESSAGE } from '../../../api/modules/auth/guard'
import { jobs } from '../../../db/schema/jobs'
import { users } from '../../../db/schema/users'
import { getRates, HOME, payDemo, rateFor, sessionBody } from '../checkout/helpers'
import { labelledAndFailedOrders, staffMember } from '../dashboard/helpers'
import { type Customer, cookieHeader, signIn, signUp, uniqueAddress } from '../support/accounts'
import { paidOrder, switchableCarrier } from '../support/orders'
import { restoredShop } from '../support/restore'
import { createTestApp, type TestApp } from '../support/test-app'
import { attackCounter } from './tally'

setDefaultTimeout(60_000)

const attacks = attackCounter('identity-access')
let shop: TestApp
let carrier: ReturnType<typeof switchableCarrier>
let staff: Customer
let alice: Customer
let bob: Customer
let aliceOrder: number
let aliceSession: string
let orders: { labelled: number; failed: number; emailFailed: number }

/** What only Alice's answers may contain. */
const ALICE = {
  firstName: 'Alicia',
  lastName: 'Quarrystone',
  street: '77 Hidden Quarry Rd',
  phone: '555-0142',
}

beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' }, (base) => {
    carrier = switchableCarrier(base.shipping)
    return { shipping: carrier.provider }
  })
  staff = await staffMember(shop)
  alice = await signUp(shop, { firstName: ALICE.firstName, lastName: ALICE.lastName })
  bob = await signUp(shop, { firstName: 'Bob', lastName: 'Builder' })
  // A third order whose confirmation the mail server refused on every attempt, as the queue leaves it.
  const emailFailed = await paidOrder(shop)
  await shop.deps.db
    .update(jobs)
    .set({ status: 'failed', attempts: 8, lastError: '550 5.1.1 User unknown' })
    .where(
      and(
        eq(jobs.type, 'order-confirmation-email'),
        sql`json_extract(${jobs.payload}, '$.orderId') = ${emailFailed}`,
      ),
    )
  orders = { ...(await labelledAndFailedOrders(shop, carrier)), emailFailed }

  // Alice saves her address and orders while signed in.
  const saved = await shop.call(
    'PUT',
    '/api/auth/update-profile',
    {
      phone: ALICE.phone,
      address: { street: ALICE.street, city: 'Boulder', state: 'CO', zipCode: '80302', country: 'US' },
    },
    { cookie: alice.cookie },
  )
  expect(saved.status).toBe(200)
  const address = { ...HOME, name: `${ALICE.firstName} ${ALICE.lastName}`, street1: ALICE.street }
  const items = [{ id: 5, quantity: 1 }]
  const rate = rateFor(await getRates(shop, items, address), 'USPS Priority Mail')
  const opened = await shop.call(
    'POST',
    '/api/create-checkout-session',
    sessionBody(items, rate, {
      customer_email: alice.email,
      shipping_address: address,
      billing_address: address,
    }),
    { cookie: alice.cookie },
  )
  expect(opened.status).toBe(200)
  const { sessionId } = (await opened.json()) as { sessionId: string }
  aliceSession = sessionId
  const paid = await payDemo(shop, sessionId)
  expect(paid.status).toBe(200)
  aliceOrder = Number(((await paid.json()) as { orderNumber: string }).orderNumber)
})
afterAll(() => {
  shop.close()
  attacks.record()
})

function leaksAlice(text: string): string[] {
  return [alice.email, ALICE.lastName, ALICE.street, ALICE.phone].filter((secret) => text.includes(secret))
}

describe("one customer cannot reach another's orders or address", () => {
  test("Alice's own history shows her order (so the checks below could see it if it leaked)", async () => {
    const res = await shop.call('GET', '/api/user/orders', undefined, { cookie: alice.cookie })
    expect(res.status).toBe(200)
    expect(JSON.stringify(await res.json())).toContain('Brush')
    const detail = await shop.call('GET', `/api/user/orders/${aliceOrder}`, undefined, {
      cookie: alice.cookie,
    })
    expect(detail.status).toBe(200)
    const me = await shop.call('GET', '/api/auth/user', undefined, { cookie: alice.cookie })
    expect(leaksAlice(await me.text())).toEqual([alice.email, ALICE.lastName, ALICE.street, ALICE.phone])
  })

  test("every account route answered to Bob carries nothing of Alice's", async () => {
    const accountRoutes = shop.app.routes.filter(
      (route) => route.path.startsWith('/api/user/') || route.path.startsWith('/api/auth/'),
    )
    // Every GET, with Alice's order number wherever a route takes one.
    const gets = accountRoutes
      .filter((route) => route.method === 'GET')
      .map((route) => route.path.replace(':number', String(aliceOrder)))
    expect(gets).toEqual(
      expect.arrayContaining(['/api/auth/user', '/api/user/orders', `/api/user/orders/${aliceOrder}`]),
    )
    for (const path of gets) {
      attacks.tried()
      const res = await shop.call('GET', path, undefined, { cookie: bob.cookie })
      expect([path, leaksAlice(await res.text())]).toEqual([path, []])
    }
    // Her order is answered exactly like one that does not exist.
    attacks.tried(2)
    const hers = await shop.call('GET', `/api/user/orders/${aliceOrder}`, undefined, { cookie: bob.cookie })
    const none = await shop.call('GET', '/api/user/orders/999999', undefined, { cookie: bob.cookie })
    expect([hers.status, await hers.json()]).toEqual([none.status, await none.json()])
    expect(hers.status).toBe(404)
    // The padded number, a negative one and a path trick are no better.
    for (const path of [
      `/api/user/orders/${String(aliceOrder).padStart(6, '0')}`,
      '/api/user/orders/-1',
      `/api/user/orders/${aliceOrder}/../${aliceOrder}`,
    ]) {
      attacks.tried()
      const res = await shop.call('GET', path, undefined, { cookie: bob.cookie })
      expect([path, res.status === 200, leaksAlice(await res.text())]).toEqual([path, false, []])
    }
  })

  test('a paid session id, which /success shows in its address, reveals nothing personal to anyone', async () => {
    for (const path of [
      `/api/checkout/session/${aliceSession}/status`,
      `/api/demo-payments/${aliceSession}`,
    ]) {
      for (const cookie of [undefined, bob.cookie]) {
        attacks.tried()
        const res = await shop.call('GET', path, undefined, cookie ? { cookie } : {})
        expect(res.status).toBe(200)
        expect([path, leaksAlice(await res.text())]).toEqual([path, []])
      }
    }
  })

  test("the writing account routes only ever touch the caller's own account", async () => {
    const attempts: [string, string, unknown][] = [
      [
        'PUT',
        '/api/auth/update-profile',
        { id: alice.id, userId: alice.id, email: alice.email, firstName: 'Owned' },
      ],
      ['PUT', '/api/auth/update-profile', { user: { id: alice.id }, lastName: 'Owned' }],
      ['PUT', '/api/user/notifications', { userId: alice.id, email: false, sms: true }],
    ]
    for (const [method, path, body] of attempts) {
      attacks.tried()
      const res = await shop.call(method, path, body, { cookie: bob.cookie })
      expect(leaksAlice(await res.text())).toEqual([])
    }
    const [row] = await shop.deps.db.select().from(users).where(eq(users.id, alice.id))
    expect([row?.firstName, row?.lastName, row?.email]).toEqual([
      ALICE.firstName,
      ALICE.lastName,
      alice.email,
    ])
    const [bobRow] = await shop.deps.db.select().from(users).where(eq(users.id, bob.id))
    // Bob changed his own name, never his e-mail.
    expect(bobRow?.email).toBe(bob.email)
  })
})

/** Staff routes (docs/product.md#staff-calls): found in the app itself, so a route added later is covered too. */
const STAFF_PREFIXES = [
  '/api/dashboard',
  '/api/orders',
  '/api/products',
  '/api/webhooks',
  '/api/calculate-package',
]

function staffRoutes(): { method: string; path: string; body?: unknown }[] {
  return shop.app.routes
    .filter((route) => STAFF_PREFIXES.some((prefix) => route.path.startsWith(prefix)))
    .map((route) => {
      const id = route.path.endsWith('/emails/retry')
        ? orders.emailFailed
        : route.path.endsWith('/retry') || route.path.endsWith('/cancel')
          ? orders.failed // never shipped: it can be cancelled
          : orders.labelled
      const path = route.path.startsWith('/api/products/')
        ? route.path.replace(':id', '2')
        : route.path.replace(':id', String(id))
      const body = route.path.endsWith('/stock')
        ? { variants: { Unscented: 4 } }
        : route.method === 'PATCH'
          ? { weight: 2.8 }
          : route.path === '/api/calculate-package'
            ? { itemCount: 3 }
            : route.path.endsWith('/refunds')
              ? { amount: '1.00', restock: false }
              : undefined
      return { method: route.method, path, body }
    })
}

describe('the staff access matrix', () => {
  test('every staff route × anonymous / customer / staff answers 401 / 403 / 200', async () => {
    const routes = staffRoutes()
    expect(routes.map((route) => `${route.method} ${route.path.replace(/\d+/, 'n')}`)).toEqual(
      expect.arrayContaining([
        'GET /api/dashboard/stats',
        'GET /api/orders',
        'GET /api/orders/n',
        'GET /api/orders/n/label',
        'POST /api/orders/n/retry',
        'POST /api/orders/n/ship',
        'GET /api/orders/export.csv',
        'GET /api/dashboard/failed-emails',
        'POST /api/orders/n/emails/retry',
        'GET /api/products',
        'PATCH /api/products/n/weight',
        'PATCH /api/products/n/stock',
        'GET /api/webhooks',
        'POST /api/calculate-package',
        'POST /api/orders/n/refunds',
        'POST /api/orders/n/cancel',
        'GET /api/dashboard/failed-refunds',
      ]),
    )
    const matrix: string[] = []
    for (const { method, path, body } of routes) {
      attacks.tried(2)
      const anonymous = await shop.call(method, path, body)
      const customer = await shop.call(method, path, body, { cookie: bob.cookie })
      matrix.push(`${method} ${path}: ${anonymous.status} ${customer.status}`)
      expect(await customer.json()).toEqual({ error: STAFF_ONLY_MESSAGE })
    }
    expect(matrix).toEqual(routes.map(({ method, path }) => `${method} ${path}: 401 403`))
    // Staff last, once nothing above has changed anything.
    for (const { method, path, body } of routes) {
      const res = await shop.call(method, path, body, { cookie: staff.cookie })
      // A refund is made: 201, as every call that creates something answers.
      const made = method === 'POST' && path.endsWith('/refunds') ? 201 : 200
      expect([method, path, res.status]).toEqual([method, path, made])
    }
  })

  test('path and method tricks never reach staff data without staff access', async () => {
    const tricks = [
      '/api/orders/',
      '/api//orders',
      '/API/ORDERS',
      '/api/Orders',
      '/api/orders?limit=1000',
      '/api/orders%2F1',
      '/api/./orders',
      '/api/x/../orders',
      '/api/dashboard/stats/',
      '/api/dashboard/%73tats',
      '/api/dashboard/stats.json',
      `/api/orders/${orders.labelled}%00`,
      '/api/webhooks?limit=-1',
    ]
    for (const path of tricks) {
      for (const cookie of [undefined, bob.cookie]) {
        attacks.tried()
        const res = await shop.call('GET', path, undefined, cookie ? { cookie } : {})
        const text = await res.text()
        expect([
          path,
          res.status === 200,
          text.includes(orders.labelled.toString().padStart(6, '0')),
        ]).toEqual([path, false, false])
      }
    }
    for (const method of ['HEAD', 'OPTIONS']) {
      attacks.tried()
      const res = await shop.call(method, '/api/orders', undefined, { cookie: bob.cookie })
      expect([method, res.status >= 200 && res.status < 300]).toEqual([method, false])
    }
  })

  test('a staff member removed with the staff command is refused on the next request, in every browser', async () => {
    const leaving = await staffMember(shop)
    const secondBrowser = cookieHeader(await signIn(shop, leaving.email, leaving.password, uniqueAddress()))
    expect((await shop.call('GET', '/api/orders', undefined, { cookie: secondBrowser })).status).toBe(200)
    await shop.services.staff.remove(leaving.email)
    for (const cookie of [leaving.cookie, secondBrowser]) {
      attacks.tried()
      expect((await shop.call('GET', '/api/orders', undefined, { cookie })).status).toBe(401)
    }
  })

  test('a staff role taken away in the database is refused at once, on every staff route', async () => {
    const demoted = await staffMember(shop)
    expect(
      (await shop.call('GET', '/api/dashboard/stats', undefined, { cookie: demoted.cookie })).status,
    ).toBe(200)
    await shop.deps.db.update(users).set({ role: 'customer' }).where(eq(users.id, demoted.id))
    for (const { method, path, body } of staffRoutes()) {
      attacks.tried()
      const res = await shop.call(method, path, body, { cookie: demoted.cookie })
      expect([method, path, res.status]).toEqual([method, path, 403])
    }
  })
})

describe("a restored backup never hands a lost order's label to a new order", () => {
  test("the new order with the lost one's number: automatic retries, staff Retry and the label staff open are its own", async () => {
    const restored = await restoredShop()
    try {
      const { after, carrier, lost } = restored
      const member = await staffMember(after)
      carrier.state.failing = true
      const id = await paidOrder(after, { name: 'Nia New', email: 'nia.new@example.com' })
      expect(id).toBe(lost.id)
      for (let attempt = 0; attempt < 8; attempt++) {
        attacks.tried()
        await after.runDueJobs()
        after.clock.advance(2 * 60 * 60 * 1000)
      }
      carrier.state.failing = false
      attacks.tried(2)
      const retry = await after.call('POST', `/api/orders/${id}/retry`, undefined, { cookie: member.cookie })
      expect(retry.status).toBe(200)
      await after.runDueJobs()
      const label = await after.call('GET', `/api/orders/${id}/label`, undefined, { cookie: member.cookie })
      expect(label.status).toBe(200)
      const pdf = Buffer.from(await label.arrayBuffer()).toString('latin1')
      expect(pdf).toContain('Nia New')
      expect(pdf).not.toContain('Lou Lost')
      expect(pdf).not.toContain(lost.trackingNumber)
    } finally {
      restored.close()
    }
  })
})
