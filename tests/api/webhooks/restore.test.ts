// After a backup is restored, order numbers are used again. What was bought or sent for a lost order (its
// label at the carrier, its label file, its e-mails) must never be taken for the new order with its number.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { orderRow, paidOrder } from '../support/orders'
import { labelFileText, type RestoredShop, restoredShop } from '../support/restore'

let shop: RestoredShop
beforeAll(async () => {
  shop = await restoredShop()
})
afterAll(() => shop.close())

test("a new order with a lost order's number gets its own label, on Retry too, and its own Message-IDs", async () => {
  const { after, carrier, lost } = shop
  // The carrier refuses the new order's label until staff retry.
  carrier.state.failing = true
  const id = await paidOrder(after, { name: 'Nia New', email: 'nia.new@example.com' })
  expect(id).toBe(lost.id)
  for (let attempt = 0; attempt < 8; attempt++) {
    await after.runDueJobs()
    after.clock.advance(2 * 60 * 60 * 1000)
  }
  expect(await orderRow(after, id)).toMatchObject({ status: 'failed', shippoTrackingNumber: null })

  carrier.state.failing = false
  expect(await after.services.orders.retry(id)).toBe(true)
  await after.runDueJobs()
  const order = await orderRow(after, id)
  expect(order?.status).toBe('label_created')
  expect(order?.shippoTrackingNumber).not.toBe(lost.trackingNumber)
  expect(carrier.state.bought).toHaveLength(1)
  const label = labelFileText(after, order?.shippoTrackingNumber ?? '')
  expect(label).toContain('Nia New')
  expect(label).not.toContain('Lou Lost')

  // Shipped: its e-mails carry Message-IDs of their own, so no mail client takes them for the lost
  // order's messages (which it would show as one and the same).
  expect(await after.services.orders.markShipped(id, 'system')).toBe(true)
  await after.runDueJobs()
  const ids = shop.mail.sent
    .filter((message) => message.to === 'nia.new@example.com')
    .map((message) => message.messageId)
  expect(ids).toHaveLength(2)
  expect(lost.messageIds).toHaveLength(1)
  for (const messageId of ids) expect(lost.messageIds).not.toContain(messageId)
})
