// Fault drill: stock under kill -9. The real server (bun api/main.ts) holds 3 units of a product. It is
// killed with SIGKILL between holding a checkout's units and opening its payment session (stock-reserved),
// and again while a payment is finished (session-paid); each time it is restarted and the shopper presses
// again. Counted from the database at the end: every unit is either sold or on the shelf, none sold twice,
// none held by a dead request (docs/decisions/026-stock-reserved-at-checkout.md).

import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createClient } from '@libsql/client'
import { type Subprocess, spawn } from 'bun'
import type { CrashPoint } from '../../api/lib/crash-points'
import { whileBusy } from '../../api/lib/database-busy'
import { recordDrill } from './support/counts'

const ROOT = resolve(import.meta.dir, '../..')
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', name: 'Dana Cole' }
const HOME = {
  name: 'Dana Cole',
  street1: '12 Mill Rd',
  city: 'Columbus',
  state: 'OH',
  zip: '43215',
  country: 'US',
}
/** Workforce Repair Original Grit: no scents, $13.00, 2.6 oz. */
const REPAIR = 4
const UNITS = 3

const dirs: string[] = []
const servers: Subprocess[] = []
afterAll(() => {
  for (const server of servers) server.kill('SIGKILL')
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function startServer(dir: string, port: number, crashAt?: CrashPoint): Subprocess {
  const server = spawn([process.execPath, 'api/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      DATABASE_URL: `file:${join(dir, 'shop.db')}`,
      DATA_DIR: dir,
      DIST_DIR: join(dir, 'no-site'),
      FAULT_CRASH_AT: crashAt ?? '',
      SHUTDOWN_DRAIN_SECONDS: '0',
    },
    stdout: 'ignore',
    stderr: 'ignore',
  })
  servers.push(server)
  return server
}

async function waitForHealth(base: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return
    } catch {
      // not listening yet
    }
    await Bun.sleep(100)
  }
  throw new Error(`server at ${base} did not start`)
}

function call(base: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(body),
  })
}

/** A checkout request for `quantity` units, as the shipping page sends it (the same body again: a retry). */
async function checkoutBody(base: string, quantity: number, email: string) {
  const items = [{ id: REPAIR, quantity, name: 'Workforce Repair Original Grit', weight: '2.6' }]
  const subtotal = (13 * quantity).toFixed(2)
  const answer = (await (
    await call(base, '/api/shipping/rates', { address: HOME, items, subtotal })
  ).json()) as {
    rates: { id: string }[]
  }
  const rate = answer.rates[0]
  if (!rate) throw new Error('no rate')
  return {
    line_items: [{ product_id: REPAIR, quantity }],
    customer_email: email,
    shipping_address: HOME,
    shipping_rate: { id: rate.id },
  }
}

async function figures(dir: string) {
  const db = createClient({ url: `file:${join(dir, 'shop.db')}` })
  try {
    const shelf = await db.execute({
      sql: "select on_hand from stock_levels where product_id = ? and variant = ''",
      args: [REPAIR],
    })
    const held = await db.execute({
      sql: `select status, coalesce(sum(quantity), 0) as units from stock_reservations
            where product_id = ? group by status`,
      args: [REPAIR],
    })
    const sold = await db.execute({
      sql: 'select count(distinct order_id) as orders, coalesce(sum(quantity), 0) as units from order_lines where product_id = ?',
      args: [REPAIR],
    })
    const byStatus = Object.fromEntries(held.rows.map((row) => [String(row.status), Number(row.units)]))
    return {
      onHand: Number(shelf.rows[0]?.on_hand),
      reserved: byStatus.reserved ?? 0,
      soldHolds: byStatus.sold ?? 0,
      orders: Number(sold.rows[0]?.orders ?? 0),
      unitsInOrders: Number(sold.rows[0]?.units ?? 0),
    }
  } finally {
    db.close()
  }
}

async function restart(dir: string, port: number, crashAt?: CrashPoint) {
  const server = startServer(dir, port, crashAt)
  await waitForHealth(`http://localhost:${port}`)
  return server
}

