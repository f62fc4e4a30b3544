/**
 * The real server (`bun api/main.ts`) for the fault drills, started in a temporary folder with its own
 * database, and the provider's side of a payment: checkout sessions opened through the shop's API, paid at
 * the demo provider, and `checkout.session.completed` events signed with its webhook secret, as Stripe
 * signs them, for the drill to deliver and deliver again.
 */

import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Client } from '@libsql/client'
import { type Subprocess, spawn } from 'bun'
import Stripe from 'stripe'
import { DEMO_WEBHOOK_SECRET } from '../../../api/adapters/demo-payments'
import { whileBusy } from '../../../api/lib/database-busy'
import { databaseBeside } from '../../support/database-beside'

const ROOT = resolve(import.meta.dir, '../../..')

export const HOME = {
  name: 'Dana Cole',
  street1: '12 Mill Rd',
  city: 'Columbus',
  state: 'OH',
  zip: '43215',
  country: 'US',
}

const cleanup: (() => void)[] = []
/** Kills every server the drills started and removes their folders; call from afterAll. */
export function cleanUpShops(): void {
  for (const step of cleanup.splice(0)) step()
}

let nextPort = 5100 + Math.floor(Math.random() * 400)

export interface Shop {
  dir: string
  port: number
  base: string
  /** The running server process (null between a stop and the next start). */
  process: Subprocess | null
  /** Starts the server (again) on the same port, folder and database; resolves once /api/ready says so. */
  start(env?: Record<string, string>): Promise<Subprocess>
  /** Reads the shop's database from outside, as an operator would. */
  db(): Client
  /** Lines the server has written to standard output so far (its JSON log). */
  output: string[]
}

/**
 * A shop in a fresh folder. `env` is added to every start: drills set outside services (SMTP_URL …)
 * and short leases here. A client address per request (X-Forwarded-For, TRUST_PROXY=1) lets a drill
 * act as many shoppers without meeting the per-address rate limits.
 */
export function createShop(name: string, env: Record<string, string> = {}): Shop {
  const dir = mkdtempSync(join(tmpdir(), `drill-${name}-`))
  const port = nextPort++
  const base = `http://127.0.0.1:${port}`
  let client: Client | null = null
  const shop: Shop = {
    dir,
    port,
    base,
    process: null,
    output: [],
    async start(extra = {}) {
      const server = spawn([process.execPath, 'api/main.ts'], {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          PASSWORD_HASH: 'test',
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: `http://localhost:${port}`,
          DATABASE_URL: `file:${join(dir, 'shop.db')}`,
          DATA_DIR: dir,
          DIST_DIR: join(dir, 'no-site'),
          TRUST_PROXY: '1',
          LOG_LEVEL: 'warn',
          SHUTDOWN_DRAIN_SECONDS: '1',
          FAULT_CRASH_AT: '',
          ...env,
          ...extra,
        },
        stdout: 'pipe',
        stderr: 'pipe',
      })
      shop.process = server
      void collect(server.stdout, shop.output)
      void collect(server.stderr, shop.output)
      await waitForReady(base, server)
      return server
    },
    db() {
      client ??= databaseBeside(join(dir, 'shop.db'))
      return client
    },
  }
  cleanup.push(() => {
    shop.process?.kill('SIGKILL')
    client?.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return shop
}

async function collect(stream: ReadableStream<Uint8Array>, into: string[]): Promise<void> {
  const decoder = new TextDecoder()
  let pending = ''
  for await (const chunk of stream) {
    pending += decoder.decode(chunk, { stream: true })
    const lines = pending.split('\n')
    pending = lines.pop() ?? ''
    into.push(...lines)
    if (process.env.DRILL_LOG) appendFileSync(process.env.DRILL_LOG, `${lines.join('\n')}\n`)
  }
}

export async function waitForReady(base: string, server?: Subprocess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (server?.exitCode !== null && server?.exitCode !== undefined) {
      throw new Error(`server at ${base} exited with ${server.exitCode} before it was ready`)
    }
    try {
      if ((await fetch(`${base}/api/ready`)).ok) return
    } catch {
      // not listening yet
    }
    await Bun.sleep(100)
  }
  throw new Error(`server at ${base} did not become ready`)
}

