// Driving autocannon against the server for the load generators (scripts/bench/load.ts and
// scripts/bench/large-shop-load.ts, both run by Node on the core the server does not use): one scenario's
// requests, every answer's latency, the CPU both sides used and the server's peak memory meanwhile.
import { readFileSync } from 'node:fs'
import autocannon, { type RequestSpec } from 'autocannon'
import { followPeakRss, processTree } from './memory'
import type { ScenarioResult } from './types'

/** The server under load: where it listens and how to read its CPU time and memory from /proc. */
export interface FireTarget {
  baseUrl: string
  connections: number
  serverPid: number
  /** The kernel's clock ticks per second, the unit of CPU time in /proc/<pid>/stat. */
  clockTicks: number
}

export const JSON_HEADERS = { 'content-type': 'application/json' }

let shopperCount = 0
/** A new client address per request: rate limits count per address, and the load is many shoppers. */
export function nextShopperAddress(): string {
  shopperCount += 1
  const n = shopperCount
  return `10.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`
}

export interface Plan {
  id: string
  title: string
  method: 'GET' | 'POST'
  path: string
  /** Sent with every request (a session cookie, for example). */
  headers?: Record<string, string>
  /** The body (and extra headers) of the next request; the context belongs to the connection. */
  next?: (context: Record<string, unknown>) => {
    body?: string
    headers?: Record<string, string>
    path?: string
  }
  onResponse?: RequestSpec['onResponse']
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[index] ?? 0
}

/**
 * The server's user + system CPU seconds so far, from /proc (null if unreadable): with WORKERS=N, its
 * supervisor's and every worker's (a worker that died meanwhile takes its seconds with it).
 */
function serverCpuSeconds(target: FireTarget): number | null {
  let seconds: number | null = null
  for (const pid of processTree(target.serverPid)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      seconds = (seconds ?? 0) + (Number(fields[11]) + Number(fields[12])) / target.clockTicks
    } catch {
      // gone
    }
  }
  return seconds
}

function generatorCpuSeconds(): number {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1e6
}

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits

/** One run of a plan, for some seconds or for an exact number of requests. */
export async function fire(
  target: FireTarget,
  plan: Plan,
  run: { seconds: number } | { amount: number },
): Promise<ScenarioResult> {
  const latencies: number[] = []
  let sampleFailure: string | undefined
  let lastResponseAt = 0
  const request: RequestSpec = {
    method: plan.method,
    path: plan.path,
    setupRequest: (base, context) => {
      const extra = plan.next?.(context) ?? {}
      return {
        ...base,
        ...(extra.path ? { path: extra.path } : {}),
        headers: {
          ...base.headers,
          // The shop takes state-changing calls only from its own pages (api/plugins/security.ts).
          ...(plan.method === 'POST' ? { ...JSON_HEADERS, origin: target.baseUrl } : {}),
          'x-forwarded-for': nextShopperAddress(),
          ...plan.headers,
          ...extra.headers,
        },
        ...(extra.body === undefined ? {} : { body: extra.body }),
      }
    },
    onResponse: (status, body, context, headers) => {
      if ((status < 200 || status >= 300) && sampleFailure === undefined) {
        sampleFailure = `${status} ${body.slice(0, 200)}`
      }
      plan.onResponse?.(status, body, context, headers)
    },
  }
  const expected = 'amount' in run ? run.amount : Number.POSITIVE_INFINITY
  const memory = followPeakRss(target.serverPid)
  const started = performance.now()
  const cpuBefore = { server: serverCpuSeconds(target), generator: generatorCpuSeconds() }
  let cpuAfter: { at: number; server: number | null; generator: number } | null = null
  const readCpu = () => ({
    at: performance.now(),
    server: serverCpuSeconds(target),
    generator: generatorCpuSeconds(),
  })
  const instance = autocannon({
    url: target.baseUrl,
    // autocannon refuses more connections than requests.
    connections: 'amount' in run ? Math.min(target.connections, run.amount) : target.connections,
    pipelining: 1,
    timeout: 10,
    requests: [request],
    ...('amount' in run ? { amount: run.amount } : { duration: run.seconds }),
  })
  instance.on('response', (_client, _status, _bytes, ms) => {
    latencies.push(ms)
    lastResponseAt = performance.now()
    // A fixed amount ends before autocannon's next whole-second tick: read the CPU time at the last answer.
    if (latencies.length === expected) cpuAfter = readCpu()
  })
  const outcome = await instance
  const cpuEnd = cpuAfter ?? readCpu()
  const rssPeakMb = memory.stop()
  const cpuWall = Math.max(0.001, (cpuEnd.at - started) / 1000)
  const percentOfCore = (before: number | null, after: number | null) =>
    before === null || after === null ? null : Math.round(((after - before) / cpuWall) * 100)
  // autocannon reports on whole-second ticks; the last answer is when the work really ended.
  const seconds = Math.max(0.001, ((lastResponseAt || performance.now()) - started) / 1000)
  const sorted = Float64Array.from(latencies).sort()
  const statusCodes: Record<string, number> = {}
  for (const [code, { count }] of Object.entries(outcome.statusCodeStats)) statusCodes[code] = count
  return {
    id: plan.id,
    title: plan.title,
    method: plan.method,
    path: plan.path,
    requests: latencies.length,
    seconds: round(seconds, 3),
    perSecond: round(latencies.length / seconds, 1),
    latency: {
      p50: round(percentile(sorted, 0.5)),
      p90: round(percentile(sorted, 0.9)),
      p99: round(percentile(sorted, 0.99)),
      max: round(sorted[sorted.length - 1] ?? 0),
    },
    errors: outcome.errors,
    timeouts: outcome.timeouts,
    non2xx: outcome.non2xx,
    statusCodes,
    cpuPercent: {
      server: percentOfCore(cpuBefore.server, cpuEnd.server),
      generator: percentOfCore(cpuBefore.generator, cpuEnd.generator) ?? 0,
    },
    rssPeakMb,
    ...(sampleFailure ? { sampleFailure } : {}),
  }
}

/** A warm-up (not counted), then the measured run. */
export async function measure(
  target: FireTarget,
  plan: Plan,
  timing: { warmupSeconds: number; durationSeconds: number },
  log: (line: string) => void,
): Promise<ScenarioResult> {
  log(`${plan.id}: warm-up ${timing.warmupSeconds}s, then ${timing.durationSeconds}s`)
  await fire(target, plan, { seconds: timing.warmupSeconds })
  const result = await fire(target, plan, { seconds: timing.durationSeconds })
  log(
    `${plan.id}: ${result.perSecond} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}, CPU server ${result.cpuPercent.server}% generator ${result.cpuPercent.generator}%, peak RSS ${result.rssPeakMb ?? '?'} MB`,
  )
  return result
}
