// What the shop keeps outside its database of a deleted account (docs/decisions/018-account-data.md): the
// built-in carrier's label files of its minimised orders and the outbox's copies of their e-mails name the
// customer too, so the deletion forgets them as well: the label keeps its order, tracking number and void
// record, without the ship-to lines; the messages about those orders are gone, whatever address they went
// to, with the account's own mail; a guest's order mail at the same address, and others', stay.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { HOME } from '../checkout/helpers'
import { staffMember } from '../dashboard/helpers'
import { signUp } from '../support/accounts'
import { orderRow, paidOrder } from '../support/orders'
import { createTestApp, type TestApp } from '../support/test-app'

setDefaultTimeout(60_000)
let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
})
afterAll(() => shop.close())

/** The account deleted by its owner, with its password: 204. */
async function deleteAccountOf(customer: { cookie: string; password: string }) {
  const deleted = await shop.call(
    'DELETE',
    '/api/user',
    { password: customer.password },
    { cookie: customer.cookie },
  )
  expect(deleted.status).toBe(204)
}

/** An order's label bought and its parcel handed to the carrier, with the e-mails that go with them. */
async function shipped(orderId: number, staff: { cookie: string }) {
  await shop.runDueJobs()
  expect(
    (await shop.call('POST', `/api/orders/${orderId}/ship`, undefined, { cookie: staff.cookie })).status,
  ).toBe(200)
  await shop.runDueJobs()
}

/** The outbox's messages (their .eml text) that hold `text`. */
function outboxNaming(text: string): string[] {
  const dir = join(shop.deps.config.dataDir, 'outbox')
  return readdirSync(dir)
    .filter((name) => name.endsWith('.eml'))
    .filter((name) => readFileSync(join(dir, name), 'utf8').includes(text))
}

test("a deleted customer's label file loses the ship-to lines, and the outbox their messages", async () => {
  const staff = await staffMember(shop)
  const customer = await signUp(shop)
  const other = await signUp(shop)
  const id = await paidOrder(shop, {
    cookie: customer.cookie,
    name: 'Zelda Unforgotten',
    email: customer.email,
  })
  const kept = await paidOrder(shop, { cookie: other.cookie, name: 'Otto Staying', email: other.email })
  await shipped(id, staff) // the labels bought, the confirmations and the shipping e-mail written
  expect(outboxNaming('Zelda Unforgotten').length).toBeGreaterThan(0)

  await deleteAccountOf(customer)

  const row = await orderRow(shop, id)
  expect(row?.customerName).toBe('')
  const dir = join(shop.deps.config.dataDir, 'labels')
  const file = readdirSync(dir).find((name) => row?.uid && name.includes(row.uid) && name.endsWith('.pdf'))
  expect(file).toBeDefined()
  const pdf = readFileSync(join(dir, file as string), 'latin1')
  expect(pdf).not.toContain('Zelda Unforgotten')
  expect(pdf).not.toContain(HOME.street1)
  expect(pdf).toContain(row?.shippoTrackingNumber ?? 'no tracking number')
  expect(outboxNaming('Zelda Unforgotten')).toEqual([])
  expect(outboxNaming(customer.email)).toEqual([])

  // Another customer's label and e-mails are as they were.
  const otherRow = await orderRow(shop, kept)
  const otherFile = readdirSync(dir).find((name) => otherRow?.uid && name.includes(otherRow.uid))
  expect(readFileSync(join(dir, otherFile as string), 'latin1')).toContain('Otto Staying')
  expect(outboxNaming('Otto Staying').length).toBeGreaterThan(0)
})

test("an account's order placed under another address: its mail is forgotten too", async () => {
  const customer = await signUp(shop)
  const staff = await staffMember(shop)
  const typed = `typed-${crypto.randomUUID().slice(0, 8)}@example.com`
  const id = await paidOrder(shop, { cookie: customer.cookie, name: 'Olga Otheraddress', email: typed })
  await shipped(id, staff)
  expect(outboxNaming('Olga Otheraddress').length).toBeGreaterThan(0)
  await deleteAccountOf(customer)
  expect(outboxNaming('Olga Otheraddress')).toEqual([])
})

test("an account made with a guest's address, deleted, leaves the guest's order mail alone", async () => {
  const email = `guest-${crypto.randomUUID().slice(0, 8)}@example.com`
  await paidOrder(shop, { name: 'Gina Guest', email })
  await shop.runDueJobs()
  const before = outboxNaming('Gina Guest')
  expect(before.length).toBeGreaterThan(0)
  // Anyone may sign up with an address they do not own (decision 010): the guest's order is not theirs.
  const stranger = await signUp(shop, { email })
  await shop.runDueJobs()
  const accountMail = outboxNaming(email).filter((name) => !before.includes(name))
  expect(accountMail.length).toBeGreaterThan(0)
  await deleteAccountOf(stranger)
  expect(outboxNaming('Gina Guest')).toEqual(before)
  // The account's own mail to the address (its welcome or verification) is gone.
  expect(outboxNaming(email).filter((name) => !before.includes(name))).toEqual([])
})
