// BENCHMARKS.md from one run's measurements, every number against its budget (docs/architecture.md#performance-budgets) as
// scripts/bench/targets.ts states it. Only type imports besides targets.ts and the job runner's pace (a
// constant): rendering a report starts nothing and reads nothing.
import { REQUESTS_FIRST_GAP_MS } from '../../api/modules/jobs/pace'
import type { LargeShopSection } from './large-shop'
import type { PageScore } from './lighthouse'
import type { StartupResult } from './server'
import {
  describePageBudget,
  describeScenarioTarget,
  describeWebhookTarget,
  judgeLargeShop,
  judgeMemory,
  judgePage,
  judgeScenario,
  judgeStartup,
  judgeWebhook,
  type LargeShopMeasurement,
  type OrderCheck,
  onePerSession,
  type ScenarioTarget,
  TARGETS,
  type Verdict,
} from './targets'
import type { LoadResults, ScenarioResult } from './types'

export interface MachineFacts {
  date: string
  nproc: number
  cpuModel: string
  bun: string
  node: string
  chromium: string
  lighthouse: string | null
  autocannon: string
  siteBuiltAt: string
  /** 1-minute load average when the run started and when it ended: other work on the machine shows here. */
  loadAverage: { start: number; end: number }
}

export interface LoadSection {
  /** Server processes answering (WORKERS); 1 unless `--workers=` asked for more. */
  workers?: number
  results: LoadResults | null
  failure?: string
  pinning: string
  connections: number
  warmupSeconds: number
  durationSeconds: number
  /** Orders in the database after the webhook run, checked against the sessions sent events. */
  orderCheck?: OrderCheck
}

export interface StartupSection {
  result: StartupResult | null
  failure?: string
  runs: number
  pinning: string
}

export interface LighthouseSection {
  pages: PageScore[]
  failure?: string
  serverNote: string
  /** How long Lighthouse waits for a page to go quiet. */
  maxWaitForLoadMs: number
  /** Lighthouse runs of each page; with more than one the table shows the median run. */
  runsPerPage: number
}

export interface ReportInput {
  quick: boolean
  flags: string[]
  machine: MachineFacts
  load: LoadSection | 'skipped'
  /** The same load with other WORKERS counts (`--workers=1,2`), shown beside section 1. */
  moreLoads?: LoadSection[]
  startup: StartupSection | 'skipped'
  largeShop: LargeShopSection | 'skipped'
  budget: { output: string; exitCode: number } | null
  lighthouse: LighthouseSection | 'skipped'
  /** Profile findings written by hand (scripts/bench/findings.md), shown as the report's last section. */
  findings: string | null
}

const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
const ratio = (value: number, base: number) => (base > 0 ? `${(value / base).toFixed(2)}×` : '–')
const mb = (value: number | null) => (value === null ? '?' : fmt(value))

const cpu = (result: ScenarioResult) =>
  `${result.cpuPercent.server === null ? '?' : `${result.cpuPercent.server} %`} / ${result.cpuPercent.generator} %`

const NOT_MEASURED = 'not measured'

/** "met", or "**missed**: …" with what fell short. */
export function verdictText(verdict: Verdict): string {
  return verdict.met ? 'met' : `**missed**: ${verdict.misses.join('; ')}`
}

const scenarioTarget = (id: string): ScenarioTarget | undefined =>
  (TARGETS.api as Record<string, ScenarioTarget>)[id]

// ---------------------------------------------------------------------------------------------------------
// Summary: one line per target

interface SummaryRow {
  what: string
  target: string
  measured: string
  result: string
}

function loadSummary(load: ReportInput['load']): SummaryRow[] {
  const results = load === 'skipped' ? null : load.results
  const baseline = results?.scenarios.find((scenario) => scenario.id === 'baseline')
  const rows: SummaryRow[] = []
  const titles: Record<string, string> = {
    catalog: 'Catalogue reads',
    discount: 'Discount check',
    rates: 'Rate-table quote',
    checkout: 'Checkout session (demo provider)',
  }
  for (const [id, target] of Object.entries(TARGETS.api) as [string, ScenarioTarget][]) {
    const result = results?.scenarios.find((scenario) => scenario.id === id)
    rows.push({
      what: titles[id] ?? id,
      target: describeScenarioTarget(target),
      measured: result
        ? `${fmt(result.perSecond)} req/s = ${ratio(result.perSecond, baseline?.perSecond ?? 0)} baseline, p99 ${fmt(result.latency.p99, 2)} ms`
        : NOT_MEASURED,
      result: result ? verdictText(judgeScenario(target, result, baseline)) : NOT_MEASURED,
    })
  }
  const webhook = results?.webhook
  rows.push({
    what: 'Webhook to order',
    target: describeWebhookTarget(),
    measured: webhook
      ? `${fmt(webhook.ordersPerSecond)} new orders/s, ${load !== 'skipped' && onePerSession(load.orderCheck) ? 'one order per session' : 'order check failed'}`
      : NOT_MEASURED,
    result:
      webhook && load !== 'skipped' ? verdictText(judgeWebhook(webhook, load.orderCheck)) : NOT_MEASURED,
  })
  return rows
}

