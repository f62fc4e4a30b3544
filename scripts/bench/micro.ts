// `bun scripts/bench/micro.ts [rates|checkout|webhook|discount|catalog ...] [--n=2000] [--jobs] [--profile [--callers=text]] [--trace]`: the API's hot paths
// timed in one process through `app.handle` (no sockets, no load generator), with a real database in a
// temporary folder and the built-in stand-ins. Sixteen requests are kept in flight, as the load test's 16
// connections do. For comparing one change with the next on the same machine, not for the targets.
import { profile, type SamplingProfile } from 'bun:jsc'
import Stripe from 'stripe'
import { DEMO_WEBHOOK_SECRET } from '../../api/adapters/demo-payments'
import { createTestApp } from '../../tests/api/support/test-app'
import { kbToMb, statusKb } from './memory'
import { COUNT_EVERY_PRODUCT } from './stock'

const args = process.argv.slice(2)
const n = Number(args.find((arg) => arg.startsWith('--n='))?.slice(4) ?? 2000)
const wanted = args.filter((arg) => !arg.startsWith('--'))
const scenarios = wanted.length > 0 ? wanted : ['catalog', 'discount', 'rates', 'checkout', 'webhook']
/** --serial: one request at a time, so --trace times each statement alone. */
const IN_FLIGHT = args.includes('--serial') ? 1 : 16
/** --no-code: checkout without a discount code, as the load test sends it. --stock: see below. */
const withCode = !args.includes('--no-code')

/**
 * --kept=N: prepared statements each database connection keeps (0: prepared on every call). --kept=0,256
 * builds one shop per value and takes turns between them in rounds, so both see the same machine load:
 * the way to compare old and new on a machine others are using.
 */
const keptArg = args.find((arg) => arg.startsWith('--kept='))
/**
 * --autocheckpoint=N: the WAL's auto-checkpoint threshold in pages (SQLite's default: 1000). Several values
 * (--autocheckpoint=1000,4000) build one shop per value and take turns, as --kept does.
 */
const checkpointArg = args.find((arg) => arg.startsWith('--autocheckpoint='))
const checkpoints = checkpointArg ? checkpointArg.slice(17).split(',').map(Number) : []
const variants: (number | undefined)[] = keptArg
  ? keptArg.slice(7).split(',').map(Number)
  : checkpoints.length > 1
    ? checkpoints.map(() => undefined)
    : [undefined]
const ROUNDS = variants.length > 1 ? 10 : 1
const shops = await Promise.all(
  variants.map((kept) =>
    createTestApp({ TRUST_PROXY: 'true' }, {}, kept === undefined ? {} : { keptStatements: kept }),
  ),
)
/** The shop the scenarios talk to now (each in turn when comparing). */
let shop = shops[0] as (typeof shops)[number]
let turn = 0
// --stock: every listed product counted (scripts/bench/stock.ts), so each checkout also holds its units, as
// the load test's checkout does.
if (args.includes('--stock'))
  for (const each of shops) await each.deps.db.$client.execute({ sql: COUNT_EVERY_PRODUCT, args: [0] })
for (const [index, each] of shops.entries()) {
  const pages = checkpoints[index] ?? checkpoints[0]
  if (pages !== undefined) await each.deps.db.$client.execute(`PRAGMA wal_autocheckpoint = ${pages}`)
}

// --trace: time spent in each SQL statement (by its first 70 characters), to see where a scenario waits.
const traced = new Map<string, { calls: number; ms: number }>()
if (args.includes('--trace')) {
  const client = shop.deps.db.$client as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>
  for (const method of ['execute', 'batch'] as const) {
    const original = client[method]?.bind(client)
    if (!original) continue
    client[method] = async (...a: unknown[]) => {
      const first = a[0] as { sql?: string } | { sql?: string }[] | string
      const text =
        method === 'batch'
          ? `batch[${(first as unknown[]).length}] ${((first as { sql?: string }[])[0]?.sql ?? '').slice(0, 50)}`
          : typeof first === 'string'
            ? first
            : ((first as { sql?: string }).sql ?? '')
      const key = text.replace(/\s+/g, ' ').slice(0, 70)
      const started = performance.now()
      try {
        return await original(...a)
      } finally {
        const entry = traced.get(key) ?? { calls: 0, ms: 0 }
        entry.calls += 1
        entry.ms += performance.now() - started
        traced.set(key, entry)
      }
    }
  }
}
/**
 * --profile: JavaScriptCore's sampling profiler over the timed requests only (not the set-up before them),
 * every 100 µs; prints the functions with the most samples at the top of the stack (self) and anywhere in
 * it (total). Sampling slows the code it samples: read the shares, not the rates.
 */
const profiling = args.includes('--profile')
const callersOf = args.find((arg) => arg.startsWith('--callers='))?.slice(10)

