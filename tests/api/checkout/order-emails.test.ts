// The order e-mails as customers get them: the confirmation links a signed-in customer to the order's page,
// the shipping e-mail carries the carrier's tracking link, and both carry a Message-ID on the shop's own
// mail domain even while the shop answers on localhost.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { staffMember } from '../dashboard/helpers'
import { type Customer, signUp, uniqueEmail } from '../support/accounts'
import { memoryMailer, orderRow } from '../support/orders'
import { createTestApp, type TestApp } from '../support/test-app'
import { getRates, HOME, type Items, payDemo, rateFor } from './helpers'

setDefaultTimeout(60_000)

let shop: TestApp
let mailer: ReturnType<typeof memoryMailer>
let staff: Customer

beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' }, () => {
    mailer = memoryMailer()
    return { mailer }
  })
  staff = await staffMember(shop)
})
afterAll(() => shop.close())

/** A paid order, signed in as `customer` or as a guest; its padded number. */
async function buy(customer: Customer | null, items: Items = [{ id: 1, quantity: 1 }]): Promise<string> {
  const rate = rateFor(await getRates(shop, items), 'USPS Ground Advantage')
  const res = await shop.call(
    'POST',
    '/api/create-checkout-session',
    {
      line_items: items.map((item) => ({ product_id: item.id, quantity: item.quantity })),
      customer_email: customer?.email ?? uniqueEmail('guest'),
      shipping_address: HOME,
      shipping_rate: { id: rate.id },
      discount_code: null,
    },
    customer ? { cookie: customer.cookie } : {},
  )
  expect(res.status).toBe(200)
  const { sessionId } = (await res.json()) as { sessionId: string }
  const paid = await payDemo(shop, sessionId)
  expect(paid.status).toBe(200)
  await shop.runDueJobs()
  return (await paid.json()).orderNumber as string
}

const mailFor = (number: string, about: 'confirmation' | 'shipped') =>
  mailer.sent.find(
    (mail) =>
      // <order-000042-<the order's uid>-confirmation@…>: the number, the uid a restore never reuses, the kind.
      /^<order-\d{6}-[0-9a-f]{20}-(confirmation|shipped)@gritandwhisker\.example>$/.test(
        mail.messageId ?? '',
      ) &&
      mail.messageId?.startsWith(`<order-${number}-`) === true &&
      mail.messageId.endsWith(`-${about}@gritandwhisker.example>`) &&
      mail.subject.includes(number),
  )

describe('the confirmation', () => {
  test('links a signed-in customer to the order page, on the shop’s mail domain', async () => {
    expect(shop.deps.config.publicUrl).toStartWith('http://localhost')
    const dana = await signUp(shop, { email: uniqueEmail('dana') })
    const number = await buy(dana)
    const mail = mailFor(number, 'confirmation')
    const page = `${shop.deps.config.publicUrl}/account/orders?number=${number}`
    expect(mail?.text).toContain(`See your order any time: ${page}`)
    expect(mail?.html).toContain(`<a href="${page}">See your order</a>`)
    // The page shows that order to that customer.
    const order = await shop.call('GET', `/api/user/orders/${number}`, undefined, { cookie: dana.cookie })
    expect(order.status).toBe(200)
  })

  test('gives a guest no link to an account they do not have', async () => {
    const number = await buy(null)
    const mail = mailFor(number, 'confirmation')
    expect(mail).toBeDefined()
    expect(mail?.text).not.toContain('/account/orders')
  })
})

describe('the shipping e-mail', () => {
  test('carries the built-in carrier’s tracking link, kept with the order when its label was bought', async () => {
    const number = await buy(null)
    const id = Number(number)
    const row = await orderRow(shop, id)
    expect(row?.status).toBe('label_created')
    const tracking = row?.shippoTrackingNumber ?? 'missing'
    expect(row?.trackingUrl).toBe(`https://tools.usps.com/go/TrackConfirmAction?tLabels=${tracking}`)

    const shipped = await shop.call('POST', `/api/orders/${id}/ship`, undefined, { cookie: staff.cookie })
    expect(shipped.status).toBe(200)
    await shop.runDueJobs()
    const mail = mailFor(number, 'shipped')
    expect(mail?.text).toContain(`Tracking number: ${tracking}`)
    expect(mail?.text).toContain(`Track it: ${row?.trackingUrl}`)
    expect(mail?.html).toContain(`<a href="${row?.trackingUrl}">Track your parcel</a>`)
  })
})