test('kill -9 between holding the units and opening the session, and while paying: no unit lost or oversold', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'drill-stock-'))
  dirs.push(dir)
  const port = 4900 + Math.floor(Math.random() * 90)
  const base = `http://localhost:${port}`

  // A fresh shop (migrations applied at start), with 3 units on the shelf as staff set them.
  let server = await restart(dir, port, 'stock-reserved')
  const db = createClient({ url: `file:${join(dir, 'shop.db')}` })
  // Beside the running server: waits for its write lock, as another instance's write would.
  await whileBusy(() =>
    db.execute({
      sql: "insert into stock_levels (product_id, variant, on_hand, updated_at) values (?, '', ?, ?)",
      args: [REPAIR, UNITS, Date.now()],
    }),
  )
  db.close()

  // Dana's checkout for 2 holds them, and the process dies before the payment session opens.
  const dana = await checkoutBody(base, 2, 'dana@example.com')
  await expect(call(base, '/api/create-checkout-session', dana)).rejects.toThrow()
  await server.exited
  expect(server.signalCode).toBe('SIGKILL')
  expect(await figures(dir)).toMatchObject({ onHand: UNITS, reserved: 2, orders: 0 })

  // Restarted; Dana presses again: the same request takes its own hold over, it does not hold 2 more.
  server = await restart(dir, port, 'session-paid')
  const danaSession = await call(base, '/api/create-checkout-session', dana)
  expect(danaSession.status).toBe(200)
  const danaId = ((await danaSession.json()) as { sessionId: string }).sessionId
  expect((await figures(dir)).reserved).toBe(2)

  // Two more shoppers want 2 and 1: only 1 is left.
  const refused = await call(
    base,
    '/api/create-checkout-session',
    await checkoutBody(base, 2, 'eli@example.com'),
  )
  expect(refused.status).toBe(409)
  expect(((await refused.json()) as { error: string }).error).toBe(
    'Only 1 left of Workforce Repair Original Grit. Please lower the quantity in your cart.',
  )
  const fay = await call(base, '/api/create-checkout-session', await checkoutBody(base, 1, 'fay@example.com'))
  expect(fay.status).toBe(200)
  const fayId = ((await fay.json()) as { sessionId: string }).sessionId

  // Dana pays and the process dies while the payment is finished.
  await expect(call(base, `/api/demo-payments/${danaId}/pay`, CARD)).rejects.toThrow()
  await server.exited
  expect(server.signalCode).toBe('SIGKILL')

  // Restarted; Dana presses Pay again and Fay pays: each payment sells its units once.
  server = await restart(dir, port)
  expect((await call(base, `/api/demo-payments/${danaId}/pay`, CARD)).status).toBe(200)
  expect((await call(base, `/api/demo-payments/${danaId}/pay`, CARD)).status).toBe(409)
  expect((await call(base, `/api/demo-payments/${fayId}/pay`, CARD)).status).toBe(200)
  // Sold out now, for anyone.
  const late = await call(
    base,
    '/api/create-checkout-session',
    await checkoutBody(base, 1, 'gil@example.com'),
  )
  expect(late.status).toBe(409)

  const end = await figures(dir)
  const lost = UNITS - end.onHand - end.unitsInOrders
  const oversold = Math.max(0, end.unitsInOrders - UNITS)
  const line = `drill stock: ${UNITS} units, SIGKILL at stock-reserved and session-paid, restart, ${end.orders} orders for ${end.unitsInOrders} units, ${end.onHand} on the shelf, ${end.reserved} held, lost ${lost}, oversold ${oversold}`
  console.log(line)
  recordDrill('stock', line)
  expect(end).toEqual({ onHand: 0, reserved: 0, soldHolds: UNITS, orders: 2, unitsInOrders: UNITS })
  expect({ lost, oversold }).toEqual({ lost: 0, oversold: 0 })
  server.kill('SIGTERM')
  await server.exited
}, 60_000)
