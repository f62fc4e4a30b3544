// The signed-in customer's own data: profile edits, preferences, and orders placed while signed in.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { createSession, getRates, HOME, type Items, rateFor } from '../checkout/helpers'
import { type Customer, signUp, uniqueEmail, whoAmI } from '../support/accounts'
import { createTestApp, type TestApp } from '../support/test-app'

// Argon2id is slow on purpose (about 0.2 s a hash on a busy machine), and these tests hash a lot.
setDefaultTimeout(60_000)

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
})
afterAll(() => shop.close())

function updateProfile(customer: Customer | null, body: unknown): Promise<Response> {
  return shop.call('PUT', '/api/auth/update-profile', body, customer ? { cookie: customer.cookie } : {})
}

async function me(customer: Customer) {
  return (await whoAmI(shop, customer.cookie)).json()
}

describe('profile', () => {
  test('personal information is saved; e-mail, role and unknown fields are ignored', async () => {
    const customer = await signUp(shop)
    const res = await updateProfile(customer, {
      firstName: '  Samuel ',
      lastName: 'Carpenter-Wright',
      phone: ' +1 (512) 555-0100 ',
      email: 'someone-else@example.com',
      role: 'staff',
      id: 'other-id',
      passwordHash: 'x',
      favouriteTool: 'chisel',
    })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.message).toBe('Changes saved successfully!')
    expect(body.user).toMatchObject({
      id: customer.id,
      email: customer.email,
      firstName: 'Samuel',
      lastName: 'Carpenter-Wright',
      phone: '+1 (512) 555-0100',
      role: 'customer',
    })
    expect(body.user).not.toHaveProperty('favouriteTool')
    expect(await me(customer)).toEqual(body.user)
  })

  test('the address is saved, normalised, and can be removed', async () => {
    const customer = await signUp(shop)
    const address = {
      street: '12 Workshop Lane',
      city: 'Austin',
      state: 'tx',
      zipCode: '73301',
      country: 'us',
    }
    const res = await updateProfile(customer, { address })
    expect(res.status).toBe(200)
    expect((await res.json()).user.address).toEqual({ ...address, state: 'TX', country: 'US' })
    // Saving the address leaves the personal information alone.
    expect((await me(customer)).firstName).toBe('Sam')

    const abroad = {
      street: '1 High St',
      city: 'Leeds',
      state: 'West Yorkshire',
      zipCode: 'LS1 1AA',
      country: 'GB',
    }
    expect((await (await updateProfile(customer, { address: abroad })).json()).user.address).toEqual(abroad)

    const removed = await updateProfile(customer, { address: null })
    expect((await removed.json()).user.address).toBeNull()
  })

  test('bad values are refused with a message naming the field', async () => {
    const customer = await signUp(shop)
    const address = {
      street: '12 Workshop Lane',
      city: 'Austin',
      state: 'TX',
      zipCode: '73301',
      country: 'US',
    }
    const cases: [unknown, number, string][] = [
      [{ firstName: '' }, 422, 'Please enter your first name.'],
      [{ lastName: '   ' }, 422, 'Please enter your last name.'],
      [{ firstName: 'x'.repeat(61) }, 422, 'First name must be at most 60 characters.'],
      [{ phone: 'call me maybe' }, 422, 'Please enter a phone number with digits, like (512) 555-0100.'],
      [{ phone: '1'.repeat(31) }, 422, 'Phone must be at most 30 characters.'],
      [
        { address: { ...address, zipCode: '7330' } },
        422,
        'Please enter a valid ZIP code, like 12345 or 12345-6789.',
      ],
      [{ address: { ...address, state: 'Texas' } }, 422, 'Choose a US state.'],
      [{ address: { ...address, street: '' } }, 422, 'Enter the street address.'],
      [{ address: { ...address, street: 'x'.repeat(101) } }, 422, 'Street must be at most 100 characters.'],
      [{ address: { ...address, country: 'USA' } }, 422, 'Choose the country.'],
      [{ address: { street: '12 Workshop Lane' } }, 422, 'City must be at most 60 characters.'],
      [{ address: { ...address, city: 'Austin\r\nBcc: x' } }, 422, 'Please check the address.'],
      [{}, 422, 'There is nothing to save.'],
      [{ email: 'new@example.com' }, 422, 'There is nothing to save.'],
    ]
    for (const [body, status, error] of cases) {
      const res = await updateProfile(customer, body)
      expect({ body, status: res.status, error: (await res.json()).error }).toEqual({ body, status, error })
    }
    expect(await me(customer)).toMatchObject({
      firstName: 'Sam',
      lastName: 'Carpenter',
      phone: '',
      address: null,
    })
  })

  test('preferences are stored', async () => {
    const customer = await signUp(shop)
    expect((await me(customer)).notifications).toEqual({ email: true, sms: false })
    const res = await shop.call('PUT', '/api/user/notifications', { sms: true }, { cookie: customer.cookie })
    expect(res.status).toBe(200)
    expect((await res.json()).user.notifications).toEqual({ email: true, sms: true })
    await shop.call('PUT', '/api/user/notifications', { email: false }, { cookie: customer.cookie })
    expect((await me(customer)).notifications).toEqual({ email: false, sms: true })
    const bad = await shop.call('PUT', '/api/user/notifications', { sms: 'yes' }, { cookie: customer.cookie })
    expect(bad.status).toBe(422)
  })

  test('every account call needs a session', async () => {
    for (const [method, path, body] of [
      ['PUT', '/api/auth/update-profile', { firstName: 'X' }],
      ['PUT', '/api/user/notifications', { sms: true }],
      ['GET', '/api/user/orders', undefined],
      ['GET', '/api/user/orders/000001', undefined],
    ] as const) {
      const res = await shop.call(method, path, body, { cookie: 'session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' })
      expect({ path, status: res.status }).toEqual({ path, status: 401 })
      expect(res.headers.get('cache-control')).toBe('no-store')
    }
  })
})

