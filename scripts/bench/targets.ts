// The performance budgets (docs/architecture.md#performance-budgets), the one place the benchmark reads
// them from, and the functions that judge one run's measurements against them. When a budget changes,
// change this table and docs/architecture.md, and the report follows. Pure code: no I/O, so
// the judgements are tested with fixed numbers (tests/unit/bench).
import type { ScenarioResult, WebhookResult } from './types'

/** What one API scenario must reach; every limit given must hold. */
export interface ScenarioTarget {
  /** Requests per second as a share of the static-file baseline measured in the same run. */
  minBaselineRatio?: number
  minPerSecond?: number
  maxP99Ms?: number
}

export const TARGETS = {
  /** API on one core, 16 connections, beside a static-file baseline from the same run. */
  api: {
    catalog: { minBaselineRatio: 0.8 },
    discount: { maxP99Ms: 5, minBaselineRatio: 0.3 },
    rates: { maxP99Ms: 5, minPerSecond: 5_000 },
    checkout: { minPerSecond: 2_000 },
  } satisfies Record<string, ScenarioTarget>,
  /** Signed checkout.session.completed events into new orders, exactly one order per checkout session. */
  webhook: { minOrdersPerSecond: 1_500 },
  /** From starting `bun api/main.ts` (built site, migrated database) to the first 200 on /api/health. */
  startup: { maxMs: 1_000 },
  /** JavaScript a page loads, gzip; app pages are cart, checkout, account and staff pages (scripts/js-budget.ts). */
  javascript: { contentPageKib: 85, appPageKib: 120 },
  /** Server RSS at rest and at its peak under every load run. */
  memory: { maxRssMb: 150 },
  /** Staff and order-history calls with a large shop's data, at every size measured up to the largest. */
  largeShop: { orders: 100_000, webhookEvents: 300_000, customers: 10_000, maxP99Ms: 20 },
  lighthouse: {
    /** Minimum Performance score of the pages that need JavaScript and a signed-in state or a cart. */
    appPages: { paths: ['/cart', '/shipping', '/login', '/profile', '/dashboard'], minPerformance: 98 },
    /** Every indexable page: the static pages search engines and shoppers land on. */
    indexablePerformance: 100,
    /** First and largest paint on indexable pages, under Lighthouse's simulated slow 4G (150 ms round trip). */
    indexablePaint: { maxFcpMs: 1_000, maxLcpMs: 1_200 },
    accessibility: 100,
    bestPractices: 100,
    /** Only on indexable pages: cart, checkout, account and staff pages are noindex on purpose. */
    seo: 100,
    maxCls: 0.01,
    /** Pages that must not move at all once painted. */
    noShift: ['/dashboard'],
  },
} as const

const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })

/** A judgement: met when nothing was missed; each miss says what was measured against what was asked. */
export interface Verdict {
  met: boolean
  misses: string[]
}

const verdictOf = (misses: string[]): Verdict => ({ met: misses.length === 0, misses })

/** The target in words, as the report's target column shows it. */
export function describeScenarioTarget(target: ScenarioTarget): string {
  const parts: string[] = []
  if (target.maxP99Ms !== undefined) parts.push(`p99 ≤ ${fmt(target.maxP99Ms)} ms`)
  if (target.minBaselineRatio !== undefined) parts.push(`≥ ${target.minBaselineRatio}× baseline req/s`)
  if (target.minPerSecond !== undefined) parts.push(`≥ ${fmt(target.minPerSecond)} req/s`)
  return parts.join(', ')
}

/** Failed answers miss any target: a fast error is not a fast answer. */
function failedRequests(result: ScenarioResult): string[] {
  const failures = result.non2xx + result.errors
  return failures > 0 ? [`${fmt(failures)} failed requests`] : []
}