/** Every RSS reading of the run: at rest after start, and the peak of every load run. */
function memoryReadings(input: ReportInput): { what: string; rssMb: number }[] {
  const readings: { what: string; rssMb: number }[] = []
  if (input.startup !== 'skipped' && input.startup.result?.medianRestRssMb != null)
    readings.push({ what: 'at rest after start', rssMb: input.startup.result.medianRestRssMb })
  if (input.load !== 'skipped' && input.load.results) {
    const { scenarios, webhook } = input.load.results
    for (const result of [...scenarios, ...(webhook ? [webhook] : [])])
      if (result.rssPeakMb !== null) readings.push({ what: result.title, rssMb: result.rssPeakMb })
  }
  if (input.largeShop !== 'skipped') {
    for (const stage of input.largeShop.stages)
      for (const result of stage.results)
        if (result.rssPeakMb !== null)
          readings.push({ what: `${result.title} at ${fmt(stage.orders)} orders`, rssMb: result.rssPeakMb })
  }
  return readings
}

function largeShopMeasurements(section: LargeShopSection): LargeShopMeasurement[] {
  return section.stages.flatMap((stage) =>
    stage.results.map((result) => ({
      endpoint: `GET ${result.path}`,
      orders: stage.orders,
      p99Ms: result.latency.p99,
      failed: result.non2xx + result.errors,
    })),
  )
}

function lighthouseVerdict(page: PageScore): Verdict | null {
  if (page.status !== 'measured' || !page.scores) return null
  return judgePage(
    page.page.path,
    page.scores,
    { cls: page.cls ?? 0, fcpMs: page.fcpMs, lcpMs: page.lcpMs },
    page.indexing ?? 'indexable',
  )
}

function summarySection(input: ReportInput): string[] {
  const rows = loadSummary(input.load)
  const startup = input.startup === 'skipped' ? null : input.startup.result
  rows.push({
    what: 'Start to first answer',
    target: `≤ ${fmt(TARGETS.startup.maxMs)} ms`,
    measured: startup
      ? `median ${fmt(startup.medianMs)} ms of ${startup.startsMs.length} starts`
      : NOT_MEASURED,
    result: startup ? verdictText(judgeStartup(startup.medianMs)) : NOT_MEASURED,
  })
  const readings = memoryReadings(input)
  const peak = readings.reduce<{ what: string; rssMb: number } | null>(
    (top, reading) => (top === null || reading.rssMb > top.rssMb ? reading : top),
    null,
  )
  rows.push({
    what: 'Server RSS',
    target: `≤ ${fmt(TARGETS.memory.maxRssMb)} MB at rest and under load`,
    measured: peak ? `largest ${fmt(peak.rssMb)} MB (${peak.what})` : NOT_MEASURED,
    result: readings.length > 0 ? verdictText(judgeMemory(readings)) : NOT_MEASURED,
  })
  const largeShop = input.largeShop === 'skipped' ? null : input.largeShop
  const measurements = largeShop ? largeShopMeasurements(largeShop) : []
  const slowest = measurements.reduce<LargeShopMeasurement | null>(
    (top, measurement) => (top === null || measurement.p99Ms > top.p99Ms ? measurement : top),
    null,
  )
  rows.push({
    what: 'Staff and order-history calls, large shop',
    target: `p99 ≤ ${TARGETS.largeShop.maxP99Ms} ms with ${fmt(TARGETS.largeShop.orders)} orders`,
    measured: slowest
      ? `slowest p99 ${fmt(slowest.p99Ms, 2)} ms (${slowest.endpoint} at ${fmt(slowest.orders)} orders)`
      : (largeShop?.skipped ?? largeShop?.failure ?? NOT_MEASURED),
    result: measurements.length > 0 ? verdictText(judgeLargeShop(measurements)) : NOT_MEASURED,
  })
  rows.push({
    what: 'JavaScript per page (gzip)',
    target: `≤ ${TARGETS.javascript.contentPageKib} KiB content pages, ≤ ${TARGETS.javascript.appPageKib} KiB app pages`,
    measured: input.budget ? 'section 4' : NOT_MEASURED,
    result: input.budget
      ? input.budget.exitCode === 0
        ? 'met'
        : '**missed**: a page is over'
      : NOT_MEASURED,
  })
  if (input.lighthouse !== 'skipped') {
    const pages = input.lighthouse.pages
    const judged = pages.map((page) => ({ page, verdict: lighthouseVerdict(page) }))
    const measured = judged.filter((entry) => entry.verdict !== null)
    const missed = measured.filter((entry) => !entry.verdict?.met).map((entry) => entry.page.page.path)
    // Pages left out, grouped by why: "not found: answers 404 …: /login, /profile".
    const unmeasured = new Map<string, string[]>()
    for (const { page, verdict } of judged) {
      if (verdict !== null) continue
      const why = `${page.status}${page.why ? `: ${page.why}` : ''}`
      unmeasured.set(why, [...(unmeasured.get(why) ?? []), page.page.path])
    }
    const left = [...unmeasured].map(([why, paths]) => `${paths.join(', ')} (${why})`)
    rows.push({
      what: 'Lighthouse',
      target: 'per page, section 5',
      measured: `${measured.length} of ${pages.length} pages measured${left.length > 0 ? `; not measured: ${left.join('; ')}` : ''}`,
      result:
        measured.length === 0
          ? NOT_MEASURED
          : missed.length === 0
            ? 'met on every page measured'
            : `**missed** on ${missed.join(', ')}`,
    })
  } else rows.push({ what: 'Lighthouse', target: 'per page', measured: NOT_MEASURED, result: NOT_MEASURED })

  const lines = [
    '## Summary against the budgets',
    '',
    'Each target as `scripts/bench/targets.ts` states it (docs/architecture.md#performance-budgets); the sections below hold the details.',
    '',
    '| what | target | measured | result |',
    '|---|---|---|---|',
  ]
  for (const row of rows) {
    const explained = row.result.startsWith('**missed**') ? WHERE_EXPLAINED[row.what] : undefined
    const result = explained ? `${row.result} (${explained})` : row.result
    lines.push(`| ${row.what} | ${row.target} | ${row.measured} | ${result} |`)
  }
  lines.push(
    '',
    'A target missed here is taken up in section 6, _What the missed targets would take now_, at the item its line names: what was tried, what each step measured, and the floor where one was measured.',
    '',
  )
  return lines
}

