// The load generator of `npm run bench`. scripts/bench.ts bundles it for Node and runs it on the core the
// server does not use: `node load.mjs <config.json>`. It drives autocannon against 127.0.0.1 only, one
// scenario after the other, and writes LoadResults to the file the config names.
import { readFileSync, writeFileSync } from 'node:fs'
import Stripe from 'stripe'
import {
  type FireTarget,
  fire,
  JSON_HEADERS,
  measure as measureScenario,
  nextShopperAddress,
  type Plan,
} from './fire'
import type { LoadConfig, LoadResults, ScenarioResult, WebhookResult } from './types'

const configFile = process.argv[2]
if (!configFile) throw new Error('usage: node load.mjs <config.json>')
const config = JSON.parse(readFileSync(configFile, 'utf8')) as LoadConfig
if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(config.baseUrl)) throw new Error(`refusing to load ${config.baseUrl}`)

const notes: string[] = []
/** Whether this run measures a scenario (`--only=`); the baseline always runs. */
const measures = (id: string) => id === 'baseline' || !config.only || (config.only as string[]).includes(id)
const log = (line: string) => console.log(`[load] ${line}`)

// ---------------------------------------------------------------------------------------------------------
// Shoppers, addresses and carts

interface Address {
  name: string
  street1: string
  city: string
  state: string
  zip: string
  country: 'US'
}

interface CartItem {
  id: number
  quantity: number
}

/** Destinations in every zone of the built-in rate table, Alaska included. */
const PLACES = [
  ['Columbus', 'OH', '43215'],
  ['Pittsburgh', 'PA', '15222'],
  ['Houston', 'TX', '77002'],
  ['Denver', 'CO', '80202'],
  ['Boise', 'ID', '83702'],
  ['Anchorage', 'AK', '99501'],
  ['Chicago', 'IL', '60601'],
  ['Nashville', 'TN', '37203'],
  ['Portland', 'OR', '97204'],
  ['Detroit', 'MI', '48226'],
] as const

function addressFor(n: number): Address {
  const [city, state, zip] = PLACES[n % PLACES.length] ?? PLACES[0]
  return { name: `Shopper ${n}`, street1: `${100 + n} Mill Street`, city, state, zip, country: 'US' }
}

