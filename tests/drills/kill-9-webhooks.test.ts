// Fault drill: the real server is killed with SIGKILL while the provider's signed webhooks for many paid
// checkout sessions arrive, then started again, and the provider delivers every event once more. Each
// payment must end with exactly one order, one confirmation e-mail (through a real SMTP server) and one
// label, with every job finished. DRILL_PAYMENTS sets the count: 1,000 by default, about 40 s on a quiet
// two-core machine and under two minutes on a busy one.
//
// SMTP has no way to ask whether a message arrived, so an e-mail job killed between the mail server's
// acceptance and the shop's note of it is sent again after the restart: at most one resend per e-mail job
// the dead process held, each with the same Message-ID as the first, so the customer's mail client shows
// one message. Everything else is exactly once.
import { afterAll, expect, test } from 'bun:test'
import { type SmtpSink, startSmtpSink } from '../fakes/smtp-sink'
import { recordDrill } from './support/counts'
import {
  cleanUpShops,
  createShop,
  deliver,
  inParallel,
  orderNumbersIn,
  paidSessions,
  redeliverAll,
  shopCounts,
  waitFor,
} from './support/shop'
import { doubledIn, mailRecord, onceEach, tallyShop } from './support/tally'

const PAYMENTS = Number(process.env.DRILL_PAYMENTS ?? 1000)

let sink: SmtpSink | undefined
afterAll(async () => {
  cleanUpShops()
  await sink?.stop()
})

test(`kill -9 while webhooks for ${PAYMENTS} payments arrive: nothing lost, nothing doubled`, async () => {
  const started = performance.now()
  sink = await startSmtpSink()
  const shop = createShop('kill-9-webhooks', {
    SMTP_URL: sink.url,
    // A dead process's leases run out quickly, so the drill does not wait a minute for them.
    EVENT_LEASE_SECONDS: '5',
    JOB_LEASE_SECONDS: '5',
    JOB_RETRY_SECONDS: '1',
  })
  const doomed = await shop.start()
  const sessions = await paidSessions(shop, PAYMENTS, 'kill9')
  const payloads = sessions.map((session) => session.payload)

  // The provider delivers; the server dies partway through, mid-request for some.
  const killAt = Math.floor(PAYMENTS / 2)
  let answered = 0
  const outcomes = { ok: 0, failed: 0 }
  await inParallel(payloads, 16, async (payload) => {
    const status = await deliver(shop.base, payload)
    answered += 1
    if (answered === killAt) doomed.kill('SIGKILL')
    if (status === 200) outcomes.ok += 1
    else outcomes.failed += 1
  })
  await doomed.exited
  expect(doomed.signalCode).toBe('SIGKILL')
  const atKill = await shopCounts(shop)
  // E-mail jobs the dead process held: the only ones that may have reached the mail server unrecorded.
  const heldAtKill = Number(
    (
      await shop
        .db()
        .execute("select count(*) from jobs where status = 'running' and type = 'order-confirmation-email'")
    ).rows[0]?.[0],
  )
  expect(atKill.orders).toBeGreaterThan(0)
  expect(atKill.orders).toBeLessThan(PAYMENTS)

  // Started again; the provider delivers every event once more, waiting when told to.
  await shop.start()
  const redelivery = await redeliverAll(shop.base, payloads, { deadlineMs: 45_000 })
  expect(redelivery.undelivered).toBe(0)

  const finished = await waitFor(async () => {
    const counts = await shopCounts(shop)
    return counts.unfinishedJobs === 0 && sink !== undefined && sink.messages.length >= PAYMENTS
  }, 60_000)
  // A moment more, for anything that would arrive twice.
  await Bun.sleep(1500)
  const counts = await shopCounts(shop)
  const mailed = orderNumbersIn(sink.messages.map((mail) => mail.subject))
  const messageIds = sink.messages.map((mail) => /^message-id:\s*(<[^>]+>)/im.exec(mail.raw)?.[1] ?? 'none')
  const recipients = new Set(sink.messages.flatMap((mail) => mail.to))
  const resent = sink.messages.length - new Set(messageIds).size
  const lost = PAYMENTS - Math.min(counts.orders, counts.labelled, new Set(mailed).size)
  // A second charge, distinct e-mail or label for one payment, from the provider's, the mail server's and
  // the carrier's own records.
  const mails = sink.messages.map((mail) => mailRecord(mail.raw, mail.to))
  const tally = await tallyShop(shop.db(), shop.dir, sessions, mails)
  const doubled = doubledIn(tally)
  const line = `drill kill-9-webhooks: ${PAYMENTS} payments, ${counts.orders} orders, ${new Set(mailed).size} e-mails, ${counts.labelFiles} labels, lost ${lost}, doubled ${doubled} (killed after ${killAt} answers with ${atKill.orders} orders made and ${heldAtKill} e-mails in hand, ${resent} of them sent again with the same Message-ID; ${redelivery.rounds} redelivery rounds; ${Math.round((performance.now() - started) / 1000)} s)`
  console.log(line)
  recordDrill('kill-9-webhooks', line)

  expect(finished).toBe(true)
  expect(counts).toMatchObject({
    orders: PAYMENTS,
    doubledOrders: 0,
    labelled: PAYMENTS,
    failedOrders: 0,
    unfinishedJobs: 0,
    labelFiles: PAYMENTS,
  })
  expect(new Set(mailed).size).toBe(PAYMENTS)
  expect(new Set(messageIds).size).toBe(PAYMENTS)
  expect(resent).toBeLessThanOrEqual(heldAtKill)
  expect(recipients).toEqual(new Set(sessions.map((session) => session.email)))
  expect(lost).toBe(0)
  expect(doubled).toBe(0)
  expect(onceEach(tally)).toBe(PAYMENTS)
}, 240_000)