/**
 * Where section 6 takes up each target when it is missed: the numbered items of _What the missed targets
 * would take now_ in scripts/bench/findings.md (renumbered there, renumbered here).
 */
export const WHERE_EXPLAINED: Record<string, string> = {
  'Webhook to order': 'section 6, item 1',
  'Rate-table quote': 'section 6, item 2',
  'Server RSS': 'section 6, item 3: its measured floor',
  Lighthouse: 'section 6, item 4',
  'Staff and order-history calls, large shop': 'section 6, item 5',
  'Checkout session (demo provider)': 'section 6, item 6',
}

// ---------------------------------------------------------------------------------------------------------
// 1. API throughput and latency

/** The same scenarios with WORKERS=N: its own table, and req/s and p99 beside section 1's. */
function workersSection(first: LoadSection, more: LoadSection): string[] {
  const n = more.workers ?? 1
  const lines = loadSection(more, `### 1b. The same with WORKERS=${n}`)
  const before = new Map((first.results?.scenarios ?? []).map((result) => [result.id, result]))
  const rows: string[] = []
  const all = [...(more.results?.scenarios ?? []), ...(more.results?.webhook ? [more.results.webhook] : [])]
  for (const result of all) {
    const old = result.id === first.results?.webhook?.id ? first.results.webhook : before.get(result.id)
    if (!old) continue
    rows.push(
      `| ${result.title} | ${fmt(old.perSecond)} | ${fmt(old.latency.p99, 2)} | ${cpu(old)} | ${fmt(result.perSecond)} | ${fmt(result.latency.p99, 2)} | ${cpu(result)} | ${ratio(result.perSecond, old.perSecond)} |`,
    )
  }
  if (rows.length === 0) return lines
  lines.push(
    '',
    `Side by side, ${first.workers ?? 1} worker${(first.workers ?? 1) === 1 ? '' : 's'} (section 1) and ${n}:`,
    '',
    `| scenario | req/s, ${first.workers ?? 1} | p99 ms, ${first.workers ?? 1} | CPU server / generator, ${first.workers ?? 1} | req/s, ${n} | p99 ms, ${n} | CPU server / generator, ${n} | req/s ${n} ÷ ${first.workers ?? 1} |`,
    '|---|--:|--:|--:|--:|--:|--:|--:|',
    ...rows,
    '',
    `With ${n} workers the server's CPU column adds up every worker's share of a core (up to ${n * 100} %). On a machine with ${n} cores the load generator then takes its CPU from the same cores: its column is what the gain gives up to it, and on a machine where it had a core of its own the server would have that share too.`,
    '',
  )
  return lines
}

