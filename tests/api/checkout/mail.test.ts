import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { adaptersFromConfig } from '../../../api/adapters'
import { createSmtpMailer } from '../../../api/adapters/mailer'
import { createOutboxMailer } from '../../../api/adapters/outbox'
import { UndeliverableMailError } from '../../../api/adapters/types'
import { readConfig } from '../../../api/env'
import { systemClock } from '../../../api/lib/clock'
import { jobs } from '../../../db/schema/jobs'
import { orders } from '../../../db/schema/orders'
import { type SmtpSink, startSmtpSink } from '../../fakes/smtp-sink'
import { createTestApp } from '../support/test-app'
import { createSession, getRates, rateFor } from './helpers'

const MESSAGE = {
  to: 'dana@example.com',
  subject: 'Your Grit & Whisker order 000007',
  text: 'Order number: 000007',
  html: '<p>Order number: <strong>000007</strong></p>',
}

let smtp: SmtpSink
beforeAll(async () => {
  smtp = await startSmtpSink()
})
afterAll(() => smtp.stop())

test('the SMTP adapter delivers through nodemailer', async () => {
  const mailer = createSmtpMailer({
    smtpUrl: smtp.url,
    from: 'Grit & Whisker <orders@gritandwhisker.example>',
  })
  await mailer.send(MESSAGE)
  expect(smtp.messages).toHaveLength(1)
  const [mail] = smtp.messages
  expect(mail?.from).toBe('orders@gritandwhisker.example')
  expect(mail?.to).toEqual(['dana@example.com'])
  expect(mail?.subject).toBe('Your Grit & Whisker order 000007')
  expect(mail?.raw).toContain('Order number: 000007')
  expect(mail?.raw).toContain('text/html')
})

test('the outbox writes an .eml and a .json per message and logs one line without the address', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'outbox-'))
  const lines: string[] = []
  try {
    const mailer = createOutboxMailer({
      dataDir: dir,
      from: 'Shop <shop@example.com>',
      log: (line) => lines.push(line),
    })
    await mailer.send(MESSAGE)
    const files = readdirSync(join(dir, 'outbox')).sort()
    expect(files.map((name) => name.split('.').pop())).toEqual(['eml', 'json'])
    const eml = readFileSync(join(dir, 'outbox', files[0] ?? ''), 'utf8')
    expect(eml).toContain('Subject: Your Grit & Whisker order 000007')
    expect(eml).toContain('To: dana@example.com')
    const json = JSON.parse(readFileSync(join(dir, 'outbox', files[1] ?? ''), 'utf8'))
    expect(json).toMatchObject({ ...MESSAGE, from: 'Shop <shop@example.com>' })
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('Your Grit & Whisker order 000007')
    expect(lines[0]).not.toContain('dana@example.com')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('configuration picks the real services only when their keys are set', async () => {
  const none = readConfig({ NODE_ENV: 'test', DATABASE_URL: 'file::memory:' })
  const stub = {} as Parameters<typeof adaptersFromConfig>[1]
  const clock = systemClock
  const builtIn = adaptersFromConfig(none, stub, clock)
  expect([builtIn.payments.name, builtIn.shipping.name, builtIn.mailer.name]).toEqual([
    'demo',
    'rate-table',
    'outbox',
  ])

  const all = readConfig({
    NODE_ENV: 'test',
    DATABASE_URL: 'file::memory:',
    STRIPE_SECRET_KEY: 'sk_test_abc',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
    STRIPE_WEBHOOK_SECRET: 'whsec_abc',
    SHIPPO_API_KEY: 'shippo_test_abc',
    SMTP_URL: smtp.url,
  })
  const real = adaptersFromConfig(all, stub, clock)
  expect([real.payments.name, real.shipping.name, real.mailer.name]).toEqual(['stripe', 'shippo', 'smtp'])
  expect(real.payments.publishableKey).toBe('pk_test_abc')
})

describe('a message with no valid recipient', () => {
  // What a confirmation to 'nul\u0000@example.com' would be: nodemailer drops the address and the
  // message goes nowhere, so both adapters must refuse it rather than report success.
  const nowhere = { ...MESSAGE, to: 'nul\u0000@example.com' }

  test('the outbox refuses it and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'))
    const lines: string[] = []
    try {
      const mailer = createOutboxMailer({
        dataDir: dir,
        from: 'Shop <shop@example.com>',
        log: (l) => lines.push(l),
      })
      await expect(mailer.send(nowhere)).rejects.toThrow(
        'Mail "Your Grit & Whisker order 000007" has no valid recipient: not sent',
      )
      await expect(mailer.send({ ...MESSAGE, to: '' })).rejects.toBeInstanceOf(UndeliverableMailError)
      expect(existsSync(join(dir, 'outbox'))).toBe(false)
      expect(lines).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('the SMTP adapter refuses it before talking to the server', async () => {
    const mailer = createSmtpMailer({ smtpUrl: smtp.url, from: 'Shop <shop@example.com>' })
    const before = smtp.messages.length
    await expect(mailer.send(nowhere)).rejects.toBeInstanceOf(UndeliverableMailError)
    expect(smtp.messages).toHaveLength(before)
  })

  test('the confirmation job of such an order fails loudly instead of being marked done', async () => {
    const shop = await createTestApp()
    try {
      const items = [{ id: 1, quantity: 1 }]
      const { sessionId } = await createSession(
        shop,
        items,
        rateFor(await getRates(shop, items), 'USPS Ground Advantage'),
      )
      const paid = await shop.call('POST', `/api/demo-payments/${sessionId}/pay`, {
        cardNumber: '4242 4242 4242 4242',
        expiry: '12/30',
        cvc: '123',
        name: 'Dana Cole',
      })
      expect(paid.status).toBe(200)
      // An address stored before the strict rule existed.
      await shop.deps.db
        .update(orders)
        .set({ email: 'nul\u0000@example.com' })
        .where(eq(orders.checkoutSessionId, sessionId))

      await shop.runDueJobs()
      const [job] = await shop.deps.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `order-confirmation:${sessionId}`))
      expect(job).toMatchObject({ status: 'queued', attempts: 1 })
      expect(job?.lastError).toMatch(/has no valid recipient: not sent$/)
      expect(existsSync(join(shop.deps.config.dataDir, 'outbox'))).toBe(false)
    } finally {
      shop.close()
    }
  })
})