function printProfile(label: string, result: SamplingProfile): void {
  const self = new Map<string, number>()
  const total = new Map<string, number>()
  const { traces, sources } = result.stackTraces
  const files = new Map(
    sources.map((source) => [
      source.sourceID,
      (source.url ?? '').replace(/^.*node_modules\//, '').replace(`${process.cwd()}/`, ''),
    ]),
  )
  for (const { frames } of traces) {
    const seen = new Set<string>()
    for (const [depth, frame] of frames.entries()) {
      // Native functions have no file: their name says enough (libsql's statement calls, JSON.parse).
      const file = files.get(frame.sourceID)
      const key = `${frame.name || '(anonymous)'}${file ? ` ${file}:${frame.line}` : ''}`
      if (depth === 0) self.set(key, (self.get(key) ?? 0) + 1)
      if (!seen.has(key)) total.set(key, (total.get(key) ?? 0) + 1)
      seen.add(key)
    }
  }
  const top = (counts: Map<string, number>, heading: string) => {
    console.log(`${label}: ${heading} (${traces.length} samples)`)
    for (const [key, count] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 45))
      console.log(`  ${((100 * count) / traces.length).toFixed(1).padStart(5)} %  ${key}`)
  }
  top(self, 'self')
  top(total, 'total')
  if (!callersOf) return
  // --callers=<text>: for the samples inside a function whose name or file holds <text>, the shop's own
  // function (api/, db/) nearest above it: which of the shop's calls lead there.
  const callers = new Map<string, number>()
  for (const { frames } of traces) {
    const inside = frames.findIndex((frame) =>
      `${frame.name} ${files.get(frame.sourceID) ?? ''}`.includes(callersOf),
    )
    if (inside < 0) continue
    const caller = frames
      .slice(inside + 1)
      .find((frame) => /^(api|db)\//.test(files.get(frame.sourceID) ?? ''))
    const key = caller
      ? `${caller.name || '(anonymous)'} ${files.get(caller.sourceID)}:${caller.line}`
      : '(none)'
    callers.set(key, (callers.get(key) ?? 0) + 1)
  }
  top(callers, `callers of ${callersOf}`)
}

/** --trace: each statement's time since the map was last cleared, per request (or per order, for the jobs). */
function printTraced(count: number, per: string): void {
  for (const [sql, { calls, ms: spent }] of [...traced].sort((a, b) => b[1].ms - a[1].ms))
    console.log(
      `  ${((spent * 1000) / count).toFixed(0).padStart(5)} µs/${per} ${(calls / count).toFixed(2)}× ${sql}`,
    )
  traced.clear()
}

let client = 0
const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  shop.call(method, path, body, {
    'x-forwarded-for': `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client++ & 255}`,
    ...headers,
  })

const address = (i: number) => ({
  name: `Shopper ${i}`,
  street1: `${100 + i} Mill Street`,
  city: 'Columbus',
  state: 'OH',
  zip: '43215',
  country: 'US',
})
const cart = [
  { id: 1, quantity: 1 },
  { id: 4, quantity: 2 },
]

/** Each shop in turn (one when not comparing): `setUp` prepares what its requests need. */
async function forEachShop(setUp: () => Promise<void>): Promise<void> {
  for (const [index, each] of shops.entries()) {
    shop = each
    turn = index
    await setUp()
  }
}

async function timed(label: string, count: number, one: (i: number) => Promise<void>) {
  const perRound = Math.floor(count / ROUNDS)
  const totals = shops.map(() => ({ ms: 0, cpu: 0, done: 0 }))
  let next = 0
  await forEachShop(async () => {
    for (let i = 0; i < Math.min(200, count); i++) await one(-1 - i) // warm-up
  })
  traced.clear()
  for (let round = 0; round < ROUNDS; round++) {
    await forEachShop(async () => {
      const total = totals[turn] as (typeof totals)[number]
      const end = Math.min(count, total.done + perRound)
      next = total.done
      const cpuBefore = process.cpuUsage()
      const started = performance.now()
      const run = () =>
        Promise.all(
          Array.from({ length: IN_FLIGHT }, async () => {
            while (next < end) await one(next++)
          }),
        )
      if (profiling) printProfile(label, await profile(run, 100))
      else await run()
      total.ms += performance.now() - started
      const cpu = process.cpuUsage(cpuBefore)
      total.cpu += cpu.user + cpu.system
      total.done = end
    })
  }
  printTraced(count, 'request')
  for (const [index, { ms, cpu, done }] of totals.entries()) {
    const kept =
      variants[index] !== undefined
        ? ` kept=${variants[index]}`
        : checkpoints.length > 1
          ? ` autocheckpoint=${checkpoints[index]}`
          : ''
    // CPU time per request is steadier than wall time on a machine others are using too.
    console.log(
      `${label.padEnd(10)}${kept} ${done} in ${ms.toFixed(0)} ms: ${((done / ms) * 1000).toFixed(0)}/s, ${((ms * 1000) / done).toFixed(0)} µs each, CPU ${(cpu / done).toFixed(0)} µs each`,
    )
  }
}

async function ok(res: Response): Promise<unknown> {
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${res.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text)
}

async function rate(i: number): Promise<string> {
  const body = (await ok(
    await call('POST', '/api/shipping/rates', { address: address(i), items: cart }),
  )) as {
    rates: { id: string }[]
  }
  return body.rates[0]?.id as string
}

async function session(i: number, rateId: string, quotedFor: number): Promise<string> {
  const body = (await ok(
    await call('POST', '/api/create-checkout-session', {
      line_items: cart.map((item) => ({ product_id: item.id, quantity: item.quantity })),
      customer_email: `shopper${i}@crew.example`,
      shipping_address: address(quotedFor),
      shipping_rate: { id: rateId },
      ...(withCode && i % 2 === 0 ? { discount_code: 'GRIT15' } : {}),
    }),
  )) as { sessionId: string }
  return body.sessionId
}

for (const scenario of scenarios) {
  if (scenario === 'catalog')
    await timed('catalog', n, async () => void (await ok(await call('GET', '/api/catalog'))))
  if (scenario === 'discount')
    await timed(
      'discount',
      n,
      async () =>
        void (await ok(await call('POST', '/api/validate-discount', { code: 'GRIT15', amount: '42.00' }))),
    )
  if (scenario === 'rates') await timed('rates', n, async (i) => void (await rate(i)))
  if (scenario === 'checkout') {
    const ratesOf: string[][] = []
    await forEachShop(async () => {
      ratesOf[turn] = await Promise.all(Array.from({ length: 64 }, (_, i) => rate(i)))
    })
    await timed('checkout', n, async (i) => {
      const k = ((i % 64) + 64) % 64
      await session(i + 1_000_000 * (k + 1), ratesOf[turn]?.[k] as string, k)
    })
  }
  if (scenario === 'webhook') {
    // Up to 6,000 paid orders a run: 1,500 (0.5 s) left the optimizing compiler's work a large part of it.
    const count = Math.min(n, 6000)
    const eventsOf: { payload: string; header: string }[][] = []
    await forEachShop(async () => {
      const rates = await Promise.all(Array.from({ length: 64 }, (_, i) => rate(i)))
      const ids: string[] = []
      let made = 0
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (made < count + 200) {
            const i = made++
            ids.push(await session(i + 50_000_000, rates[i % 64] as string, i % 64))
          }
        }),
      )
      const signer = new Stripe('sk_test_signing_only')
      const events: { payload: string; header: string }[] = []
      eventsOf[turn] = events
      const ts = Math.floor(shop.clock.now().getTime() / 1000)
      for (const [index, id] of ids.entries()) {
        const summary = (await ok(await call('GET', `/api/demo-payments/${id}`))) as {
          amountTotal: number
          customerEmail: string
        }
        const payload = JSON.stringify({
          id: `evt_micro_${index}`,
          object: 'event',
          type: 'checkout.session.completed',
          created: ts,
          livemode: false,
          data: {
            object: {
              id,
              object: 'checkout.session',
              amount_total: summary.amountTotal,
              currency: 'usd',
              customer_email: summary.customerEmail,
              customer_details: { email: summary.customerEmail },
              livemode: false,
              metadata: {},
              mode: 'payment',
              payment_status: 'paid',
              status: 'complete',
            },
          },
        })
        events.push({
          payload,
          header: await signer.webhooks.generateTestHeaderStringAsync({
            payload,
            secret: DEMO_WEBHOOK_SECRET,
            timestamp: ts,
          }),
        })
      }
    })
    const post = async (i: number) => {
      const event = eventsOf[turn]?.[i < 0 ? -1 - i : 200 + i] as { payload: string; header: string }
      const res = await shop.app.handle(
        new Request('http://localhost:4321/api/stripe/webhook', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': event.header },
          body: event.payload,
        }),
      )
      const answer = (await ok(res)) as { status: string; duplicate: boolean }
      if (answer.status !== 'processed' || answer.duplicate) throw new Error(JSON.stringify(answer))
    }
    await timed('webhook', count, post)
    // --jobs: then the jobs those orders queued (confirmation e-mails, labels), as the server's job runner
    // runs them beside the webhooks: their CPU per order.
    if (args.includes('--jobs')) {
      traced.clear()
      const cpuBefore = process.cpuUsage()
      const started = performance.now()
      let ran = 0
      const runAll = async () => {
        for (;;) {
          const done = await shop.runDueJobs()
          if (done.ran === 0) break
          ran += done.ran
        }
      }
      if (profiling) printProfile('jobs', await profile(runAll, 100))
      else await runAll()
      const cpu = process.cpuUsage(cpuBefore)
      const orders = count + 200
      printTraced(orders, 'order')
      console.log(
        `jobs       ${ran} jobs for ${orders} orders in ${(performance.now() - started).toFixed(0)} ms: CPU ${((cpu.user + cpu.system) / orders).toFixed(0)} µs per order (system ${(cpu.system / orders).toFixed(0)} µs)`,
      )
    }
  }
}
const rss = process.memoryUsage()
// The peak (the kernel's high-water mark) is what the RSS budget is about; with --kept=a,b it is both
// shops' together, so compare variants in separate runs.
const peakKb = statusKb(process.pid, 'VmHWM') ?? 0
console.log(
  `rss ${(rss.rss / 1e6).toFixed(0)} MB (peak ${kbToMb(peakKb)} MB), heap used ${(rss.heapUsed / 1e6).toFixed(0)} MB`,
)
for (const each of shops) each.close()