function loadSection(load: LoadSection, heading = '## 1. API throughput and latency'): string[] {
  const lines = [heading, '']
  lines.push(
    `${load.connections} connections, ${load.warmupSeconds} s warm-up then ${load.durationSeconds} s per scenario, one scenario at a time. ${load.pinning} Every request comes from a different client address (\`X-Forwarded-For\`, \`TRUST_PROXY=true\`), so per-address rate limits see many shoppers, not one abuser. Fresh temporary database and data folder; demo payment provider, built-in rate table, outbox e-mail. Latencies are measured by the load generator for every answer (errors included).`,
    '',
  )
  if (load.failure) lines.push(`**The load test did not finish:** ${load.failure}`, '')
  const results = load.results
  if (!results) return lines
  const baseline = results.scenarios.find((scenario) => scenario.id === 'baseline')
  lines.push(
    '| scenario | request | req/s | × baseline req/s | p50 ms | p99 ms | × baseline p99 | requests | non-2xx | errors | CPU server / generator | peak RSS MB | target | result |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|',
  )
  for (const result of results.scenarios) {
    const target = scenarioTarget(result.id)
    const judged =
      result.id === 'baseline' ? '–' : target ? verdictText(judgeScenario(target, result, baseline)) : ''
    lines.push(
      `| ${result.title} | \`${result.method} ${result.path}\` | ${fmt(result.perSecond)} | ${ratio(result.perSecond, baseline?.perSecond ?? 0)} | ${fmt(result.latency.p50, 2)} | ${fmt(result.latency.p99, 2)} | ${ratio(result.latency.p99, baseline?.latency.p99 ?? 0)} | ${fmt(result.requests)} | ${fmt(result.non2xx)} | ${fmt(result.errors)} | ${cpu(result)} | ${mb(result.rssPeakMb)} | ${result.id === 'baseline' ? 'baseline' : target ? describeScenarioTarget(target) : ''} | ${judged} |`,
    )
  }
  const webhook = results.webhook
  const check = load.orderCheck
  if (webhook) {
    lines.push(
      `| ${webhook.title} | \`POST ${webhook.path}\` | ${fmt(webhook.perSecond)} events/s, ${fmt(webhook.ordersPerSecond)} new orders/s | ${ratio(webhook.perSecond, baseline?.perSecond ?? 0)} | ${fmt(webhook.latency.p50, 2)} | ${fmt(webhook.latency.p99, 2)} | ${ratio(webhook.latency.p99, baseline?.latency.p99 ?? 0)} | ${fmt(webhook.requests)} | ${fmt(webhook.non2xx)} | ${fmt(webhook.errors)} | ${cpu(webhook)} | ${mb(webhook.rssPeakMb)} | ${describeWebhookTarget()} | ${verdictText(judgeWebhook(webhook, check))} |`,
    )
  }
  lines.push(
    '',
    "CPU columns: the share of one core the server and the load generator used during the measured seconds (from /proc and Node's `process.cpuUsage`). A server well below 100 % while the generator is near 100 % means the generator, not the server, set that scenario's rate (likely for the static baseline: its rate is then a lower bound, and every ratio to it flatters the API); a pinned server below 100 % with an idle generator means it was waiting (database, or other work on its core).",
    '',
    "Peak RSS: the server's resident memory at its highest during the measured seconds, from the kernel's high-water mark (`VmHWM` in /proc/<pid>/status, reset at the start of each run through /proc/<pid>/clear_refs) and a sample of `VmRSS` every 50 ms. MB are 10^6 bytes.",
  )
  if (webhook) {
    lines.push(
      '',
      `Webhook run: ${fmt(webhook.timedSessions)} checkout sessions (created through the API before the clock started, ${fmt(webhook.sessionsSent - webhook.timedSessions)} more used for warming up the path), one signed \`checkout.session.completed\` event each, signed with the demo provider's public development secret via \`stripe.webhooks.generateTestHeaderStringAsync\`; ${fmt(webhook.redeliveries)} events were delivered a second time about 40 events later, as providers retry. ${fmt(webhook.eventsSent)} events in ${webhook.seconds} s. Answers: ${fmt(webhook.outcomes.processed)} processed into an order, ${fmt(webhook.outcomes.duplicate)} recognised as duplicates, ${fmt(webhook.outcomes.deliverAgain)} asked to be delivered again (a redelivery that came while another worker still held its event: 503 with Retry-After, so the provider sends it once more; not a failure), ${fmt(webhook.outcomes.other)} other. The rate counted against the target is new orders per second (redeliveries excluded). Preparing the sessions and signatures took ${webhook.preparationSeconds} s (not timed).`,
    )
    if (check) {
      lines.push(
        '',
        `Order check afterwards, in the database: ${fmt(check.orders)} orders for ${fmt(check.distinctSessions)} distinct checkout sessions; ${fmt(check.expected)} sessions were sent events; ${fmt(check.completeSessions)} checkout sessions marked complete — ${onePerSession(check) ? '**one order per session, none twice**' : '**MISMATCH**'}.`,
        ...(check.jobs === undefined
          ? []
          : [
              '',
              `Jobs (confirmation e-mails, labels) still queued when the load ended: ${fmt(check.jobsQueued ?? 0)} of ${fmt(check.jobs)}. While requests keep arriving the job runner claims one job per ${REQUESTS_FIRST_GAP_MS} ms (api/modules/jobs/pace.ts), so a rush's e-mails and labels follow it instead of slowing it.`,
            ]),
      )
    }
  }
  const failures = [...results.scenarios, ...(webhook ? [webhook] : [])].filter(
    (result) => result.sampleFailure,
  )
  if (failures.length > 0 || results.notes.length > 0) {
    lines.push('', 'Failures and notes:', '')
    for (const result of failures) {
      const codes = Object.entries(result.statusCodes)
        .map(([code, count]) => `${code}: ${fmt(count)}`)
        .join(', ')
      lines.push(
        `- ${result.title}: status codes ${codes}; first failing answer: \`${result.sampleFailure}\``,
      )
    }
    for (const note of results.notes) lines.push(`- ${note}`)
  }
  lines.push('')
  return lines
}

