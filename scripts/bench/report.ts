// BENCHMARKS.md from one run's measurements, every number against its DESIGN.md §7 budget.
import { MAX_WAIT_FOR_LOAD_MS, type PageScore } from './lighthouse'
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
  results: LoadResults | null
  failure?: string
  pinning: string
  connections: number
  warmupSeconds: number
  durationSeconds: number
  /** Orders in the database after the webhook run, checked against the sessions sent events. */
  orderCheck?: { orders: number; distinctSessions: number; expected: number; completeSessions: number }
}

export interface ReportInput {
  quick: boolean
  flags: string[]
  machine: MachineFacts
  load: LoadSection | 'skipped'
  budget: { output: string; exitCode: number } | null
  lighthouse: { pages: PageScore[]; failure?: string; serverNote: string } | 'skipped'
}

const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
const ratio = (value: number, base: number) => (base > 0 ? `${(value / base).toFixed(2)}×` : '–')

const cpu = (result: ScenarioResult) =>
  `${result.cpuPercent.server === null ? '?' : `${result.cpuPercent.server} %`} / ${result.cpuPercent.generator} %`

interface Target {
  text: string
  met: (result: ScenarioResult, baseline: ScenarioResult | undefined) => boolean
}

const TARGETS: Record<string, Target> = {
  baseline: { text: 'baseline', met: () => true },
  catalog: {
    text: '≥ 0.8× baseline req/s',
    met: (result, baseline) => !!baseline && result.perSecond >= 0.8 * baseline.perSecond,
  },
  discount: { text: 'p99 ≤ 10 ms', met: (result) => result.latency.p99 <= 10 },
  rates: { text: 'p99 ≤ 10 ms', met: (result) => result.latency.p99 <= 10 },
  checkout: { text: '≥ 1,000 req/s', met: (result) => result.perSecond >= 1000 },
}

/** Met only when the number is within budget and every answer was a success. */
function verdict(met: boolean, result: ScenarioResult): string {
  const failures = result.non2xx + result.errors
  if (failures > 0) return `**missed** (${fmt(failures)} failed requests)`
  return met ? 'met' : '**missed**'
}

