// Fault drill: the real server (bun api/main.ts) is killed with SIGKILL at each crash point of a staff
// Refund and of a Cancel (api/lib/crash-points.ts): after the provider made the refund and before the shop
// wrote it down; after the shop wrote it down and before its e-mail went. It is restarted, staff press the
// button again, the provider's events are redelivered: each run must end with exactly one refund at the
// provider, one e-mail, the right status, and the unit sold back on the shelf exactly once.

import { afterAll, describe, expect, test } from 'bun:test'
import { REFUND_CRASH_POINTS } from '../../api/lib/crash-points'
import { whileBusy } from '../../api/lib/database-busy'
import { recordDrill } from './support/counts'
import { cleanUpShops, createShop, HOME, post, type Shop, waitFor } from './support/shop'
import { outboxMails } from './support/tally'

afterAll(cleanUpShops)

const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', name: 'Dana Cole' }
const STAFF = { email: 'staff.drill@example.com', password: 'long-enough-staff-password' }
const ENV = { JOB_LEASE_SECONDS: '5', JOB_CONCURRENCY: '1' }
const SHELF = 5

/** One paid order through the shop and the demo provider's pay page, its confirmation and label done. */
async function paidOrder(shop: Shop): Promise<{ id: number; lineId: number }> {
  const items = [{ id: 1, quantity: 1, name: 'Hammered Citrus', weight: '3.0' }]
  const rates = (await (
    await post(shop.base, '/api/shipping/rates', { address: HOME, items, subtotal: '21.00' })
  ).json()) as { rates: { id: string }[] }
  const opened = await post(shop.base, '/api/create-checkout-session', {
    line_items: [{ product_id: 1, quantity: 1 }],
    customer_email: 'dana@example.com',
    shipping_address: HOME,
    shipping_rate: { id: rates.rates[0]?.id },
  })
  const { sessionId } = (await opened.json()) as { sessionId: string }
  expect((await post(shop.base, `/api/demo-payments/${sessionId}/pay`, CARD)).status).toBe(200)
  const db = shop.db()
  expect(await waitFor(async () => (await unfinishedJobs(shop)) === 0, 20_000)).toBe(true)
  const order = (
    await db.execute('select o.id, l.id as line_id from orders o join order_lines l on l.order_id = o.id')
  ).rows[0]
  return { id: Number(order?.id), lineId: Number(order?.line_id) }
}

async function unfinishedJobs(shop: Shop): Promise<number> {
  const rows = await shop.db().execute("select count(*) as n from jobs where status != 'done'")
  return Number(rows.rows[0]?.n ?? 0)
}

/** A staff member, as the staff command makes one (the role set in the database), signed in. */
async function staffCookie(shop: Shop): Promise<string> {
  const registered = await post(shop.base, '/auth/register', {
    firstName: 'Sid',
    lastName: 'Staff',
    ...STAFF,
  })
  expect(registered.status).toBe(200)
  // Beside the running server: waits for its write lock, as another instance's write would.
  await whileBusy(() =>
    shop.db().execute({ sql: "update users set role = 'staff' where email = ?", args: [STAFF.email] }),
  )
  const signedIn = await post(shop.base, '/api/auth/login', STAFF)
  expect(signedIn.status).toBe(200)
  return (signedIn.headers.getSetCookie() ?? []).map((cookie) => cookie.split(';')[0]).join('; ')
}

type Action = 'refund' | 'cancel'

function press(shop: Shop, action: Action, order: { id: number; lineId: number }, cookie: string) {
  return action === 'refund'
    ? post(
        shop.base,
        `/api/orders/${order.id}/refunds`,
        { lines: [{ lineId: order.lineId, quantity: 1 }], restock: true, reason: 'Returned' },
        { cookie, 'idempotency-key': `drill-${order.id}` },
      )
    : post(shop.base, `/api/orders/${order.id}/cancel`, { reason: 'Asked by phone' }, { cookie })
}