// ---------------------------------------------------------------------------------------------------------
// 2. Start time and memory

function startupSection(input: ReportInput): string[] {
  const lines = ['## 2. Start time and memory', '']
  const startup = input.startup
  if (startup === 'skipped') lines.push('Start time: skipped.', '')
  else if (!startup.result) lines.push(`**Start time not measured:** ${startup.failure ?? 'no result'}`, '')
  else {
    const result = startup.result
    lines.push(
      `From spawning \`bun api/main.ts\` to the first 200 on \`/api/health\`, on the built site and a database an untimed start had already migrated and seeded; ${result.startsMs.length} starts, health asked every 5 ms. ${startup.pinning} RSS at rest: \`VmRSS\` from /proc/<pid>/status ${fmt(result.restAfterMs)} ms after the first answer, nothing asked of the server meanwhile.`,
      '',
      '| measure | each start | median | target | result |',
      '|---|---|--:|---|---|',
      `| start to first answer | ${result.startsMs.map((ms) => `${fmt(ms)} ms`).join(', ')} | ${fmt(result.medianMs)} ms | ≤ ${fmt(TARGETS.startup.maxMs)} ms | ${verdictText(judgeStartup(result.medianMs))} |`,
      `| RSS at rest after start | ${result.restRssMb.map((value) => `${fmt(value)} MB`).join(', ')} | ${mb(result.medianRestRssMb)} MB | ≤ ${fmt(TARGETS.memory.maxRssMb)} MB | ${result.medianRestRssMb === null ? NOT_MEASURED : verdictText(judgeMemory([{ what: 'at rest', rssMb: result.medianRestRssMb }]))} |`,
      '',
    )
  }
  const readings = memoryReadings(input)
  if (readings.length > 0) {
    const peaks = readings.filter((reading) => reading.what !== 'at rest after start')
    lines.push(
      `Peak RSS under load (sections 1 and 3): ${peaks.length > 0 ? peaks.map((reading) => `${reading.what} ${fmt(reading.rssMb)} MB`).join('; ') : NOT_MEASURED}. Against ≤ ${fmt(TARGETS.memory.maxRssMb)} MB at rest and under load: ${verdictText(judgeMemory(readings))}.`,
      '',
    )
  }
  return lines
}

// ---------------------------------------------------------------------------------------------------------
// 3. Large shop

