// No secret and no personal data in any log line: everything the server prints while customers sign up,
// sign in, reset a password, check out and get paid (with the mail server refusing some addresses and a
// few webhooks forged) is captured and searched for passwords, tokens, e-mails, names, streets and the
// payment provider's secrets.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { setLogLevel } from '../../../api/lib/log'
import { type SmtpSink, startSmtpSink } from '../../fakes/smtp-sink'
import { type FakeStripe, startFakeStripe } from '../../fakes/stripe'
import { fakeStripePayments, getRates, HOME, postWebhook, rateFor, sessionBody } from '../checkout/helpers'
import { setCookies, signIn, signUp, uniqueAddress, uniqueEmail } from '../support/accounts'
import { requestLinesWritten } from '../support/log-lines'
import { createTestApp, type TestApp } from '../support/test-app'
import { attackCounter } from './tally'

setDefaultTimeout(60_000)

const attacks = attackCounter('headers-logs')
const WEBHOOK_SECRET = 'whsec_log_canary_webhook_secret'
/** Mailboxes the mail server does not know: it names them in its refusal. */
const REFUSED = 'refused-mailbox'

let shop: TestApp
let sink: SmtpSink
let stripe: FakeStripe

beforeAll(async () => {
  sink = await startSmtpSink({ rejectRecipients: (address) => address.includes(REFUSED) })
  stripe = startFakeStripe({ secretKey: 'sk_test_log_canary_secret_key' })
  shop = await createTestApp({ SMTP_URL: sink.url, TRUST_PROXY: 'true' }, (base) => ({
    payments: fakeStripePayments(stripe, base, {
      publishableKey: 'pk_test_log_canary',
      webhookSecret: WEBHOOK_SECRET,
    }),
  }))
})
afterAll(async () => {
  shop.close()
  stripe.stop()
  await sink.stop()
  attacks.record()
})

/** Everything printed through console or written to stdout/stderr while `run` runs. */
async function captureLogs(run: () => Promise<void>): Promise<string> {
  const lines: string[] = []
  const text = (args: unknown[]) =>
    args
      .map((arg) =>
        arg instanceof Error
          ? `${arg.message} ${arg.stack}`
          : typeof arg === 'string'
            ? arg
            : Bun.inspect(arg),
      )
      .join(' ')
  const originals = {
    log: console.log,
    info: console.info,
    warn: console.warn,
    error: console.error,
    debug: console.debug,
    trace: console.trace,
  }
  const writes = { out: process.stdout.write, err: process.stderr.write }
  for (const level of Object.keys(originals) as (keyof typeof originals)[]) {
    console[level] = (...args: unknown[]) => {
      lines.push(text(args))
    }
  }
  process.stdout.write = ((chunk: unknown) => {
    lines.push(String(chunk))
    return true
  }) as typeof process.stdout.write
  process.stderr.write = ((chunk: unknown) => {
    lines.push(String(chunk))
    return true
  }) as typeof process.stderr.write
  // The shop's JSON log at its most talkative: a line per request and every job message.
  setLogLevel('info')
  try {
    await run()
    await requestLinesWritten()
  } finally {
    setLogLevel('silent')
    Object.assign(console, originals)
    process.stdout.write = writes.out
    process.stderr.write = writes.err
  }
  return lines.join('\n')
}

/** The token of the `page` link (reset-password or verify-email) in a raw, quoted-printable message. */
function tokenIn(raw: string, page = 'reset-password'): string {
  const decoded = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
  const token = new RegExp(`${page}\\?token=([a-z2-7]{32})`).exec(decoded)?.[1]
  if (!token) throw new Error(`no ${page} link in the mail`)
  return token
}