/** Three cart shapes: one item, two lines (one quantity 2), three lines; under and over free shipping. */
function cartsFrom(productIds: number[]): CartItem[][] {
  const id = (index: number) => productIds[index % productIds.length] as number
  return [
    [{ id: id(0), quantity: 1 }],
    [
      { id: id(0), quantity: 1 },
      { id: id(3), quantity: 2 },
    ],
    [
      { id: id(1), quantity: 1 },
      { id: id(2), quantity: 1 },
      { id: id(4), quantity: 1 },
    ],
  ]
}

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${config.baseUrl}${path}`, {
    method,
    headers: { ...JSON_HEADERS, origin: config.baseUrl, 'x-forwarded-for': nextShopperAddress() },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  let json: unknown = null
  try {
    json = JSON.parse(text)
  } catch {
    json = text.slice(0, 200)
  }
  return { status: response.status, json }
}

async function inParallel<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T
      await work(item)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
}

// ---------------------------------------------------------------------------------------------------------
// Running one scenario

const target: FireTarget = {
  baseUrl: config.baseUrl,
  connections: config.connections,
  serverPid: config.serverPid,
  clockTicks: config.clockTicks,
}
/**
 * Quotes kept from the rates scenario for checkout, which uses each with a new e-mail: more than checkout
 * sends at its target (2,000 a second for 10 seconds), so none is used twice.
 */
const QUOTES_KEPT = 30_000
const timing = { warmupSeconds: config.warmupSeconds, durationSeconds: config.durationSeconds }
const measure = (plan: Plan) => measureScenario(target, plan, timing, log)

/** One request before the load: a scenario whose first answer is wrong says so in the report. */
async function smoke(label: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const { status, json } = await call(method, path, body)
  if (status < 200 || status >= 300) {
    const note = `${label}: the first ${method} ${path} answered ${status}: ${JSON.stringify(json).slice(0, 200)}`
    notes.push(note)
    log(note)
  }
  return json
}

// ---------------------------------------------------------------------------------------------------------
// Scenarios

interface QuoteEntry {
  address: Address
  cart: CartItem[]
  rateId: string
}

function ratesBody(address: Address, cart: CartItem[]): string {
  return JSON.stringify({ address, items: cart.map((item) => ({ id: item.id, quantity: item.quantity })) })
}

function readRateIds(body: string): string[] {
  try {
    const parsed = JSON.parse(body) as { rates?: { id?: unknown }[] }
    return (parsed.rates ?? []).map((rate) => rate.id).filter((id): id is string => typeof id === 'string')
  } catch {
    return []
  }
}

async function main(): Promise<void> {
  const scenarios: ScenarioResult[] = []
  const run = async (plan: Plan) => {
    if (measures(plan.id)) scenarios.push(await measure(plan))
  }

  const catalog = (await smoke('catalog', 'GET', '/api/catalog')) as { products?: { id: number }[] }
  const productIds = (catalog.products ?? []).map((product) => product.id).sort((a, b) => a - b)
  if (productIds.length === 0)
    throw new Error('GET /api/catalog returned no products: nothing to put in a cart')
  const carts = cartsFrom(productIds)

  // (a) The baseline: a small file of the built site, from memory, through the same middleware.
  await smoke('baseline', 'GET', config.staticPath)
  await run({
    id: 'baseline',
    title: `Static file ${config.staticPath}`,
    method: 'GET',
    path: config.staticPath,
  })

  // (b) The live catalogue.
  await run({ id: 'catalog', title: 'Catalogue', method: 'GET', path: '/api/catalog' })

  // (c) Discount check with a code that applies.
  const discountBody = JSON.stringify({ code: 'GRIT15', amount: '42.00' })
  await smoke('discount', 'POST', '/api/validate-discount', JSON.parse(discountBody))
  await run({
    id: 'discount',
    title: 'Discount check (GRIT15)',
    method: 'POST',
    path: '/api/validate-discount',
    next: () => ({ body: discountBody }),
  })

  // (d) Shipping rates; answers' quotes are kept for the checkout scenario, each bound to the cart and
  // address it was quoted for, up to QUOTES_KEPT: keeping every one (about 300,000) grew the generator's
  // heap, and its collections' pauses were counted as the server's latency.
  const quotes: QuoteEntry[] = []
  let rateRequests = 0
  const nextRates = (context: Record<string, unknown>) => {
    rateRequests += 1
    const address = addressFor(rateRequests)
    const cart = carts[rateRequests % carts.length] as CartItem[]
    context.quoted = { address, cart }
    return { body: ratesBody(address, cart) }
  }
  const keepQuotes = (status: number, body: string, context: Record<string, unknown>) => {
    const quoted = context.quoted as { address: Address; cart: CartItem[] } | undefined
    if (status !== 200 || !quoted || quotes.length >= QUOTES_KEPT) return
    for (const rateId of readRateIds(body)) quotes.push({ ...quoted, rateId })
  }
  await smoke(
    'rates',
    'POST',
    '/api/shipping/rates',
    JSON.parse(ratesBody(addressFor(0), carts[0] as CartItem[])),
  )
  await run({
    id: 'rates',
    title: 'Shipping rates (US address, rate table)',
    method: 'POST',
    path: '/api/shipping/rates',
    next: nextRates,
    onResponse: keepQuotes,
  })
  // Should the rates scenario have failed, a small pool still lets checkout be measured.
  if (quotes.length < 64) {
    await inParallel(
      Array.from({ length: 64 }, (_, i) => i),
      config.connections,
      async (i) => {
        const address = addressFor(1_000_000 + i)
        const cart = carts[i % carts.length] as CartItem[]
        const { status, json } = await call(
          'POST',
          '/api/shipping/rates',
          JSON.parse(ratesBody(address, cart)),
        )
        if (status === 200)
          for (const rateId of readRateIds(JSON.stringify(json))) quotes.push({ address, cart, rateId })
      },
    )
  }
  if (quotes.length === 0) throw new Error('no shipping quote could be had: checkout cannot be measured')
  log(`${quotes.length} live quotes for checkout`)

  // (e) Checkout sessions with the demo provider: each request uses a live quote and a new customer
  // e-mail, so the idempotency key (a digest of cart, quote and e-mail) differs for every request. Every
  // product is counted (scripts/bench/stock.ts), so each session also holds its units.
  let checkoutCount = 0
  const sessionIds: string[] = []
  /** Each session's customer e-mail, as the provider would report it in its event. */
  const emails = new Map<string, string>()
  const emailFor = (n: number) => `shopper${n}@crew.example`
  const checkoutBody = (n: number) => {
    const quote = quotes[n % quotes.length] as QuoteEntry
    return JSON.stringify({
      line_items: quote.cart.map((item) => ({ product_id: item.id, quantity: item.quantity })),
      customer_email: emailFor(n),
      shipping_address: quote.address,
      shipping_rate: { id: quote.rateId },
    })
  }
  const keepSession = (status: number, body: string, context: Record<string, unknown>) => {
    if (status !== 200) return
    try {
      const id = (JSON.parse(body) as { sessionId?: unknown }).sessionId
      if (typeof id === 'string') {
        sessionIds.push(id)
        emails.set(id, emailFor(context.n as number))
      }
    } catch {
      // counted as a failure by the status code already
    }
  }
  await smoke('checkout', 'POST', '/api/create-checkout-session', JSON.parse(checkoutBody(0)))
  await run({
    id: 'checkout',
    title: 'Checkout session (demo provider)',
    method: 'POST',
    path: '/api/create-checkout-session',
    next: (context) => {
      checkoutCount += 1
      context.n = checkoutCount
      return { body: checkoutBody(checkoutCount) }
    },
    onResponse: keepSession,
  })
  const distinctSessions = new Set(sessionIds).size
  log(`checkout made ${distinctSessions} distinct sessions from ${checkoutCount} requests`)
  if (distinctSessions !== sessionIds.length) {
    notes.push(
      `checkout: ${sessionIds.length} successful answers named only ${distinctSessions} distinct sessions (idempotency collapsed some requests)`,
    )
  }

  const webhook = measures('webhook')
    ? await webhookToOrder([...new Set(sessionIds)], emails, checkoutBody, emailFor, () => ++checkoutCount)
    : null
  const results: LoadResults = { scenarios, webhook, notes }
  writeFileSync(config.resultFile, JSON.stringify(results, null, 2))
}

interface SignedEvent {
  sessionId: string
  payload: string
  signature: string
}

/**
 * (f) Checkout sessions paid: signed `checkout.session.completed` events, prepared before the clock starts,
 * posted to the webhook. Sessions come from the checkout scenario (topped up if it made too few).
 */
async function webhookToOrder(
  available: string[],
  emails: Map<string, string>,
  checkoutBody: (n: number) => string,
  emailFor: (n: number) => string,
  nextCheckout: () => number,
): Promise<WebhookResult> {
  const prepared = performance.now()
  const needed = config.webhookWarmupSessions + config.webhookSessions
  let toppedUp = 0
  while (available.length < needed) {
    const missing = needed - available.length
    const before = available.length
    await inParallel(
      Array.from({ length: missing }, () => nextCheckout()),
      config.connections,
      async (n) => {
        const { status, json } = await call(
          'POST',
          '/api/create-checkout-session',
          JSON.parse(checkoutBody(n)),
        )
        const id = (json as { sessionId?: unknown } | null)?.sessionId
        if (status === 200 && typeof id === 'string') {
          available.push(id)
          emails.set(id, emailFor(n))
        }
      },
    )
    toppedUp += available.length - before
    if (available.length === before)
      throw new Error('no checkout session could be created for the webhook run')
  }
  const sessions = available.slice(0, needed)
  if (toppedUp > 0) log(`created ${toppedUp} more checkout sessions for the webhook run`)

  // The amount the provider would report, read back from the demo provider's own API (which tells no
  // one the customer's e-mail: the bench knows it from the checkout it sent).
  const described = new Map<string, { amountTotal: number; customerEmail: string }>()
  await inParallel(sessions, config.connections, async (id) => {
    const { status, json } = await call('GET', `/api/demo-payments/${encodeURIComponent(id)}`)
    const summary = json as { amountTotal?: unknown }
    const customerEmail = emails.get(id)
    if (status === 200 && typeof summary.amountTotal === 'number' && customerEmail) {
      described.set(id, { amountTotal: summary.amountTotal, customerEmail })
    }
  })
  if (described.size !== sessions.length)
    throw new Error(`only ${described.size} of ${sessions.length} sessions described`)

  const stripe = new Stripe('sk_test_bench_signing_only')
  const runToken = Math.random().toString(36).slice(2, 10)
  const timestamp = Math.floor(Date.now() / 1000)
  const signed: SignedEvent[] = []
  for (const [index, sessionId] of sessions.entries()) {
    const { amountTotal, customerEmail } = described.get(sessionId) as {
      amountTotal: number
      customerEmail: string
    }
    const payload = JSON.stringify({
      id: `evt_bench_${runToken}_${index}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: timestamp,
      livemode: false,
      data: {
        object: {
          id: sessionId,
          object: 'checkout.session',
          amount_total: amountTotal,
          currency: 'usd',
          customer_email: customerEmail,
          customer_details: { email: customerEmail },
          livemode: false,
          metadata: {},
          mode: 'payment',
          payment_status: 'paid',
          status: 'complete',
        },
      },
    })
    const signature = await stripe.webhooks.generateTestHeaderStringAsync({
      payload,
      secret: config.webhookSecret,
      timestamp,
    })
    signed.push({ sessionId, payload, signature })
  }
  const warmup = signed.slice(0, config.webhookWarmupSessions)
  const firsts = signed.slice(config.webhookWarmupSessions)
  // Providers deliver again when unsure: some events arrive a second time, a few dozen events later.
  const timed: SignedEvent[] = []
  let redeliveries = 0
  for (const [index, event] of firsts.entries()) {
    timed.push(event)
    const earlier = firsts[index - 40]
    if (earlier && index % config.redeliverEvery === 0) {
      timed.push(earlier)
      redeliveries += 1
    }
  }
  const preparationSeconds = (performance.now() - prepared) / 1000
  log(
    `webhook: ${firsts.length} sessions, ${redeliveries} redeliveries, prepared in ${preparationSeconds.toFixed(1)}s`,
  )

  const outcomes = { processed: 0, duplicate: 0, deliverAgain: 0, other: 0 }
  const planFor = (events: SignedEvent[], count: boolean): Plan => {
    let next = 0
    return {
      id: 'webhook',
      title: 'Webhook to order (signed checkout.session.completed)',
      method: 'POST',
      path: '/api/stripe/webhook',
      next: () => {
        const event = events[next++ % events.length] as SignedEvent
        return { body: event.payload, headers: { 'stripe-signature': event.signature } }
      },
      onResponse: (status, body, _context, headers) => {
        if (!count) return
        let answer: { duplicate?: unknown; status?: unknown } = {}
        try {
          answer = JSON.parse(body) as typeof answer
        } catch {
          // an answer that is not JSON counts as other
        }
        if (status === 200 && answer.duplicate === true) outcomes.duplicate += 1
        else if (status === 200 && answer.status === 'processed') outcomes.processed += 1
        else if (status === 503 && Object.keys(headers).some((name) => name.toLowerCase() === 'retry-after'))
          outcomes.deliverAgain += 1
        else outcomes.other += 1
      },
    }
  }
  if (warmup.length > 0) await fire(target, planFor(warmup, false), { amount: warmup.length })
  const result = await fire(target, planFor(timed, true), { amount: timed.length })
  const webhook: WebhookResult = {
    ...result,
    sessionsSent: sessions.length,
    timedSessions: firsts.length,
    eventsSent: timed.length,
    redeliveries,
    outcomes,
    ordersPerSecond: Math.round((outcomes.processed / result.seconds) * 10) / 10,
    preparationSeconds: Math.round(preparationSeconds * 10) / 10,
  }
  log(
    `webhook: ${webhook.perSecond} events/s, ${webhook.ordersPerSecond} new orders/s, p99 ${webhook.latency.p99} ms, outcomes ${JSON.stringify(outcomes)}`,
  )
  return webhook
}

main().catch((error: unknown) => {
  console.error(`[load] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  process.exit(1)
})