function largeShopSection(section: ReportInput['largeShop']): string[] {
  const lines = ['## 3. Large shop', '']
  if (section === 'skipped') return [...lines, 'Skipped (`--skip-large-shop`).', '']
  const { orders, webhookEvents, customers, maxP99Ms } = TARGETS.largeShop
  lines.push(
    `The budget (docs/architecture.md#performance-budgets): with ${fmt(orders)} orders, ${fmt(webhookEvents)} webhook events and ${fmt(customers)} customers, staff and order-history calls p99 ≤ ${maxP99Ms} ms, flat from 1,000 orders up. \`scripts/bench/large-shop-data.ts\` grows one database (made by the real migrations) to ${section.sizes.map((size) => fmt(size)).join(', then ')} orders: every order with 1–3 lines from the real catalogue and three stored payment events, one customer per ten orders, statuses from pending (newest) to shipped, 1,000 orders a day up to now. At each size the built server starts on it (pinned as in section 1), a staff member and a customer sign in through \`POST /api/auth/login\`, and each call gets ${section.warmupSeconds} s of warm-up and ${section.durationSeconds} s measured at ${section.connections} connections (a few staff and customers at once: more would measure queueing on one core, not the data). The customer has the same 10 orders at every size, so a slower history call shows the shop's size, not a longer list. The order searches (\`scripts/bench/large-shop.ts\` \`searchPaths\`) look for data every size has: a customer's e-mail, a name start matching about 1% of the orders, an order number, shipped orders of a week and failed ones of 30 days.`,
    '',
  )
  if (section.skipped) lines.push(`**${section.skipped}**`, '')
  if (section.failure) lines.push(`**The large-shop scenario did not finish:** ${section.failure}`, '')
  if (section.stages.length > 0) {
    lines.push(
      '| orders | order lines | webhook events | customers | accounts | time to grow |',
      '|--:|--:|--:|--:|--:|--:|',
    )
    for (const stage of section.stages) {
      const c = stage.counts
      lines.push(
        `| ${fmt(c.orders)} | ${fmt(c.orderLines)} | ${fmt(c.webhookEvents)} | ${fmt(c.customers)} | ${fmt(c.accounts)} | ${stage.fillSeconds} s |`,
      )
    }
    const sizes = section.stages.map((stage) => stage.orders)
    const calls = section.stages[0]?.results.map((result) => result.id) ?? []
    lines.push(
      '',
      `| call | ${sizes.map((size) => `p99 ms at ${fmt(size)}`).join(' | ')} | p99 growth ${fmt(sizes[0] ?? 0)} → ${fmt(sizes[sizes.length - 1] ?? 0)} | p50 ms / req/s at ${fmt(sizes[sizes.length - 1] ?? 0)} | failed | result |`,
      `|---|${sizes.map(() => '--:|').join('')}--:|--:|--:|---|`,
    )
    for (const id of calls) {
      const perStage = section.stages.map((stage) => stage.results.find((result) => result.id === id))
      const first = perStage[0]
      const last = perStage[perStage.length - 1]
      if (!first || !last) continue
      const measurements = section.stages.flatMap((stage) =>
        stage.results
          .filter((result) => result.id === id)
          .map((result) => ({
            endpoint: `GET ${result.path}`,
            orders: stage.orders,
            p99Ms: result.latency.p99,
            failed: result.non2xx + result.errors,
          })),
      )
      const failed = measurements.reduce((sum, measurement) => sum + measurement.failed, 0)
      lines.push(
        `| ${first.title}: \`GET ${first.path}\` | ${perStage.map((result) => (result ? fmt(result.latency.p99, 2) : '–')).join(' | ')} | ${ratio(last.latency.p99, first.latency.p99)} | ${fmt(last.latency.p50, 2)} / ${fmt(last.perSecond)} | ${fmt(failed)} | ${verdictText(judgeLargeShop(measurements))} |`,
      )
    }
    const failures = section.stages.flatMap((stage) =>
      stage.results
        .filter((result) => result.sampleFailure)
        .map((result) => `- ${result.title} at ${fmt(stage.orders)} orders: \`${result.sampleFailure}\``),
    )
    if (failures.length > 0) lines.push('', 'First failing answers:', '', ...failures)
    lines.push('')
  }
  return lines
}

// ---------------------------------------------------------------------------------------------------------
// 5. Lighthouse

function popupScript(page: PageScore): string {
  const script = page.welcomeScript
  if (!script) return 'popup script not loaded'
  const time =
    script.mainThreadMs === null
      ? "main-thread time under Lighthouse's reporting threshold"
      : `${fmt(script.mainThreadMs)} ms main-thread time`
  return `popup script ${(script.transferBytes / 1024).toFixed(1)} KiB transferred, ${time}`
}

function lighthouseBudgetText(): string {
  const l = TARGETS.lighthouse
  return `Performance ${l.indexablePerformance} on every indexable page and ≥ ${l.appPages.minPerformance} on ${l.appPages.paths.join(', ')}; FCP ≤ ${fmt(l.indexablePaint.maxFcpMs)} ms and LCP ≤ ${fmt(l.indexablePaint.maxLcpMs)} ms on indexable pages; Accessibility ${l.accessibility} and Best Practices ${l.bestPractices} everywhere; SEO ${l.seo} on indexable pages only (a page whose \`<meta name="robots">\` or X-Robots-Tag says noindex shows SEO as "n/a (noindex)" and is not judged on it); CLS ≤ ${l.maxCls}, and 0 on ${l.noShift.join(', ')}`
}