let shopper = 0
/** A new client address, as another shopper would have. */
export function shopperAddress(): string {
  shopper += 1
  return `10.${(shopper >>> 16) & 255}.${(shopper >>> 8) & 255}.${shopper & 255}`
}

export async function post(
  base: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: `http://localhost:${new URL(base).port}`,
      'x-forwarded-for': shopperAddress(),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

/** Runs `work` over `items`, `concurrency` at a time. */
export async function inParallel<T>(
  items: T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++
        await work(items[index] as T, index)
      }
    }),
  )
}

export interface PaidSession {
  sessionId: string
  email: string
  amountTotal: number
  /** The signed `checkout.session.completed` event the provider delivers (and delivers again). */
  payload: string
}

/** A shipping quote for one beard oil to HOME: its rate id. */
async function quote(base: string): Promise<string> {
  const items = [{ id: 1, quantity: 1, name: 'Beard oil', weight: '3.0' }]
  const res = await post(base, '/api/shipping/rates', { address: HOME, items, subtotal: '21.00' })
  const rates = (await res.json()) as { rates?: { id: string }[] }
  const rate = rates.rates?.[0]
  if (!rate) throw new Error(`no shipping rate: ${res.status}`)
  return rate.id
}

/** Opens one checkout session through the shop's API; its id, or the failed answer's status. */
export async function openSession(
  base: string,
  rateId: string,
  email: string,
): Promise<{ sessionId: string } | { status: number }> {
  const res = await post(base, '/api/create-checkout-session', {
    line_items: [{ product_id: 1, quantity: 1 }],
    customer_email: email,
    shipping_address: HOME,
    shipping_rate: { id: rateId },
  })
  if (res.status !== 200) return { status: res.status }
  return { sessionId: ((await res.json()) as { sessionId: string }).sessionId }
}

/**
 * `count` checkout sessions opened through the shop, then paid at the provider: the demo provider's rows
 * are marked paid directly, as Stripe's are when a customer pays, and each gets its signed event.
 */
export async function paidSessions(shop: Shop, count: number, tag: string): Promise<PaidSession[]> {
  const rateId = await quote(shop.base)
  const opened: { sessionId: string; email: string }[] = []
  await inParallel(
    Array.from({ length: count }, (_, i) => i),
    8,
    async (i) => {
      const email = `${tag}.${i}@example.com`
      const result = await openSession(shop.base, rateId, email)
      if (!('sessionId' in result)) throw new Error(`session ${i} not opened: ${result.status}`)
      opened.push({ sessionId: result.sessionId, email })
    },
  )
  const db = shop.db()
  // The running server may hold the write lock (its job runner, a turn's writes committed together): this
  // write waits for it, as another instance's would, instead of failing at once.
  await whileBusy(
    () =>
      db.execute(
        "update demo_payment_sessions set status = 'complete', payment_status = 'paid' where status = 'open'",
      ),
    10_000,
  )
  const totals = new Map<string, number>()
  for (const row of (await db.execute('select id, amount_total from demo_payment_sessions')).rows) {
    totals.set(String(row.id), Number(row.amount_total))
  }
  return opened.map(({ sessionId, email }) => {
    const amountTotal = totals.get(sessionId)
    if (amountTotal === undefined) throw new Error(`no provider session ${sessionId}`)
    return { sessionId, email, amountTotal, payload: completedEvent(sessionId, email, amountTotal) }
  })
}

