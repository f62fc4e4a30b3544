// "Download my data" and "Delete account" for password accounts: what the export holds (and never holds),
// who may call, the password check and its limit, and what is left in the database after a deletion,
// queried table by table. Google accounts are in account-data-google.test.ts.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq, like, or, sql } from 'drizzle-orm'
import {
  checkoutSessions,
  discountRedemptions,
  newsletterSubscribers,
  orderLines,
  orders,
  passwordResetTokens,
  rateLimits,
  sessions,
  signInFailures,
  users,
} from '../../../db/schema'
import { getRates, HOME, type Items, rateFor } from '../checkout/helpers'
import {
  type Customer,
  cookieHeader,
  PASSWORD,
  setCookies,
  signIn,
  signUp,
  uniqueAddress,
  uniqueEmail,
  whoAmI,
} from '../support/accounts'
import { createTestApp, type TestApp } from '../support/test-app'

// Argon2id is slow on purpose (about 0.2 s a hash on a busy machine), and these tests hash a lot.
setDefaultTimeout(60_000)

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
})
afterAll(() => shop.close())

const STREET = '41 Quarry Hollow Rd'

function exportData(cookie: string | null, headers: Record<string, string> = {}): Promise<Response> {
  return shop.call('GET', '/api/user/export', undefined, { ...(cookie ? { cookie } : {}), ...headers })
}

function deleteAccount(
  customer: Customer | null,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  // Each from an address of its own: the per-account limit is what these tests meet, not the per-address one.
  return shop.call('DELETE', '/api/user', body, {
    ...(customer ? { cookie: customer.cookie } : {}),
    ...uniqueAddress(),
    ...headers,
  })
}

/** Checks out through the real endpoints with the demo card, signed in as `customer` or as a guest. */
async function buy(
  items: Items,
  customer: Customer | null,
  email: string,
  options: { discountCode?: string; name?: string } = {},
): Promise<number> {
  const address = { ...HOME, name: options.name ?? 'Dana Cole', street1: STREET }
  const rate = rateFor(await getRates(shop, items, address), 'USPS Ground Advantage')
  const res = await shop.call(
    'POST',
    '/api/create-checkout-session',
    {
      line_items: items.map((item) => ({ product_id: item.id, quantity: item.quantity })),
      customer_email: email,
      shipping_address: address,
      shipping_rate: { id: rate.id },
      discount_code: options.discountCode ?? null,
    },
    { ...(customer ? { cookie: customer.cookie } : {}), ...uniqueAddress() },
  )
  expect(res.status).toBe(200)
  const { sessionId } = (await res.json()) as { sessionId: string }
  const paid = await shop.call('POST', `/api/demo-payments/${sessionId}/pay`, {
    cardNumber: '4242424242424242',
    expiry: '12/30',
    cvc: '123',
    name: 'Dana Cole',
  })
  expect(paid.status).toBe(200)
  return Number((await paid.json()).orderNumber)
}

/** Buys the label and hands the parcel to the carrier, as the label job and staff would. */
async function ship(orderId: number): Promise<void> {
  await shop.runDueJobs()
  expect(await shop.services.orders.markShipped(orderId, 'staff-test')).toBe(true)
}

/** Opens a checkout session as the signed-in customer and leaves it unpaid; its id. */
async function openCheckout(customer: Customer): Promise<string> {
  const items = [{ id: 5, quantity: 1 }]
  const address = { ...HOME, street1: STREET }
  const rate = rateFor(await getRates(shop, items, address), 'USPS Ground Advantage')
  const res = await shop.call(
    'POST',
    '/api/create-checkout-session',
    {
      line_items: [{ product_id: 5, quantity: 1 }],
      customer_email: customer.email,
      shipping_address: address,
      shipping_rate: { id: rate.id },
      discount_code: null,
    },
    { cookie: customer.cookie, ...uniqueAddress() },
  )
  expect(res.status).toBe(200)
  return ((await res.json()) as { sessionId: string }).sessionId
}