function lighthouseSection(input: LighthouseSection): string[] {
  const lines = ['## 5. Lighthouse', '']
  lines.push(
    `Mobile, default (simulated) throttling, ${input.runsPerPage === 1 ? 'one run per page with a fresh Chromium profile' : `${input.runsPerPage} runs per page, each with a fresh Chromium profile: Performance, FCP, LCP, TBT and CLS are each the median of a page's runs (Lighthouse's numbers move between runs of the same page: Performance by a few points, mostly through Total Blocking Time, LCP by up to a second when a paint comes late enough for the scripts started after the first paint to count), every run's Performance beside it; the other scores, the LCP element and the audits are those of the run with the median Performance`}, after the load tests; Lighthouse waits at most ${input.maxWaitForLoadMs / 1000} s for a page to go quiet (its default is 45 s), so a page that never goes quiet cannot hold up the run. ${input.serverNote} Signed-in pages are measured in a browser holding the session cookies of an account made for the run (a customer for /profile, staff for /dashboard), signed in through \`POST /api/auth/login\`; /shipping is opened with one product in the saved cart (written into the browser's local storage first), as a shopper arrives from /cart, since with an empty cart it goes back to /cart before it paints. A page that answers 404 is not built yet and is skipped. Budgets (docs/architecture.md#performance-budgets): ${lighthouseBudgetText()}. TBT has no budget of its own and is shown for diagnosis.`,
    '',
  )
  if (input.failure) lines.push(`**Lighthouse did not finish:** ${input.failure}`, '')
  lines.push(
    '| page | signed in or holding | Performance | Accessibility | Best Practices | SEO | FCP | LCP | TBT | CLS | budget | result |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|---|',
  )
  for (const page of input.pages) {
    const who = page.page.signedInAs ?? (page.page.withSavedCart ? 'saved cart' : '–')
    const indexing = page.indexing ?? 'unknown'
    const budget = describePageBudget(page.page.path, indexing)
    const verdict = lighthouseVerdict(page)
    if (!verdict || !page.scores) {
      lines.push(
        `| ${page.page.path} | ${who} | ${page.status}${page.why ? `: ${page.why}` : ''} | | | | | | | | ${budget} | – |`,
      )
      continue
    }
    const s = page.scores
    const seo = page.indexing === 'noindex' ? 'n/a (noindex)' : String(s.seo)
    lines.push(
      `| ${page.page.path} | ${who} | ${s.performance}${(page.runsPerformance?.length ?? 0) > 1 ? ` (runs: ${page.runsPerformance?.join(', ')})` : ''} | ${s.accessibility} | ${s.bestPractices} | ${seo} | ${fmt(page.fcpMs ?? 0)} ms | ${fmt(page.lcpMs ?? 0)} ms | ${fmt(page.tbtMs ?? 0)} ms | ${page.cls} | ${budget} | ${verdictText(verdict)} |`,
    )
  }
  const measured = input.pages.filter((page) => page.status === 'measured')
  lines.push(
    '',
    '**The welcome popup.** Lighthouse starts every page with a fresh profile, so every run is a first visit and the welcome popup (a React island hydrated with `client:idle`, not shown on /cart, /shipping, /checkout, /success) is part of every run on the other pages: its script loads once the browser is idle and, on a first visit, the panel opens over the page. Its script counts towards the page weight and main-thread time, and its panel is painted after load, so it could become the LCP element or shift content; the lines below say what it did in this run. It is measured as a first-time visitor meets it, not hidden for the benchmark.',
  )
  for (const page of measured) {
    const welcome = page.welcomeAudits ?? []
    const inLcp = /welcome/i.test(page.lcpElement ?? '')
    lines.push(
      `- ${page.page.path}: LCP element \`${page.lcpElement || 'not reported'}\`${inLcp ? ' (**the popup is the LCP element**)' : ''}; audits naming a popup element: ${welcome.length > 0 ? welcome.map((id) => `\`${id}\``).join(', ') : 'none'}; ${popupScript(page)}.`,
    )
  }
  const unfinished = measured.filter((page) => (page.unfinished ?? []).length > 0)
  if (unfinished.length > 0) {
    lines.push(
      '',
      `**Requests that never finished.** Lighthouse waits for the network and CPU to go quiet before it stops; a request the page starts and never completes (for example a \`fetch\` whose response body is never read or cancelled) keeps it waiting until its time limit, and the run is flagged "may be incomplete":`,
      '',
    )
    for (const page of unfinished) lines.push(`- ${page.page.path}: ${(page.unfinished ?? []).join(', ')}`)
  }
  // A noindex page loses SEO points for being noindex: that is its purpose, not something to fix.
  const counted = (page: PageScore) =>
    (page.failing ?? []).filter((audit) => !(page.indexing === 'noindex' && audit.category === 'seo'))
  const withFailures = measured.filter((page) => counted(page).length > 0 || (page.warnings ?? []).length > 0)
  if (withFailures.length > 0) {
    lines.push('', 'Audits that cost points, per page (SEO audits of noindex pages left out):', '')
    for (const page of withFailures) {
      lines.push(`- ${page.page.path}:`)
      for (const audit of counted(page)) lines.push(`  - ${audit.category}: ${audit.text}`)
      for (const warning of page.warnings ?? []) lines.push(`  - run warning: ${warning}`)
    }
  }
  lines.push('')
  return lines
}