function loadSection(load: LoadSection): string[] {
  const lines = ['## 1. API throughput and latency', '']
  lines.push(
    `${load.connections} connections, ${load.warmupSeconds} s warm-up then ${load.durationSeconds} s per scenario, one scenario at a time. ${load.pinning} Every request comes from a different client address (\`X-Forwarded-For\`, \`TRUST_PROXY=true\`), so per-address rate limits see many shoppers, not one abuser. Fresh temporary database and data folder; demo payment provider, built-in rate table, outbox e-mail. Latencies are measured by the load generator for every answer (errors included).`,
    '',
  )
  if (load.failure) lines.push(`**The load test did not finish:** ${load.failure}`, '')
  const results = load.results
  if (!results) return lines
  const baseline = results.scenarios.find((scenario) => scenario.id === 'baseline')
  lines.push(
    '| scenario | request | req/s | × baseline req/s | p50 ms | p99 ms | × baseline p99 | requests | non-2xx | errors | CPU server / generator | DESIGN §7 target | result |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|',
  )
  for (const result of results.scenarios) {
    const target = TARGETS[result.id]
    lines.push(
      `| ${result.title} | \`${result.method} ${result.path}\` | ${fmt(result.perSecond)} | ${ratio(result.perSecond, baseline?.perSecond ?? 0)} | ${fmt(result.latency.p50, 2)} | ${fmt(result.latency.p99, 2)} | ${ratio(result.latency.p99, baseline?.latency.p99 ?? 0)} | ${fmt(result.requests)} | ${fmt(result.non2xx)} | ${fmt(result.errors)} | ${cpu(result)} | ${target?.text ?? ''} | ${result.id === 'baseline' ? '–' : target ? verdict(target.met(result, baseline), result) : ''} |`,
    )
  }
  const webhook = results.webhook
  const check = load.orderCheck
  const ordersOk = !!check && check.orders === check.expected && check.distinctSessions === check.expected
  if (webhook) {
    lines.push(
      `| ${webhook.title} | \`POST ${webhook.path}\` | ${fmt(webhook.perSecond)} events/s, ${fmt(webhook.ordersPerSecond)} new orders/s | ${ratio(webhook.perSecond, baseline?.perSecond ?? 0)} | ${fmt(webhook.latency.p50, 2)} | ${fmt(webhook.latency.p99, 2)} | ${ratio(webhook.latency.p99, baseline?.latency.p99 ?? 0)} | ${fmt(webhook.requests)} | ${fmt(webhook.non2xx)} | ${fmt(webhook.errors)} | ${cpu(webhook)} | ≥ 500 events/s into orders | ${ordersOk ? verdict(webhook.ordersPerSecond >= 500, webhook) : '**missed** (order check failed)'} |`,
    )
  }
  lines.push(
    '',
    "CPU columns: the share of one core the server and the load generator used during the measured seconds (from /proc and Node's `process.cpuUsage`). A server well below 100 % while the generator is near 100 % means the generator, not the server, set that scenario's rate (likely for the static baseline: its rate is then a lower bound, and every ratio to it flatters the API); a pinned server below 100 % with an idle generator means it was waiting (database, or other work on its core).",
  )
  if (webhook) {
    lines.push(
      '',
      `Webhook run: ${fmt(webhook.timedSessions)} checkout sessions (created through the API before the clock started, ${fmt(webhook.sessionsSent - webhook.timedSessions)} more used for warming up the path), one signed \`checkout.session.completed\` event each, signed with the demo provider's public development secret via \`stripe.webhooks.generateTestHeaderStringAsync\`; ${fmt(webhook.redeliveries)} events were delivered a second time about 40 events later, as providers retry. ${fmt(webhook.eventsSent)} events in ${webhook.seconds} s. Answers: ${fmt(webhook.outcomes.processed)} processed into an order, ${fmt(webhook.outcomes.duplicate)} recognised as duplicates, ${fmt(webhook.outcomes.other)} other. The rate counted against the target is new orders per second (redeliveries excluded). Preparing the sessions and signatures took ${webhook.preparationSeconds} s (not timed).`,
    )
    if (check) {
      lines.push(
        '',
        `Order check afterwards, in the database: ${fmt(check.orders)} orders for ${fmt(check.distinctSessions)} distinct checkout sessions; ${fmt(check.expected)} sessions were sent events; ${fmt(check.completeSessions)} checkout sessions marked complete — ${ordersOk ? '**one order per session, none twice**' : '**MISMATCH**'}.`,
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

function popupScript(page: PageScore): string {
  const script = page.welcomeScript
  if (!script) return 'popup script not loaded'
  const time =
    script.mainThreadMs === null
      ? "main-thread time under Lighthouse's reporting threshold"
      : `${fmt(script.mainThreadMs)} ms main-thread time`
  return `popup script ${(script.transferBytes / 1024).toFixed(1)} KiB transferred, ${time}`
}

function lighthouseSection(input: Exclude<ReportInput['lighthouse'], 'skipped'>): string[] {
  const lines = ['## 3. Lighthouse', '']
  lines.push(
    `Mobile, default (simulated) throttling, one run per page with a fresh Chromium profile, after the load test; Lighthouse waits at most ${MAX_WAIT_FOR_LOAD_MS / 1000} s for a page to go quiet (its default is 45 s) so the whole benchmark stays under 10 minutes. ${input.serverNote} Budgets (DESIGN §7): Performance 100 on /, /shop, a product page, /about, /ingredients and ≥ 95 on /cart, /shipping, /login; Accessibility, Best Practices and SEO 100; CLS ≤ 0.01. LCP and TBT have no budget of their own and are shown for diagnosis.`,
    '',
  )
  if (input.failure) lines.push(`**Lighthouse did not finish:** ${input.failure}`, '')
  lines.push(
    '| page | Performance | Accessibility | Best Practices | SEO | LCP | TBT | CLS | budget | result |',
    '|---|--:|--:|--:|--:|--:|--:|--:|---|---|',
  )
  for (const page of input.pages) {
    const budget = `Perf ≥ ${page.page.minPerformance}, others 100, CLS ≤ 0.01`
    if (page.status !== 'measured' || !page.scores) {
      lines.push(
        `| ${page.page.path} | ${page.status}${page.why ? `: ${page.why}` : ''} | | | | | | | ${budget} | – |`,
      )
      continue
    }
    const s = page.scores
    const misses = [
      s.performance < page.page.minPerformance ? 'Performance' : '',
      s.accessibility < 100 ? 'Accessibility' : '',
      s.bestPractices < 100 ? 'Best Practices' : '',
      s.seo < 100 ? 'SEO' : '',
      (page.cls ?? 0) > 0.01 ? 'CLS' : '',
    ].filter(Boolean)
    lines.push(
      `| ${page.page.path} | ${s.performance} | ${s.accessibility} | ${s.bestPractices} | ${s.seo} | ${fmt(page.lcpMs ?? 0)} ms | ${fmt(page.tbtMs ?? 0)} ms | ${page.cls} | ${budget} | ${misses.length === 0 ? 'met' : `**missed**: ${misses.join(', ')}`} |`,
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
  const withFailures = measured.filter(
    (page) => (page.failing ?? []).length > 0 || (page.warnings ?? []).length > 0,
  )
  if (withFailures.length > 0) {
    lines.push('', 'Audits that cost points, per page:', '')
    for (const page of withFailures) {
      lines.push(`- ${page.page.path}:`)
      for (const failing of page.failing ?? []) lines.push(`  - ${failing}`)
      for (const warning of page.warnings ?? []) lines.push(`  - run warning: ${warning}`)
    }
  }
  lines.push('')
  return lines
}

export function renderReport(input: ReportInput): string {
  const m = input.machine
  const lines: string[] = ['# Benchmarks', '']
  if (input.quick) {
    lines.push(
      '> **Quick run on a shared machine — rerun `npm run bench` for real numbers.** These numbers come from `npm run bench -- --quick` (1 s warm-up, 3 s per scenario, Lighthouse on 2 pages) while other work was using the same 2 CPUs, so they are distorted and only show that the benchmark runs.',
      '',
    )
  }
  lines.push(
    `Measured ${m.date} by \`npm run bench${input.flags.length > 0 ? ` -- ${input.flags.join(' ')}` : ''}\` (scripts/bench.ts). Targets are DESIGN.md §7. Every load number is also given as a ratio to a static-file baseline measured in the same run on the same server, so runs on different machines can be compared.`,
    '',
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

  lines.push('## 2. JavaScript per page', '')
  if (input.budget) {
    lines.push(
      'From `npm run budget` (scripts/js-budget.ts): gzip -9 of every script a built page loads, each file once; budgets 85 KiB on content pages, 120 KiB on cart/checkout/account pages (Stripe.js not counted).',
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

  if (input.lighthouse === 'skipped') lines.push('## 3. Lighthouse', '', 'Skipped (`--skip-lighthouse`).', '')
  else lines.push(...lighthouseSection(input.lighthouse))
  return `${lines.join('\n').trimEnd()}\n`
}