describe('orders', () => {
  /** Checks out through the real endpoints with the demo card, signed in as `customer` or as a guest. */
  async function buy(items: Items, customer: Customer | null, email: string): Promise<string> {
    const cookie: Record<string, string> = customer ? { cookie: customer.cookie } : {}
    const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
    const res = await shop.call(
      'POST',
      '/api/create-checkout-session',
      {
        line_items: items.map((item) => ({ product_id: item.id, quantity: item.quantity })),
        customer_email: email,
        shipping_address: HOME,
        shipping_rate: { id: rate.id },
        discount_code: null,
      },
      cookie,
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
    return (await paid.json()).orderNumber as string
  }

  test('history lists only the orders placed while signed in to this account, newest first', async () => {
    const dana = await signUp(shop, { email: uniqueEmail('dana') })
    const lee = await signUp(shop, { email: uniqueEmail('lee') })
    const first = await buy([{ id: 1, quantity: 2 }], dana, dana.email)
    shop.clock.advance(60_000)
    // A guest order with Dana's e-mail: not hers to see, since sign-up never proved she owns the address.
    await buy([{ id: 2, quantity: 1 }], null, dana.email)
    shop.clock.advance(60_000)
    const lees = await buy([{ id: 3, quantity: 1 }], lee, lee.email)
    shop.clock.advance(60_000)
    const second = await buy(
      [
        { id: 4, quantity: 3 },
        { id: 5, quantity: 1 },
      ],
      dana,
      'dana.work@example.com',
    )

    const res = await shop.call('GET', '/api/user/orders', undefined, { cookie: dana.cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const history = await res.json()
    expect(history.map((order: { number: string }) => order.number)).toEqual([second, first])
    expect(history[1]).toEqual({
      _id: String(Number(first)),
      number: first,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      status: 'pending',
      totalAmount: expect.any(Number),
      trackingNumber: null,
      refunded: 0,
      cancelledAt: null,
      items: [{ productName: 'Hammered Citrus', quantity: 2 }],
    })
    expect(history[1].totalAmount).toBeGreaterThanOrEqual(42)
    expect(history[0].items).toEqual([
      { productName: 'Workforce Repair Original Grit', quantity: 3 },
      { productName: 'The Brush & Comb Duo', quantity: 1 },
    ])

    const leeHistory = await (
      await shop.call('GET', '/api/user/orders', undefined, { cookie: lee.cookie })
    ).json()
    expect(leeHistory.map((order: { number: string }) => order.number)).toEqual([lees])

    const fresh = await signUp(shop)
    expect(
      await (await shop.call('GET', '/api/user/orders', undefined, { cookie: fresh.cookie })).json(),
    ).toEqual([])
  })

  test("an order's page shows its lines and totals; another customer's order is a 404", async () => {
    const dana = await signUp(shop)
    const lee = await signUp(shop)
    const number = await buy([{ id: 1, quantity: 2 }], dana, dana.email)
    await shop.runDueJobs()

    const res = await shop.call('GET', `/api/user/orders/${number}`, undefined, { cookie: dana.cookie })
    expect(res.status).toBe(200)
    const order = await res.json()
    expect(order).toMatchObject({
      number,
      status: 'label_created',
      trackingNumber: expect.any(String),
      items: [{ productName: 'Hammered Citrus', variant: null, quantity: 2, unitAmount: 21, lineTotal: 42 }],
      subtotal: 42,
      discount: 0,
      discountCode: null,
      shippingAddress: { name: HOME.name, street1: HOME.street1, city: HOME.city, state: 'CA', zip: '94107' },
    })
    expect(order.totalAmount).toBe(order.subtotal - order.discount + order.shipping)
    // The number works with or without its padding.
    expect(
      (await shop.call('GET', `/api/user/orders/${Number(number)}`, undefined, { cookie: dana.cookie }))
        .status,
    ).toBe(200)

    const stolen = await shop.call('GET', `/api/user/orders/${number}`, undefined, { cookie: lee.cookie })
    expect(stolen.status).toBe(404)
    expect(await stolen.json()).toEqual({ error: 'Order not found.' })
    const missing = await shop.call('GET', '/api/user/orders/999999', undefined, { cookie: dana.cookie })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: 'Order not found.' })
    for (const bad of ['abc', '-1', '1e3', '0x10', '0000000000042']) {
      const res = await shop.call('GET', `/api/user/orders/${bad}`, undefined, { cookie: dana.cookie })
      expect({ bad, status: res.status }).toEqual({ bad, status: 422 })
    }
  })

  test('an order made signed in carries the account even when checkout uses another e-mail', async () => {
    const customer = await signUp(shop)
    const rate = rateFor(await getRates(shop, [{ id: 2, quantity: 1 }]), 'USPS Ground Advantage')
    const guest = await createSession(shop, [{ id: 2, quantity: 1 }], rate)
    expect(guest.sessionId).toStartWith('cs_test_')
    const number = await buy([{ id: 2, quantity: 1 }], customer, 'gift-receipt@example.com')
    const history = await (
      await shop.call('GET', '/api/user/orders', undefined, { cookie: customer.cookie })
    ).json()
    expect(history.map((order: { number: string }) => order.number)).toEqual([number])
  })
})