/**
 * Section 3 alone, for `npm run bench -- --only=large-shop`, saying when and how it was measured: the
 * other sections of the file stay those of the last full run.
 */
export function renderLargeShopSection(
  section: ReportInput['largeShop'],
  flags: string[],
  run: { date: Date; nproc: number; loadAverage: { start: number; end: number } },
): string {
  const [heading = '', blank = '', ...rest] = largeShopSection(section)
  const { start, end } = run.loadAverage
  const note = `Measured ${run.date.toISOString().replace(/\.\d+Z$/, 'Z')} by \`npm run bench -- ${flags.join(' ')}\`, on its own: the summary and the other sections are from the run named at the top. Load average (1 min) at start / end: ${start.toFixed(2)} / ${end.toFixed(2)}${Math.max(start, end) > run.nproc ? ` (above ${run.nproc}: other work competed for the CPUs, so these latencies are distorted)` : ''}.`
  return `${[heading, blank, note, '', ...rest].join('\n').trimEnd()}\n`
}

/**
 * `document` with the section that starts at the line `heading` (up to the next `## ` heading) replaced by
 * `section`; null when it has no such section.
 */
export function replaceSection(document: string, heading: string, section: string): string | null {
  const lines = document.split('\n')
  const start = lines.indexOf(heading)
  if (start === -1) return null
  let end = lines.findIndex((line, index) => index > start && line.startsWith('## '))
  if (end === -1) end = lines.length
  const after = lines.slice(end)
  return [
    ...lines.slice(0, start),
    ...section.trimEnd().split('\n'),
    ...(after.length > 0 ? ['', ...after] : ['']),
  ].join('\n')
}

// ---------------------------------------------------------------------------------------------------------

export function renderReport(input: ReportInput): string {
  const m = input.machine
  const lines: string[] = ['# Benchmarks', '']
  if (input.quick) {
    lines.push(
      '> **Quick run on a shared machine — rerun `npm run bench` for real numbers.** These numbers come from `npm run bench -- --quick` (1 s warm-up, 3 s per scenario, a smaller large shop, Lighthouse on 2 pages) while other work was using the same CPUs, so they are distorted and only show that the benchmark runs.',
      '',
    )
  }
  lines.push(
    `Measured ${m.date} by \`npm run bench${input.flags.length > 0 ? ` -- ${input.flags.join(' ')}` : ''}\` (scripts/bench.ts). Targets are the budgets of docs/architecture.md#performance-budgets, as scripts/bench/targets.ts states them. Every load number is also given as a ratio to a static-file baseline measured in the same run on the same server, so runs on different machines can be compared.`,
    '',
    ...summarySection(input),
    '## Machine',
    '',
    '| fact | value |',
    '|---|---|',
    `| CPUs (\`nproc\`) | ${m.nproc} |`,
    `| CPU model | ${m.cpuModel} |`,
    `| Bun (server) | ${m.bun} |`,
    `| Node (load generator) | ${m.node} |`,
    `| Chromium | ${m.chromium} |`,
    `| Lighthouse | ${m.lighthouse ?? 'not run'} |`,
    `| autocannon | ${m.autocannon} |`,
    `| site build measured | ${m.siteBuiltAt} |`,
    `| load average (1 min) at start / end | ${m.loadAverage.start.toFixed(2)} / ${m.loadAverage.end.toFixed(2)} (above ${m.nproc} means other work competed for the CPUs) |`,
    '',
  )
  if (input.load === 'skipped')
    lines.push('## 1. API throughput and latency', '', 'Skipped (`--skip-load`).', '')
  else lines.push(...loadSection(input.load))
  if (input.load !== 'skipped')
    for (const more of input.moreLoads ?? []) lines.push(...workersSection(input.load, more))
  lines.push(...startupSection(input))
  lines.push(...largeShopSection(input.largeShop))

  lines.push('## 4. JavaScript per page', '')
  if (input.budget) {
    lines.push(
      `From \`npm run budget\` (scripts/js-budget.ts): gzip -9 of every script a built page loads, each file once; budgets ${TARGETS.javascript.contentPageKib} KiB on content pages, ${TARGETS.javascript.appPageKib} KiB on cart/checkout/account/staff pages (Stripe.js not counted).`,
      '',
      '```text',
      input.budget.output.trim(),
      '```',
      '',
      input.budget.exitCode === 0
        ? 'All pages within budget.'
        : `**Over budget** (js-budget exited ${input.budget.exitCode}).`,
      '',
    )
  } else lines.push('Not measured (no build).', '')

  if (input.lighthouse === 'skipped') lines.push('## 5. Lighthouse', '', 'Skipped (`--skip-lighthouse`).', '')
  else lines.push(...lighthouseSection(input.lighthouse))
  if (input.findings) lines.push('## 6. Where the time goes', '', input.findings.trim(), '')
  return `${lines.join('\n').trimEnd()}\n`
}