/** A customer with a phone, a saved address and both preferences changed. */
async function fullProfile(fields: { email?: string } = {}): Promise<Customer> {
  const customer = await signUp(shop, { firstName: 'Dana', lastName: 'Quarrystone', ...fields })
  const saved = await shop.call(
    'PUT',
    '/api/auth/update-profile',
    {
      phone: '+1 (512) 555-0142',
      address: { street: STREET, city: 'Austin', state: 'TX', zipCode: '78701', country: 'US' },
    },
    { cookie: customer.cookie },
  )
  expect(saved.status).toBe(200)
  const prefs = await shop.call(
    'PUT',
    '/api/user/notifications',
    { email: false, sms: true },
    { cookie: customer.cookie },
  )
  expect(prefs.status).toBe(200)
  return customer
}

describe('GET /api/user/export', () => {
  test('an anonymous caller gets 401, and a browser that navigated there is sent to sign in', async () => {
    const res = await exportData(null)
    expect(res.status).toBe(401)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('content-disposition')).toBeNull()

    // The profile's plain link, followed after the session ended: the sign-in page, never raw JSON.
    const link = await exportData('session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', {
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
      'sec-fetch-site': 'same-origin',
    })
    expect(link.status).toBe(303)
    expect(link.headers.get('location')).toBe('/login?next=%2Fprofile')
    expect(link.headers.get('cache-control')).toBe('no-store')
  })

  test("the customer's own data as a JSON file: profile, address, preferences, orders with lines, newsletter", async () => {
    const dana = await fullProfile()
    const lee = await signUp(shop, { firstName: 'Lee', lastName: 'Other' })
    const mine = await buy([{ id: 1, quantity: 2 }], dana, dana.email)
    // A guest order with Dana's e-mail and someone else's order: neither is hers to download.
    await buy([{ id: 2, quantity: 1 }], null, dana.email, { name: 'Guest With Her Email' })
    await buy([{ id: 3, quantity: 1 }], lee, lee.email, { name: 'Lee Other' })
    const joined = await shop.call('POST', '/api/newsletter', { email: dana.email, source: 'footer' })
    expect(joined.status).toBe(200)

    const res = await exportData(dana.cookie)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('application/json')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="grit-and-whisker-my-data-2026-03-02.json"',
    )
    const text = await res.text()
    const data = JSON.parse(text)
    expect(data.exportedAt).toBe('2026-03-02T15:00:00.000Z')
    expect(data.profile).toEqual({
      email: dana.email,
      firstName: 'Dana',
      lastName: 'Quarrystone',
      phone: '+1 (512) 555-0142',
      photoURL: null,
      role: 'customer',
      signsInWith: { password: true, google: false },
      createdAt: '2026-03-02T15:00:00.000Z',
      updatedAt: '2026-03-02T15:00:00.000Z',
    })
    expect(data.address).toEqual({
      street: STREET,
      city: 'Austin',
      state: 'TX',
      zipCode: '78701',
      country: 'US',
    })
    expect(data.preferences).toEqual({ emailNotifications: false, smsUpdates: true })
    expect(data.orders).toHaveLength(1)
    const [order] = data.orders
    expect(order).toMatchObject({
      number: String(mine).padStart(6, '0'),
      status: 'pending',
      email: dana.email,
      currency: 'USD',
      discountCode: null,
      carrier: 'USPS',
      shippingService: 'USPS Ground Advantage',
      trackingNumber: null,
      shippingAddress: { ...HOME, name: 'Dana Cole', street1: STREET },
      billingAddress: { ...HOME, name: 'Dana Cole', street1: STREET },
    })
    expect(order.items).toHaveLength(1)
    expect(order.items[0]).toMatchObject({ productName: expect.any(String), quantity: 2 })
    expect(order.total).toBe(order.subtotal - order.discount + order.shipping)
    expect(order.items[0].lineTotal).toBe(order.items[0].unitPrice * 2)
    // Dana is not signed in with Google, so nothing proves the address is hers: whether it is on the
    // newsletter list is not shown to her (the newsletter itself never tells).
    expect(data.newsletter.shown).toBe(false)
    expect(data.newsletter.note).toContain('Google')
    expect(data.newsletter).not.toHaveProperty('source')

    for (const secret of ['argon2', 'Guest With Her Email', 'Lee Other', lee.email, '$argon']) {
      expect(text).not.toContain(secret)
    }
    expect(data.profile).not.toHaveProperty('passwordHash')
    expect(data.profile).not.toHaveProperty('id')
  })

  test('a request from another site is refused; a bookmark or typed address is fine', async () => {
    const customer = await signUp(shop)
    for (const site of ['cross-site', 'same-site']) {
      const res = await exportData(customer.cookie, { 'sec-fetch-site': site })
      expect(res.status).toBe(403)
      expect(await res.json()).toEqual({ error: 'This request must come from the shop itself.' })
    }
    expect((await exportData(customer.cookie, { 'sec-fetch-site': 'none' })).status).toBe(200)
    expect((await exportData(customer.cookie, { 'sec-fetch-site': 'same-origin' })).status).toBe(200)
  })
})