async function tally(shop: Shop, orderId: number) {
  const db = shop.db()
  const atProvider = await db.execute(
    "select count(*) as n from demo_payment_refunds where status = 'succeeded'",
  )
  const recorded = await db.execute({
    sql: "select status, restocked_at from order_refunds where order_id = ? and status != 'failed'",
    args: [orderId],
  })
  const order = await db.execute({ sql: 'select status from orders where id = ?', args: [orderId] })
  const shelf = await db.execute(
    "select on_hand from stock_levels where product_id = 1 and variant = 'Hammered Citrus'",
  )
  const mails = outboxMails(shop.dir).filter((mail) => /-(refund-rf_|cancelled@)/.test(mail.messageId))
  return {
    providerRefunds: Number(atProvider.rows[0]?.n ?? 0),
    recorded: recorded.rows.length,
    made: recorded.rows.filter((row) => row.status === 'succeeded').length,
    restocked: recorded.rows.filter((row) => row.restocked_at !== null).length,
    emails: mails.length,
    status: String(order.rows[0]?.status),
    onShelf: Number(shelf.rows[0]?.on_hand),
  }
}

describe('a kill at each crash point of a refund and a cancel doubles nothing', () => {
  for (const action of ['refund', 'cancel'] as const) {
    for (const point of REFUND_CRASH_POINTS) {
      test(`${action} killed at ${point}`, async () => {
        const shop = createShop(`${action}-${point}`, ENV)
        await shop.start()
        const cookie = await staffCookie(shop)
        // 5 units of the order's scent counted on the shelf: the order takes 1, its refund or cancel puts it back.
        const counted = await fetch(`${shop.base}/api/products/1/stock`, {
          method: 'PATCH',
          headers: {
            'content-type': 'application/json',
            origin: `http://localhost:${new URL(shop.base).port}`,
            cookie,
          },
          body: JSON.stringify({ variants: { 'Hammered Citrus': SHELF } }),
        })
        expect(counted.status).toBe(200)
        const order = await paidOrder(shop)
        shop.process?.kill('SIGTERM')
        await shop.process?.exited

        const doomed = await shop.start({ FAULT_CRASH_AT: point })
        // The request dies with the server, after the provider refunded (and, at refund-recorded, after
        // the shop wrote it down).
        await expect(press(shop, action, order, cookie)).rejects.toThrow()
        await doomed.exited
        expect(doomed.signalCode).toBe('SIGKILL')

        await shop.start()
        // Staff press the button again: the same refund (Idempotency-Key), or the order already cancelled.
        const again = await press(shop, action, order, cookie)
        expect(again.status).toBe(action === 'refund' ? 201 : 409)
        // The dead worker's refund job is taken over once its lease runs out; its e-mail goes.
        const settled = await waitFor(async () => {
          const now = await tally(shop, order.id)
          return now.made === 1 && now.emails === 1 && (await unfinishedJobs(shop)) === 0
        }, 30_000)
        const counts = await tally(shop, order.id)
        const line = `drill kill-9 ${action} at ${point}: SIGKILL, restart, pressed again, ${counts.providerRefunds} refunds at the provider, ${counts.recorded} recorded, ${counts.emails} e-mails, status ${counts.status}, restocked ${counts.restocked}, ${counts.onShelf} of ${SHELF} units on the shelf`
        console.log(line)
        recordDrill(`kill-9-${action}-${point}`, line)
        expect(settled).toBe(true)
        expect(counts).toEqual({
          providerRefunds: 1,
          recorded: 1,
          made: 1,
          // Restock is recorded on the refund (a cancel puts every unit back itself): once.
          restocked: action === 'refund' ? 1 : 0,
          // The one unit sold is back, once.
          onShelf: SHELF,
          emails: 1,
          // A refund of the order's one line leaves its shipping to refund: the order keeps its status.
          status: action === 'refund' ? 'label_created' : 'cancelled',
        })
        shop.process?.kill('SIGTERM')
        await shop.process?.exited
      }, 90_000)
    }
  }
})