export function judgeScenario(
  target: ScenarioTarget,
  result: ScenarioResult,
  baseline: ScenarioResult | undefined,
): Verdict {
  const misses = failedRequests(result)
  if (target.maxP99Ms !== undefined && result.latency.p99 > target.maxP99Ms)
    misses.push(`p99 ${fmt(result.latency.p99, 2)} ms > ${fmt(target.maxP99Ms)} ms`)
  if (target.minBaselineRatio !== undefined) {
    if (!baseline || baseline.perSecond <= 0) misses.push('no baseline to compare with')
    else {
      const ratio = result.perSecond / baseline.perSecond
      // Three decimals: 0.7975 shown as "0.80×" would read as a pass.
      if (ratio < target.minBaselineRatio)
        misses.push(`${ratio.toFixed(3)}× baseline < ${target.minBaselineRatio}×`)
    }
  }
  if (target.minPerSecond !== undefined && result.perSecond < target.minPerSecond)
    misses.push(`${fmt(result.perSecond)} req/s < ${fmt(target.minPerSecond)}`)
  return verdictOf(misses)
}

/** The database after the webhook run: orders against the sessions that were sent a completion event. */
export interface OrderCheck {
  orders: number
  distinctSessions: number
  completeSessions: number
  /** Sessions that were sent events. */
  expected: number
  /** Jobs in the database (e-mails, labels) when the load ended, and how many of them still waited. */
  jobs?: number
  jobsQueued?: number
}

export const describeWebhookTarget = () =>
  `≥ ${fmt(TARGETS.webhook.minOrdersPerSecond)} new orders/s, exactly one order per session`

export function onePerSession(check: OrderCheck | undefined): boolean {
  return !!check && check.orders === check.expected && check.distinctSessions === check.expected
}

export function judgeWebhook(result: WebhookResult, check: OrderCheck | undefined): Verdict {
  // A redelivery another worker still held is asked to come again (503, Retry-After): the answer the
  // provider needs, so it is not counted as a failure.
  const failures = result.non2xx + result.errors - result.outcomes.deliverAgain
  const misses = failures > 0 ? [`${fmt(failures)} failed requests`] : []
  if (result.ordersPerSecond < TARGETS.webhook.minOrdersPerSecond)
    misses.push(`${fmt(result.ordersPerSecond)} new orders/s < ${fmt(TARGETS.webhook.minOrdersPerSecond)}`)
  if (!check) misses.push('orders not checked')
  else if (!onePerSession(check))
    misses.push(
      `${fmt(check.orders)} orders for ${fmt(check.distinctSessions)} sessions, ${fmt(check.expected)} expected`,
    )
  return verdictOf(misses)
}

export function judgeStartup(medianMs: number): Verdict {
  return verdictOf(
    medianMs > TARGETS.startup.maxMs ? [`${fmt(medianMs)} ms > ${fmt(TARGETS.startup.maxMs)} ms`] : [],
  )
}

/** RSS readings in MiB, each with what the server was doing; the largest must stay within budget. */
export function judgeMemory(readings: { what: string; rssMb: number }[]): Verdict {
  if (readings.length === 0) return verdictOf(['not measured'])
  return verdictOf(
    readings
      .filter((reading) => reading.rssMb > TARGETS.memory.maxRssMb)
      .map((reading) => `${reading.what}: ${fmt(reading.rssMb)} MB > ${fmt(TARGETS.memory.maxRssMb)} MB`),
  )
}

/** One staff or order-history call measured at one shop size. */
export interface LargeShopMeasurement {
  endpoint: string
  orders: number
  p99Ms: number
  failed: number
}

/**
 * Every call within the p99 budget at every size measured, and measured at the full size: a small shop
 * that is fast says nothing about the large one.
 */
export function judgeLargeShop(measurements: LargeShopMeasurement[]): Verdict {
  const { maxP99Ms, orders: fullSize } = TARGETS.largeShop
  const misses: string[] = []
  const largest = Math.max(0, ...measurements.map((measurement) => measurement.orders))
  if (largest < fullSize) misses.push(`measured up to ${fmt(largest)} orders, not ${fmt(fullSize)}`)
  for (const measurement of measurements) {
    const at = `${measurement.endpoint} at ${fmt(measurement.orders)} orders`
    if (measurement.failed > 0) misses.push(`${at}: ${fmt(measurement.failed)} failed requests`)
    if (measurement.p99Ms > maxP99Ms)
      misses.push(`${at}: p99 ${fmt(measurement.p99Ms, 2)} ms > ${maxP99Ms} ms`)
  }
  return verdictOf(misses)
}

