// With Shippo buying the labels (the real SDK against the local fake of its API), a failed purchase is
// retried from the dashboard and staff open the label at Shippo's https address through the app's route.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { createShippoShipping } from '../../../api/adapters/shippo'
import { type FakeShippo, startFakeShippo } from '../../fakes/shippo'
import type { Customer } from '../support/accounts'
import { memoryMailer, orderRow, paidOrder } from '../support/orders'
import { createTestApp, type TestApp } from '../support/test-app'
import { staffMember } from './helpers'

setDefaultTimeout(60_000)

let shippo: FakeShippo
let shop: TestApp
let staff: Customer
const mailer = memoryMailer()

beforeAll(async () => {
  shippo = startFakeShippo()
  shop = await createTestApp(
    { TRUST_PROXY: 'true' },
    { shipping: createShippoShipping({ apiKey: shippo.apiKey, serverURL: shippo.url }), mailer },
  )
  staff = await staffMember(shop)
})
afterAll(() => {
  shop.close()
  shippo.stop()
})

test('a label Shippo refused is retried from the dashboard; its label opens at Shippo', async () => {
  shippo.failLabels = 'Address not found'
  const id = await paidOrder(shop)
  for (let attempt = 0; attempt < 8 && (await orderRow(shop, id))?.status !== 'failed'; attempt++) {
    await shop.runDueJobs()
    shop.clock.advance(2 * 60 * 60 * 1000)
  }
  const failed = await (
    await shop.call('GET', `/api/orders/${id}`, undefined, { cookie: staff.cookie })
  ).json()
  expect(failed).toMatchObject({ status: 'failed', labelUrl: null })
  expect(failed.failureReason).toContain('Address not found')

  shippo.failLabels = null
  const bought = shippo.bought.length
  const retried = await shop.call('POST', `/api/orders/${id}/retry`, undefined, { cookie: staff.cookie })
  expect(retried.status).toBe(200)
  await shop.runDueJobs()
  expect(shippo.bought.length - bought).toBe(1)
  const row = await orderRow(shop, id)
  expect(row?.status).toBe('label_created')
  expect(row?.labelUrl).toStartWith('https://shippo-delivery.example/labels/')

  const label = await shop.call('GET', `/api/orders/${id}/label`, undefined, { cookie: staff.cookie })
  expect(label.status).toBe(302)
  expect(label.headers.get('location')).toBe(row?.labelUrl ?? 'missing')
  // Anyone else is refused before learning where the label is.
  const anonymous = await shop.call('GET', `/api/orders/${id}/label`)
  expect(anonymous.status).toBe(401)
  expect(anonymous.headers.get('location')).toBeNull()

  const shipped = await shop.call('POST', `/api/orders/${id}/ship`, undefined, { cookie: staff.cookie })
  expect(shipped.status).toBe(200)
  expect((await shipped.json()).order).toMatchObject({
    status: 'shipped',
    shippoTrackingNumber: row?.shippoTrackingNumber,
    labelUrl: `/api/orders/${id}/label`,
  })
  // The customer follows the parcel on the carrier's page that Shippo gave with the label.
  const tracking = `https://tools.usps.com/go/TrackConfirmAction_input?origTrackNum=${row?.shippoTrackingNumber}`
  expect(row?.trackingUrl).toBe(tracking)
  await shop.runDueJobs()
  const mail = mailer.sent.find((sent) => sent.subject.endsWith('has shipped'))
  expect(mail?.text).toContain(`Track it: ${tracking}`)
})
