// Order e-mails the mail server refused for good show on the dashboard (GET /api/dashboard/failed-emails)
// with Retry (POST /api/orders/{id}/emails/retry): pressed any number of times, by anyone, each e-mail is
// queued once and sent once. Real mail through the SMTP adapter to a local SMTP server that refuses chosen
// recipients as a real one does (550).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import { jobs } from '../../../db/schema/jobs'
import { type SmtpSink, startSmtpSink } from '../../fakes/smtp-sink'
import { type Customer, signUp } from '../support/accounts'
import { paidOrder } from '../support/orders'
import { createTestApp, type TestApp } from '../support/test-app'
import { staffMember } from './helpers'

setDefaultTimeout(60_000)

const refusing = new Set<string>()
let smtp: SmtpSink
let shop: TestApp
let staff: Customer

beforeAll(async () => {
  smtp = await startSmtpSink({ rejectRecipients: (address) => refusing.has(address) })
  shop = await createTestApp({ TRUST_PROXY: 'true', SMTP_URL: smtp.url })
  staff = await staffMember(shop)
})
afterAll(async () => {
  shop.close()
  await smtp.stop()
})

function asStaff(method: string, path: string): Promise<Response> {
  return shop.call(method, path, undefined, { cookie: staff.cookie })
}

/** Runs the queue as the background loop would over the next day: every attempt of every job is used. */
async function runJobsForADay(): Promise<void> {
  for (let round = 0; round < 10; round++) {
    await shop.runDueJobs()
    shop.clock.advance(2 * 60 * 60 * 1000)
  }
}

/** A paid order whose customer's mailbox the mail server refuses, its confirmation given up. */
async function orderWithRefusedMail(email: string): Promise<number> {
  refusing.add(email)
  const id = await paidOrder(shop, { email, name: 'Dana Cole' })
  await runJobsForADay()
  return id
}

function orderEmailJobs(orderId: number) {
  return shop.deps.db
    .select()
    .from(jobs)
    .where(
      and(
        sql`json_extract(${jobs.payload}, '$.orderId') = ${orderId}`,
        sql`${jobs.type} like 'order-%-email'`,
      ),
    )
}

const delivered = (email: string) => smtp.messages.filter((message) => message.to.includes(email))

interface FailedEmailAnswer {
  id: number
  orderId: number | null
  number: string | null
  email: string
  customerName: string
  customerEmail: string
  error: string
  attempts: number
  failedAt: string
}

async function failedEmails(): Promise<FailedEmailAnswer[]> {
  const res = await asStaff('GET', '/api/dashboard/failed-emails')
  expect(res.status).toBe(200)
  return (await res.json()) as FailedEmailAnswer[]
}

