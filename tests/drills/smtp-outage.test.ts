// Fault drill: the mail server is down while orders are paid, and comes back. Orders are kept meanwhile,
// the confirmations go out once it answers again (JOB_RETRY_SECONDS keeps the backoff short here), and no
// customer gets one twice.
import { afterAll, expect, test } from 'bun:test'
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../fakes/smtp-sink'
import { recordDrill } from './support/counts'
import {
  cleanUpShops,
  createShop,
  orderNumbersIn,
  paidSessions,
  redeliverAll,
  shopCounts,
  waitFor,
} from './support/shop'

const PAYMENTS = 40

let sink: SmtpSink | undefined
afterAll(async () => {
  cleanUpShops()
  await sink?.stop()
})

test('the SMTP server down for a while: orders kept, e-mails sent once it returns, none twice', async () => {
  const mailbox: ReceivedMail[] = []
  sink = await startSmtpSink({ messages: mailbox })
  const port = Number(new URL(sink.url).port)
  const shop = createShop('smtp-outage', { SMTP_URL: sink.url, JOB_RETRY_SECONDS: '1' })
  await shop.start()
  const sessions = await paidSessions(shop, PAYMENTS, 'smtp')

  await sink.stop()
  sink = undefined
  const outageStarted = Date.now()
  const delivered = await redeliverAll(
    shop.base,
    sessions.map((session) => session.payload),
  )
  expect(delivered.undelivered).toBe(0)
  // The job runner tries, fails and backs off while the server is away.
  const tried = await waitFor(async () => {
    const failures = await shop
      .db()
      .execute("select count(*) from jobs where type = 'order-confirmation-email' and last_error is not null")
    return Number(failures.rows[0]?.[0]) >= PAYMENTS
  }, 20_000)
  expect(tried).toBe(true)
  const duringOutage = await shopCounts(shop)
  expect(duringOutage.orders).toBe(PAYMENTS)
  expect(mailbox).toHaveLength(0)
  const downFor = Date.now() - outageStarted

  sink = await startSmtpSink({ port, messages: mailbox })
  const sent = await waitFor(async () => mailbox.length >= PAYMENTS, 30_000)
  // Longer than the longest backoff so far: a second copy of any message would have arrived.
  await Bun.sleep(3000)
  const counts = await shopCounts(shop)
  const mailed = orderNumbersIn(mailbox.map((mail) => mail.subject))
  const lost = PAYMENTS - new Set(mailed).size
  const doubled = mailed.length - new Set(mailed).size
  const line = `drill smtp-outage: ${PAYMENTS} payments, ${counts.orders} orders, ${mailed.length} e-mails, mail server down ${(downFor / 1000).toFixed(1)} s, lost ${lost}, doubled ${doubled}`
  console.log(line)
  recordDrill('smtp-outage', line)

  expect(sent).toBe(true)
  expect(counts.orders).toBe(PAYMENTS)
  expect(new Set(mailbox.flatMap((mail) => mail.to))).toEqual(new Set(sessions.map((s) => s.email)))
  expect(lost).toBe(0)
  expect(doubled).toBe(0)
  const emailJobs = await shop
    .db()
    .execute("select status, count(*) as n from jobs where type = 'order-confirmation-email' group by status")
  expect(emailJobs.rows.map((row) => [row.status, Number(row.n)])).toEqual([['done', PAYMENTS]])
}, 90_000)
