import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { adaptersFromConfig } from '../../../api/adapters'
import { createSmtpMailer } from '../../../api/adapters/mailer'
import { createOutboxMailer } from '../../../api/adapters/outbox'
import { readConfig } from '../../../api/env'
import { type SmtpSink, startSmtpSink } from '../../fakes/smtp-sink'

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
  const clock = { now: () => new Date() }
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