describe('failed e-mails', () => {
  test('a confirmation refused on every attempt is listed with its order, customer and why', async () => {
    const email = 'refused.once@example.com'
    const id = await orderWithRefusedMail(email)
    const [job] = await orderEmailJobs(id)
    expect(job?.status).toBe('failed')
    const listed = (await failedEmails()).filter((entry) => entry.orderId === id)
    expect(listed).toEqual([
      {
        id: job?.id as number,
        orderId: id,
        number: String(id).padStart(6, '0'),
        email: 'Order confirmation',
        customerName: 'Dana Cole',
        customerEmail: email,
        error: expect.stringContaining('550'),
        attempts: 8,
        failedAt: expect.any(String),
      },
    ])
    // The error is the server's answer without the address in it (addresses are never logged or stored).
    expect(listed[0]?.error).not.toContain(email)
    expect(delivered(email)).toEqual([])
  })

  test('Retry pressed five times at once queues the e-mail once, and it is sent once', async () => {
    const email = 'pressed.five.times@example.com'
    const id = await orderWithRefusedMail(email)
    refusing.delete(email)
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => asStaff('POST', `/api/orders/${id}/emails/retry`)),
    )
    const bodies = await Promise.all(answers.map((res) => res.json()))
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200])
    const number = String(id).padStart(6, '0')
    expect(bodies.filter((body) => body.queued === 1)).toEqual([
      { message: `The order confirmation e-mail of order ${number} is queued to be sent again.`, queued: 1 },
    ])
    expect(bodies.filter((body) => body.queued === 0)).toEqual(
      Array.from({ length: 4 }, () => ({
        message: `The e-mails of order ${number} are already queued to be sent again.`,
        queued: 0,
      })),
    )
    // The same job, back in the queue with its attempts again: no second job.
    const queued = await orderEmailJobs(id)
    expect(queued.map((job) => [job.status, job.attempts, job.lastError])).toEqual([['queued', 0, null]])
    expect((await failedEmails()).some((entry) => entry.orderId === id)).toBe(false)

    await runJobsForADay()
    expect(delivered(email).map((message) => message.subject)).toEqual([
      `Your Grit & Whisker order ${number}`,
    ])
    expect((await orderEmailJobs(id)).map((job) => job.status)).toEqual(['done'])
    // Sent: nothing is left to retry.
    const again = await asStaff('POST', `/api/orders/${id}/emails/retry`)
    expect([again.status, await again.json()]).toEqual([
      409,
      { error: `Order ${number} has no failed e-mail to send again.` },
    ])
  })

  test('a shipping e-mail that fails too is listed beside it; one Retry queues both', async () => {
    const email = 'refused.twice@example.com'
    const id = await orderWithRefusedMail(email)
    const shipped = await asStaff('POST', `/api/orders/${id}/ship`)
    expect(shipped.status).toBe(200)
    await runJobsForADay()
    const listed = (await failedEmails()).filter((entry) => entry.orderId === id)
    // Newest failure first.
    expect(listed.map((entry) => entry.email)).toEqual(['Shipping confirmation', 'Order confirmation'])

    refusing.delete(email)
    const res = await asStaff('POST', `/api/orders/${id}/emails/retry`)
    expect([res.status, await res.json()]).toEqual([
      200,
      {
        message: `2 e-mails of order ${String(id).padStart(6, '0')} are queued to be sent again.`,
        queued: 2,
      },
    ])
    await runJobsForADay()
    expect(delivered(email)).toHaveLength(2)
  })

  test('an order whose e-mails went out has nothing to retry (409); an unknown order is a 404', async () => {
    const id = await paidOrder(shop, { email: 'fine@example.com' })
    await shop.runDueJobs()
    const res = await asStaff('POST', `/api/orders/${id}/emails/retry`)
    expect([res.status, await res.json()]).toEqual([
      409,
      { error: `Order ${String(id).padStart(6, '0')} has no failed e-mail to send again.` },
    ])
    for (const path of ['/api/orders/999999/emails/retry', '/api/orders/abc/emails/retry']) {
      const missing = await asStaff('POST', path)
      expect([path, missing.status, await missing.json()]).toEqual([path, 404, { error: 'Order not found.' }])
    }
  })

  test('only staff see or retry them: 401 for a visitor, 403 for a customer, and nothing is queued', async () => {
    const email = 'not.for.customers@example.com'
    const id = await orderWithRefusedMail(email)
    const customer = await signUp(shop)
    for (const [method, path] of [
      ['GET', '/api/dashboard/failed-emails'],
      ['POST', `/api/orders/${id}/emails/retry`],
    ] as const) {
      expect([path, (await shop.call(method, path)).status]).toEqual([path, 401])
      const refused = await shop.call(method, path, undefined, { cookie: customer.cookie })
      expect([path, refused.status]).toEqual([path, 403])
    }
    expect((await orderEmailJobs(id)).map((job) => job.status)).toEqual(['failed'])
    expect(
      await shop.deps.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.status, 'queued'), sql`json_extract(${jobs.payload}, '$.orderId') = ${id}`)),
    ).toEqual([])
  })
})