test('sign-up, sign-in, reset, checkout and webhooks log no password, token, e-mail, name or secret', async () => {
  const secrets: Record<string, string> = {}
  const logs = await captureLogs(async () => {
    // Sign-up and sign-in, right and wrong, and a broken body carrying a password.
    secrets.password = 'canary-password-one'
    const customer = await signUp(shop, {
      firstName: 'Canaryfirst',
      lastName: 'Canarylast',
      password: secrets.password,
    })
    secrets.email = customer.email
    secrets.firstName = 'Canaryfirst'
    secrets.lastName = 'Canarylast'
    secrets.session = /session=([a-z2-7]{32})/.exec(customer.cookie)?.[1] ?? 'missing'
    secrets.wrongPassword = 'canary-wrong-password'
    attacks.tried(3)
    await signIn(shop, customer.email, secrets.wrongPassword, uniqueAddress())
    const signedIn = await signIn(shop, customer.email, secrets.password, uniqueAddress())
    secrets.secondSession = setCookies(signedIn).get('session')?.value ?? 'missing'
    secrets.brokenPassword = 'canary-broken-body-password'
    await shop.call(
      'POST',
      '/api/auth/login',
      `{"email":"${customer.email}","password":"${secrets.brokenPassword}"`,
      {
        'content-type': 'application/json',
      },
    )

    // Password reset, and a reset for an address the mail server refuses.
    await shop.call('POST', '/api/auth/forgot-password', { email: customer.email }, uniqueAddress())
    secrets.refusedEmail = uniqueEmail(REFUSED)
    await signUp(shop, { email: secrets.refusedEmail })
    await shop.call('POST', '/api/auth/forgot-password', { email: secrets.refusedEmail }, uniqueAddress())
    await shop.runDueJobs()
    const mails = sink.messages.filter((message) => message.to.includes(customer.email))
    const mail = mails.find((message) => message.subject === 'Reset your Grit & Whisker password')
    secrets.resetToken = tokenIn(mail?.raw ?? '')
    // The address confirmed with the link sign-up sent, used twice (the second is refused).
    const confirmation = mails.find(
      (message) => message.subject === 'Confirm your e-mail address for Grit & Whisker',
    )
    secrets.verificationToken = tokenIn(confirmation?.raw ?? '', 'verify-email')
    attacks.tried(2)
    for (let use = 0; use < 2; use++) {
      await shop.call(
        'POST',
        '/api/auth/verify-email',
        { token: secrets.verificationToken },
        { ...uniqueAddress(), cookie: customer.cookie },
      )
    }
    secrets.newPassword = 'canary-new-password'
    attacks.tried(2)
    await shop.call(
      'POST',
      '/api/auth/reset-password',
      { token: secrets.resetToken, password: secrets.newPassword },
      uniqueAddress(),
    )
    await shop.call(
      'POST',
      '/api/auth/reset-password',
      { token: secrets.resetToken, password: 'canary-replayed' },
      uniqueAddress(),
    )
    secrets.replayedPassword = 'canary-replayed'

    // A checkout whose confirmation e-mail the mail server refuses, paid through a signed webhook.
    secrets.buyerEmail = uniqueEmail(REFUSED)
    secrets.street = '404 Canary Street'
    secrets.buyerName = 'Canary Buyername'
    const address = { ...HOME, name: secrets.buyerName, street1: secrets.street }
    const items = [{ id: 2, quantity: 1 }]
    const rate = rateFor(await getRates(shop, items, address), 'USPS Priority Mail')
    const opened = await shop.call(
      'POST',
      '/api/create-checkout-session',
      sessionBody(items, rate, {
        customer_email: secrets.buyerEmail,
        shipping_address: address,
        billing_address: address,
      }),
      uniqueAddress(),
    )
    expect(opened.status).toBe(200)
    const { sessionId, url } = (await opened.json()) as { sessionId: string; url: string }
    secrets.clientSecret = new URL(url, 'http://shop').searchParams.get('client_secret') ?? 'missing'
    const paid = stripe.event('checkout.session.completed', stripe.complete(sessionId))
    expect((await postWebhook(shop, paid, WEBHOOK_SECRET)).status).toBe(200)
    // Forged and tampered webhooks: a wrong secret, and a signed one whose amount was changed.
    attacks.tried(2)
    await postWebhook(shop, paid, 'whsec_attacker_guess')
    const tampered = JSON.parse(stripe.event('checkout.session.completed', stripe.complete(sessionId))) as {
      data: { object: { amount_total: number } }
    }
    tampered.data.object.amount_total = 1
    await postWebhook(shop, JSON.stringify(tampered), WEBHOOK_SECRET)
    await shop.runDueJobs()
    // The demo provider's own card form: a paid card, a declined one and a malformed one.
    const demo = await createTestApp({ TRUST_PROXY: 'true' })
    try {
      secrets.demoBuyerEmail = uniqueEmail('democanary')
      const demoRate = rateFor(await getRates(demo, items, address), 'USPS Priority Mail')
      const demoOpened = await demo.call(
        'POST',
        '/api/create-checkout-session',
        sessionBody(items, demoRate, { customer_email: secrets.demoBuyerEmail, shipping_address: address }),
        uniqueAddress(),
      )
      const demoSession = ((await demoOpened.json()) as { sessionId: string }).sessionId
      secrets.declinedCard = '4000000000000002'
      secrets.malformedCard = '4242424242424241'
      secrets.cardName = 'Canary Cardholder'
      attacks.tried(3)
      for (const cardNumber of [secrets.declinedCard, secrets.malformedCard, '4242 4242 4242 4242']) {
        await demo.call(
          'POST',
          `/api/demo-payments/${demoSession}/pay`,
          { cardNumber, expiry: '12/30', cvc: '987', name: secrets.cardName },
          uniqueAddress(),
        )
      }
      await demo.runDueJobs()
    } finally {
      demo.close()
    }
    secrets.card = '4242 4242 4242 4242'
    secrets.cardDigits = '4242424242424242'
    secrets.webhookSecret = WEBHOOK_SECRET
    secrets.stripeKey = stripe.secretKey
  })

  // The run did log (mail written, jobs failing): the search below has something to search.
  // The log was written (a refused mailbox fails its job), so the checks below read something.
  expect(logs).toContain('"msg":"job failed"')
  expect(logs).toContain('"msg":"request"')
  expect(Object.keys(secrets)).toHaveLength(25)
  const lower = logs.toLowerCase()
  const leaks: string[] = []
  for (const [name, secret] of Object.entries(secrets)) {
    attacks.tried()
    expect(secret.length).toBeGreaterThan(5)
    const line = logs.split('\n').find((text) => text.toLowerCase().includes(secret.toLowerCase()))
    if (lower.includes(secret.toLowerCase())) leaks.push(`${name}: ${line}`)
  }
  expect(leaks).toEqual([])
})