describe('DELETE /api/user with a password', () => {
  test('an anonymous caller gets 401; a request from another site is refused', async () => {
    expect((await deleteAccount(null, { password: PASSWORD })).status).toBe(401)
    const customer = await signUp(shop)
    const forged = await shop.call(
      'DELETE',
      '/api/user',
      { password: PASSWORD },
      { cookie: customer.cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    )
    expect(forged.status).toBe(403)
    expect((await whoAmI(shop, customer.cookie)).status).toBe(200)
  })

  test('a wrong password is 403 and a blank one 422, each with a message; nothing is deleted', async () => {
    const customer = await signUp(shop)
    const wrong = await deleteAccount(customer, { password: 'not-my-password' })
    expect(wrong.status).toBe(403)
    expect(await wrong.json()).toEqual({
      error: 'That password is not right, so your account was not deleted.',
      reauthenticate: 'password',
    })
    const blank = await deleteAccount(customer, { password: '' })
    expect(blank.status).toBe(422)
    expect(await blank.json()).toEqual({ error: 'Please enter your password to delete your account.' })
    const missing = await deleteAccount(customer, {})
    expect(missing.status).toBe(422)
    // A body cut off mid-way is unreadable (400), not read as a deletion without a password.
    const unreadable = await deleteAccount(customer, `{"password": "${customer.password}`)
    expect(unreadable.status).toBe(400)
    expect(await unreadable.json()).toEqual({ error: 'The request body is not valid JSON.' })
    expect((await whoAmI(shop, customer.cookie)).status).toBe(200)
  })

  test('guesses are limited like sign-in: 10 wrong passwords, then 429 with Retry-After even for the right one', async () => {
    const customer = await signUp(shop)
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await deleteAccount(customer, { password: `guess-${attempt}` })).status).toBe(403)
    }
    const locked = await deleteAccount(customer, { password: PASSWORD })
    expect(locked.status).toBe(429)
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await whoAmI(shop, customer.cookie)).status).toBe(200)
    // The same count as sign-in: the account's password sign-in is locked too.
    expect((await signIn(shop, customer.email, PASSWORD, uniqueAddress())).status).toBe(429)

    shop.clock.advance(10 * 60 * 1000 + 1000)
    expect((await deleteAccount(customer, { password: PASSWORD })).status).toBe(204)
  })

  test('an order not shipped yet keeps the account: 409 saying why, nothing deleted', async () => {
    const customer = await signUp(shop)
    const order = await buy([{ id: 1, quantity: 1 }], customer, customer.email)
    const res = await deleteAccount(customer, { password: PASSWORD })
    expect(res.status).toBe(409)
    expect((await res.json()).error).toBe(
      `Order #${String(order).padStart(6, '0')} has not shipped yet, and we need your address to send it. ` +
        'You can delete your account once it has shipped.',
    )
    expect((await whoAmI(shop, customer.cookie)).status).toBe(200)
  })

  test('the right password: 204, every session ended, personal data gone, orders kept minimised', async () => {
    const dana = await fullProfile()
    const other = await fullProfile()
    const elsewhere = await signIn(shop, dana.email, PASSWORD, uniqueAddress())
    expect(elsewhere.status).toBe(200)
    const secondBrowser = cookieHeader(elsewhere)

    // A checkout of hers abandoned two days ago (its payment can no longer complete), and one opened
    // just now, whose payment may still be under way.
    const abandoned = await openCheckout(dana)
    shop.clock.advance(48 * 60 * 60 * 1000)
    const first = await buy([{ id: 1, quantity: 2 }], dana, dana.email, { discountCode: 'GRIT15' })
    const second = await buy([{ id: 4, quantity: 1 }], dana, `${dana.email.split('@')[0]}+work@example.com`)
    const guest = await buy([{ id: 2, quantity: 1 }], null, dana.email, { name: 'Guest Dana' })
    const others = await buy([{ id: 3, quantity: 1 }], other, other.email)
    for (const id of [first, second, guest, others]) await ship(id)
    const underWay = await openCheckout(dana)

    // Rows tied to her e-mail and account: a newsletter sign-up, a reset link, a failed sign-in, a limit.
    await shop.call('POST', '/api/newsletter', { email: dana.email, source: 'footer' })
    await shop.call('POST', '/api/newsletter', { email: other.email, source: 'footer' })
    await shop.call('POST', '/api/auth/forgot-password', { email: dana.email }, uniqueAddress())
    await shop.runDueJobs()
    expect((await signIn(shop, dana.email, 'wrong-password', uniqueAddress())).status).toBe(401)
    const { db } = shop.deps
    expect(
      await db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, dana.id)),
    ).toHaveLength(1)

    const res = await deleteAccount(dana, { password: PASSWORD })
    expect(res.status).toBe(204)
    expect(await res.text()).toBe('')
    const cleared = setCookies(res)
    expect(cleared.get('session')?.attributes).toContain('Max-Age=0')
    expect(cleared.get('signed_in')?.attributes).toContain('Max-Age=0')

    // Signed out everywhere.
    expect((await whoAmI(shop, dana.cookie)).status).toBe(401)
    expect((await whoAmI(shop, secondBrowser)).status).toBe(401)

    // The account and everything tied to it.
    expect(await db.select().from(users).where(eq(users.id, dana.id))).toEqual([])
    expect(await db.select().from(users).where(eq(users.email, dana.email))).toEqual([])
    expect(await db.select().from(sessions).where(eq(sessions.userId, dana.id))).toEqual([])
    expect(
      await db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, dana.id)),
    ).toEqual([])
    expect(await db.select().from(signInFailures).where(eq(signInFailures.account, dana.email))).toEqual([])
    expect(
      await db
        .select()
        .from(rateLimits)
        .where(like(rateLimits.bucket, `%:${dana.id}`)),
    ).toEqual([])
    // The counters that protect her inbox stay until their windows end (decision 018): the reset link
    // asked for above is still counted against it.
    expect(
      (
        await db
          .select()
          .from(rateLimits)
          .where(like(rateLimits.bucket, `%:${dana.email}`))
      ).map((row) => row.bucket),
    ).toContain(`reset-request-email:${dana.email}`)
    expect(
      await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, dana.email)),
    ).toEqual([])
    // Her reset e-mail's job named her address.
    const jobsNamingHer = await db.all(sql`select id from jobs where payload like ${`%${dana.email}%`}`)
    expect(jobsNamingHer).toEqual([])

    // Her orders stay for the accounts, with who she is and where she lives minimised.
    const kept = await db
      .select()
      .from(orders)
      .where(or(eq(orders.id, first), eq(orders.id, second)))
    expect(kept).toHaveLength(2)
    for (const order of kept) {
      expect(order.userId).toBeNull()
      expect(order.email).toBe('')
      expect(order.customerKey).toBe('')
      expect(order.customerName).toBe('')
      expect(order.labelUrl).toBeNull()
      const minimised = { name: '', street1: '', city: '', state: 'CA', zip: '941', country: 'US' }
      expect(JSON.parse(order.shippingAddress)).toEqual(minimised)
      expect(JSON.parse(order.billingAddress)).toEqual(minimised)
      expect(order.status).toBe('shipped')
      expect(order.totalCents).toBeGreaterThan(0)
      expect(order.shippoTrackingNumber).not.toBeNull()
    }
    const [firstOrder] = kept.filter((order) => order.id === first)
    expect(firstOrder?.discountCode).toBe('GRIT15')
    expect(await db.select().from(orderLines).where(eq(orderLines.orderId, first))).toHaveLength(1)
    const redemptions = await db
      .select()
      .from(discountRedemptions)
      .where(eq(discountRedemptions.orderRef, String(first).padStart(6, '0')))
    expect(redemptions).toHaveLength(1)
    expect(redemptions[0]).toMatchObject({ email: '', customerKey: '', userId: null, code: 'GRIT15' })
    // Her checkout sessions: none is the account's any more. The paid ones and the abandoned one are
    // minimised like the orders; the one opened a moment ago keeps where it would ship, so a payment
    // still under way makes an order that can be sent (as a guest's would).
    expect(await db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, dana.id))).toEqual([])
    const minimisedSessions = await db
      .select()
      .from(checkoutSessions)
      .where(
        or(
          eq(checkoutSessions.orderId, first),
          eq(checkoutSessions.orderId, second),
          eq(checkoutSessions.id, abandoned),
        ),
      )
    expect(minimisedSessions).toHaveLength(3)
    for (const row of minimisedSessions) {
      expect(row.email).toBe('')
      expect(row.userId).toBeNull()
      expect(JSON.parse(row.shippingAddress)).toMatchObject({ name: '', street1: '', zip: '941' })
      expect(JSON.parse(row.billingAddress)).toMatchObject({ name: '', street1: '', zip: '941' })
    }
    const [open] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, underWay))
    expect(open).toMatchObject({ userId: null, email: dana.email, status: 'open' })
    expect(JSON.parse(open?.shippingAddress ?? '{}').street1).toBe(STREET)

    // Nothing else of the account's rows still holds her street or e-mail.
    const dump = JSON.stringify([kept, minimisedSessions])
    expect(dump).not.toContain(STREET)
    expect(dump).not.toContain(dana.email)
    expect(dump).not.toContain('Dana Cole')
    expect(dump).not.toContain('+work')

    // A guest order with her e-mail was never the account's: deleting an account cannot erase it.
    const [guestOrder] = await db.select().from(orders).where(eq(orders.id, guest))
    expect(guestOrder).toMatchObject({ email: dana.email, customerName: 'Guest Dana' })
    // Another customer is untouched.
    const [othersOrder] = await db.select().from(orders).where(eq(orders.id, others))
    expect(othersOrder).toMatchObject({ userId: other.id, email: other.email })
    expect(JSON.parse(othersOrder?.shippingAddress ?? '{}').street1).toBe(STREET)
    expect((await whoAmI(shop, other.cookie)).status).toBe(200)
    expect(
      await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, other.email)),
    ).toHaveLength(1)

    // Her password signs nobody in.
    expect((await signIn(shop, dana.email, PASSWORD, uniqueAddress())).status).toBe(401)
  })

  test('a shipping e-mail still waiting when the account is deleted is dropped, never retried until it fails', async () => {
    const customer = await signUp(shop)
    const order = await buy([{ id: 1, quantity: 1 }], customer, customer.email)
    await shop.runDueJobs()
    // Shipped a moment ago: its e-mail is queued, not sent yet.
    expect(await shop.services.orders.markShipped(order, 'staff-test')).toBe(true)
    expect((await deleteAccount(customer, { password: PASSWORD })).status).toBe(204)
    for (let round = 0; round < 10; round++) {
      await shop.runDueJobs()
      shop.clock.advance(2 * 60 * 60 * 1000)
    }
    const left = await shop.deps.db.all<{ type: string; status: string }>(
      sql`select type, status from jobs where payload = ${JSON.stringify({ orderId: order })}`,
    )
    expect(left.filter((job) => job.status !== 'done')).toEqual([])
  })

  test('the same e-mail can register again, and the new account sees none of the old orders', async () => {
    const email = uniqueEmail('again')
    const before = await signUp(shop, { email })
    const old = await buy([{ id: 1, quantity: 1 }], before, email)
    await ship(old)
    expect((await deleteAccount(before, { password: PASSWORD })).status).toBe(204)

    const after = await signUp(shop, { email, password: 'a-brand-new-password' })
    expect(after.id).not.toBe(before.id)
    const history = await shop.call('GET', '/api/user/orders', undefined, { cookie: after.cookie })
    expect(await history.json()).toEqual([])
    const page = await shop.call('GET', `/api/user/orders/${old}`, undefined, { cookie: after.cookie })
    expect(page.status).toBe(404)
    const data = await (await exportData(after.cookie)).json()
    expect(data.orders).toEqual([])
    expect(data.address).toBeNull()
    // The old session cookie stays dead.
    expect((await whoAmI(shop, before.cookie)).status).toBe(401)
  })

  test('both calls are in the OpenAPI document', async () => {
    const doc = (await (await shop.call('GET', '/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { requestBody?: unknown }>>
    }
    expect(doc.paths['/api/user/export']?.get).toBeDefined()
    expect(doc.paths['/api/user']?.delete?.requestBody).toBeDefined()
  })
})