export function completedEvent(sessionId: string, email: string, amountTotal: number): string {
  return JSON.stringify({
    id: `evt_drill_${sessionId.slice('cs_test_demo_'.length)}`,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        amount_total: amountTotal,
        currency: 'usd',
        customer_email: email,
        customer_details: { email },
        livemode: false,
        metadata: {},
        mode: 'payment',
        payment_status: 'paid',
        status: 'complete',
      },
    },
  })
}

const signer = new Stripe('sk_test_drill_signing_only')

/**
 * Delivers one event as the provider does: signed at the moment of sending, no Origin. Answers the status,
 * or 'refused' when no connection could be made and 'cut' when the connection broke before an answer.
 */
export async function deliver(
  base: string,
  payload: string,
  onAnswer?: (res: Response) => void,
): Promise<number | 'refused' | 'cut'> {
  const signature = await signer.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: DEMO_WEBHOOK_SECRET,
    timestamp: Math.floor(Date.now() / 1000),
  })
  try {
    const res = await fetch(`${base}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    })
    await res.arrayBuffer()
    onAnswer?.(res)
    return res.status
  } catch (error) {
    return connectionFailure(error)
  }
}

/** 'refused' when the server was not listening; 'cut' when a connection broke mid-request. */
export function connectionFailure(error: unknown): 'refused' | 'cut' {
  const code = String((error as { code?: unknown }).code ?? '')
  return code === 'ConnectionRefused' || code === 'ECONNREFUSED' ? 'refused' : 'cut'
}

/**
 * The provider's redelivery: every event is sent again (a 503 means later, after its Retry-After) until each
 * has had a 2xx, or `deadlineMs` passes.
 */
export async function redeliverAll(
  base: string,
  payloads: string[],
  options: { deadlineMs?: number; concurrency?: number } = {},
): Promise<{ rounds: number; undelivered: number }> {
  const deadline = Date.now() + (options.deadlineMs ?? 60_000)
  let waiting = payloads
  let rounds = 0
  while (waiting.length > 0 && Date.now() < deadline) {
    rounds += 1
    const again: string[] = []
    await inParallel(waiting, options.concurrency ?? 8, async (payload) => {
      const status = await deliver(base, payload)
      if (typeof status !== 'number' || status < 200 || status >= 300) again.push(payload)
    })
    waiting = again
    if (waiting.length > 0) await Bun.sleep(1000)
  }
  return { rounds, undelivered: waiting.length }
}

export interface ShopCounts {
  orders: number
  /** Checkout sessions with more than one order (never more than 0). */
  doubledOrders: number
  labelled: number
  failedOrders: number
  unfinishedJobs: number
  labelFiles: number
}

export async function shopCounts(shop: Shop): Promise<ShopCounts> {
  const db = shop.db()
  const number = async (query: string) => Number((await db.execute(query)).rows[0]?.[0] ?? 0)
  let labelFiles = 0
  try {
    labelFiles = readdirSync(join(shop.dir, 'labels')).filter((name) => name.endsWith('.pdf')).length
  } catch {
    // no label yet
  }
  return {
    orders: await number('select count(*) from orders'),
    doubledOrders: await number(
      'select count(*) from (select checkout_session_id from orders group by checkout_session_id having count(*) > 1)',
    ),
    labelled: await number(
      "select count(*) from orders where status = 'label_created' and label_url is not null",
    ),
    failedOrders: await number("select count(*) from orders where status = 'failed'"),
    unfinishedJobs: await number("select count(*) from jobs where status != 'done'"),
    labelFiles,
  }
}

/** Waits until `done` says so (checked every 250 ms) or `ms` pass; answers the last check. */
export async function waitFor(done: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await done()) return true
    await Bun.sleep(250)
  }
  return done()
}

/** Order numbers as the confirmation e-mails name them ('… order 000042'). */
export function orderNumbersIn(subjects: string[]): string[] {
  return subjects.map((subject) => /order (\d{6,})/.exec(subject)?.[1] ?? subject)
}