/** The Performance budget of a page, or null when the budgets set none for it. */
export function performanceBudget(
  path: string,
  indexing: 'indexable' | 'noindex' | 'unknown',
): number | null {
  const budget = TARGETS.lighthouse
  if ((budget.appPages.paths as readonly string[]).includes(path)) return budget.appPages.minPerformance
  return indexing === 'indexable' ? budget.indexablePerformance : null
}

/** The most a page may shift its layout. */
export function clsBudget(path: string): number {
  return (TARGETS.lighthouse.noShift as readonly string[]).includes(path) ? 0 : TARGETS.lighthouse.maxCls
}

export interface LighthouseScores {
  performance: number
  accessibility: number
  bestPractices: number
  seo: number
}

/** What a page's first paints measured: layout shift, first and largest contentful paint. */
export interface PaintTimes {
  cls: number
  fcpMs?: number
  lcpMs?: number
}

/** A page's scores against its budgets; SEO and paint times count only where search engines are invited in. */
export function judgePage(
  path: string,
  scores: LighthouseScores,
  paint: PaintTimes,
  indexing: 'indexable' | 'noindex',
): Verdict {
  const budget = TARGETS.lighthouse
  const misses: string[] = []
  const minPerformance = performanceBudget(path, indexing)
  if (minPerformance !== null && scores.performance < minPerformance)
    misses.push(`Performance ${scores.performance} < ${minPerformance}`)
  if (scores.accessibility < budget.accessibility)
    misses.push(`Accessibility ${scores.accessibility} < ${budget.accessibility}`)
  if (scores.bestPractices < budget.bestPractices)
    misses.push(`Best Practices ${scores.bestPractices} < ${budget.bestPractices}`)
  if (indexing === 'indexable') {
    if (scores.seo < budget.seo) misses.push(`SEO ${scores.seo} < ${budget.seo}`)
    const { maxFcpMs, maxLcpMs } = budget.indexablePaint
    if (paint.fcpMs !== undefined && paint.fcpMs > maxFcpMs)
      misses.push(`FCP ${fmt(paint.fcpMs)} ms > ${fmt(maxFcpMs)} ms`)
    if (paint.lcpMs !== undefined && paint.lcpMs > maxLcpMs)
      misses.push(`LCP ${fmt(paint.lcpMs)} ms > ${fmt(maxLcpMs)} ms`)
  }
  const maxCls = clsBudget(path)
  if (paint.cls > maxCls) misses.push(`CLS ${paint.cls} > ${maxCls}`)
  return verdictOf(misses)
}

/** The page's budget in words, for the report's budget column. */
export function describePageBudget(path: string, indexing: 'indexable' | 'noindex' | 'unknown'): string {
  const budget = TARGETS.lighthouse
  const minPerformance = performanceBudget(path, indexing)
  const { maxFcpMs, maxLcpMs } = budget.indexablePaint
  const parts = [
    minPerformance === null
      ? indexing === 'unknown'
        ? `Perf ${budget.indexablePerformance} if indexable`
        : 'Perf: no budget'
      : `Perf ${minPerformance === 100 ? '' : '≥ '}${minPerformance}`,
    `A11y ${budget.accessibility}`,
    `BP ${budget.bestPractices}`,
    indexing === 'noindex'
      ? 'SEO n/a'
      : indexing === 'indexable'
        ? `SEO ${budget.seo}, FCP ≤ ${fmt(maxFcpMs)} ms, LCP ≤ ${fmt(maxLcpMs)} ms`
        : `SEO ${budget.seo}, FCP ≤ ${fmt(maxFcpMs)} ms, LCP ≤ ${fmt(maxLcpMs)} ms if indexable`,
    `CLS ${clsBudget(path) === 0 ? '0' : `≤ ${clsBudget(path)}`}`,
  ]
  return parts.join(', ')
}
