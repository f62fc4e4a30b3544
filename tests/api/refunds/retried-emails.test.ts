// Staff's Retry on Failed E-mails after the order moved on: an e-mail no longer true is not sent. A
// confirmation ("ships within 1–2 business days") after the order was cancelled, or a refund's e-mail
// ("we have refunded") after the provider failed that refund, would tell the customer something false, in
// the wrong order (docs/product.md#dashboard, Failed E-mails).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { orderRow, paidOrder } from '../support/orders'
import { createRefundShop, type RefundShop, refundRows } from './helpers'

setDefaultTimeout(60_000)
let s: RefundShop
/** Mailboxes the mail server refuses, every attempt, while listed. */
const refusing = new Set<string>()
beforeAll(async () => {
  s = await createRefundShop()
  const send = s.mailer.send.bind(s.mailer)
  s.mailer.send = async (message) => {
    if (refusing.has(message.to)) throw new Error('451 mail server busy')
    return send(message)
  }
})
afterAll(() => s.shop.close())

/** Every attempt a job has, two hours apart, with the provider's events delivered between them. */
async function runJobsForADay() {
  for (let i = 0; i < 12; i++) {
    await s.shop.runDueJobs()
    await s.events.deliver()
    s.shop.clock.advance(2 * 60 * 60 * 1000)
  }
}

const subjectsTo = (to: string) => s.mailer.sent.filter((m) => m.to === to).map((m) => m.subject)

async function retryEmails(id: number) {
  const retry = await s.asStaff('POST', `/api/orders/${id}/emails/retry`)
  expect(retry.status).toBe(200)
  await runJobsForADay()
}

/** A paid order refunded $5.00 while the mail server refused its customer: the refund's e-mail gave up. */
async function refundWhoseEmailFailed(email: string): Promise<number> {
  const id = await paidOrder(s.shop, { email })
  await runJobsForADay()
  refusing.add(email)
  const refund = await s.asStaff('POST', `/api/orders/${id}/refunds`, {
    amount: '5.00',
    restock: false,
    reason: 'scratched lid',
  })
  expect(refund.status).toBe(201)
  await runJobsForADay()
  return id
}

test("a confirmation retried after the order was cancelled is not sent; the cancellation's stands", async () => {
  const email = 'late.confirmation@example.com'
  refusing.add(email)
  const id = await paidOrder(s.shop, { email })
  await runJobsForADay()
  refusing.delete(email)
  expect((await s.asStaff('POST', `/api/orders/${id}/cancel`, { reason: 'out of stock' })).status).toBe(200)
  await runJobsForADay()
  expect((await orderRow(s.shop, id))?.status).toBe('cancelled')

  await retryEmails(id)
  expect(subjectsTo(email)).toEqual([`Your Grit & Whisker order ${String(id).padStart(6, '0')} is cancelled`])
})

test("a refund's e-mail retried after the provider failed that refund is not sent", async () => {
  const email = 'refund.mail@example.com'
  const id = await refundWhoseEmailFailed(email)
  const [row] = await refundRows(s.shop, id)
  await s.demo.failRefund(row?.providerRefundId ?? '', 'expired_or_canceled_card')
  await runJobsForADay()
  expect((await refundRows(s.shop, id))[0]?.status).toBe('failed')
  refusing.delete(email)

  await retryEmails(id)
  expect(subjectsTo(email).filter((subject) => subject.includes('refund for order'))).toEqual([])
})

test('a refund made, its e-mail retried: sent', async () => {
  const email = 'refund.kept@example.com'
  const id = await refundWhoseEmailFailed(email)
  refusing.delete(email)

  await retryEmails(id)
  expect(subjectsTo(email).filter((subject) => subject.includes('refund for order'))).toHaveLength(1)
})
