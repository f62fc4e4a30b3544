import { describe, expect, test } from 'bun:test'
import type { PageScore } from '../../../scripts/bench/lighthouse'
import {
  type ReportInput,
  renderLargeShopSection,
  renderReport,
  replaceSection,
  WHERE_EXPLAINED,
} from '../../../scripts/bench/report'
import type { ScenarioResult } from '../../../scripts/bench/types'

const machine: ReportInput['machine'] = {
  date: '2026-11-23T01:18:36Z',
  nproc: 2,
  cpuModel: 'test CPU',
  bun: '1.4.5',
  node: 'v20.20.2',
  chromium: 'Chromium 156',
  lighthouse: '13.5.0',
  autocannon: '9.0.0',
  siteBuiltAt: 'dist/ from 2026-11-23T01:16:03Z',
  loadAverage: { start: 0.5, end: 0.7 },
}

const perfect = { performance: 100, accessibility: 100, bestPractices: 100, seo: 100 }

function measured(path: string, indexing: 'indexable' | 'noindex', scores = perfect): PageScore {
  return {
    page: { path },
    status: 'measured',
    indexing,
    scores,
    fcpMs: 900,
    lcpMs: 1_100,
    tbtMs: 0,
    cls: 0,
    failing:
      scores.seo < 100
        ? [{ category: 'seo', text: 'Page is blocked from indexing (is-crawlable, score 0)' }]
        : [],
  }
}

function report(overrides: Partial<ReportInput>): string {
  return renderReport({
    quick: false,
    flags: [],
    machine,
    load: 'skipped',
    startup: 'skipped',
    largeShop: 'skipped',
    budget: null,
    lighthouse: 'skipped',
    findings: null,
    ...overrides,
  })
}

describe('the report', () => {
  test('ends with the profile findings when there are some', () => {
    const text = report({ findings: 'Commits dominate the write paths.\n' })
    expect(text.trimEnd().endsWith('## 6. Where the time goes\n\nCommits dominate the write paths.')).toBe(
      true,
    )
    expect(report({})).not.toContain('Where the time goes')
  })

  test('shows SEO as n/a on a noindex page and does not count it, nor list its SEO audits', () => {
    const text = report({
      lighthouse: {
        pages: [measured('/cart', 'noindex', { ...perfect, seo: 66 }), measured('/about', 'indexable')],
        serverNote: '',
        maxWaitForLoadMs: 25_000,
        runsPerPage: 1,
      },
    })
    const cartRow = text.split('\n').find((line) => line.startsWith('| /cart |'))
    expect(cartRow).toContain('| n/a (noindex) |')
    expect(cartRow).toContain('SEO n/a')
    expect(cartRow?.endsWith('| met |')).toBe(true)
    expect(text).not.toContain('is-crawlable')
    expect(text).toContain(
      '| Lighthouse | per page, section 5 | 2 of 2 pages measured | met on every page measured |',
    )
  })

  test('still counts SEO on an indexable page', () => {
    const text = report({
      lighthouse: {
        pages: [measured('/about', 'indexable', { ...perfect, seo: 92 })],
        serverNote: '',
        maxWaitForLoadMs: 25_000,
        runsPerPage: 1,
      },
    })
    expect(text).toContain('**missed**: SEO 92 < 100')
  })

  test("with several runs a page shows its median run and every run's Performance", () => {
    const text = report({
      lighthouse: {
        pages: [{ ...measured('/about', 'indexable'), runsPerformance: [97, 100, 100] }],
        serverNote: '',
        maxWaitForLoadMs: 25_000,
        runsPerPage: 3,
      },
    })
    expect(text).toContain('| /about | – | 100 (runs: 97, 100, 100) |')
    expect(text).toContain('3 runs per page')
  })

  test('names a page that is not built yet instead of scoring it', () => {
    const text = report({
      lighthouse: {
        pages: [
          {
            page: { path: '/dashboard', signedInAs: 'staff' },
            status: 'not found',
            why: 'answers 404 (not built yet)',
          },
        ],
        serverNote: '',
        maxWaitForLoadMs: 25_000,
        runsPerPage: 1,
      },
    })
    expect(text).toContain('| /dashboard | staff | not found: answers 404 (not built yet) |')
    expect(text).toContain(
      '0 of 1 pages measured; not measured: /dashboard (not found: answers 404 (not built yet))',
    )
  })

  test('says plainly when the large-shop scenario was skipped', () => {
    const text = report({
      largeShop: {
        skipped: 'large-shop scenario: needs /api/dashboard/* and accounts; skipped',
        sizes: [1_000, 10_000, 100_000],
        connections: 4,
        warmupSeconds: 1,
        durationSeconds: 3,
        stages: [],
      },
    })
    expect(text).toContain('**large-shop scenario: needs /api/dashboard/* and accounts; skipped**')
    expect(text).toContain(
      '| Staff and order-history calls, large shop | p99 ≤ 20 ms with 100,000 orders | large-shop scenario: needs /api/dashboard/* and accounts; skipped | not measured |',
    )
  })

  test('judges start time and memory at rest against the budgets', () => {
    const text = report({
      startup: {
        runs: 5,
        pinning: 'Server pinned to CPU 0 as in section 1.',
        result: {
          startsMs: [420, 380, 1_450, 400, 390],
          medianMs: 400,
          restRssMb: [70, 71, 72, 70, 69],
          medianRestRssMb: 70,
          restAfterMs: 1_000,
        },
      },
    })
    expect(text).toContain('| Start to first answer | ≤ 1,000 ms | median 400 ms of 5 starts | met |')
    expect(text).toContain(
      '| start to first answer | 420 ms, 380 ms, 1,450 ms, 400 ms, 390 ms | 400 ms | ≤ 1,000 ms | met |',
    )
    expect(text).toContain(
      '| Server RSS | ≤ 150 MB at rest and under load | largest 70 MB (at rest after start) | met |',
    )
  })
})

describe('section 6 for every missed target', () => {
  test('a missed line names the item of section 6 that takes it up, and that item is there', async () => {
    const text = report({
      startup: {
        runs: 1,
        pinning: '',
        result: {
          startsMs: [400],
          medianMs: 400,
          restRssMb: [180],
          medianRestRssMb: 180,
          restAfterMs: 1_000,
        },
      },
    })
    expect(text).toContain(
      '| Server RSS | ≤ 150 MB at rest and under load | largest 180 MB (at rest after start) | **missed**: at rest after start: 180 MB > 150 MB (section 6, item 3: its measured floor) |',
    )
    // Every item named is one of findings.md's numbered items, by the target it names.
    const findings = await Bun.file('scripts/bench/findings.md').text()
    const items = [...findings.matchAll(/^(\d)\. \*\*([^*]+)\*\*/gm)].map((match) => [match[1], match[2]])
    const named = {
      'Webhook to order': 'Paid orders',
      'Rate-table quote': 'Rate quote',
      'Server RSS': 'Memory',
      Lighthouse: 'Lighthouse',
      'Staff and order-history calls, large shop': 'Large shop',
      'Checkout session (demo provider)': 'Checkout',
    } as const
    for (const [what, pointer] of Object.entries(WHERE_EXPLAINED)) {
      const number = /item (\d)/.exec(pointer)?.[1]
      const item = items.find(([n]) => n === number)
      expect(item?.[1]).toStartWith(named[what as keyof typeof named])
    }
  })
})

describe('the API load with several worker counts (--workers=1,2)', () => {
  const scenario = (perSecond: number, p99: number, server: number): ScenarioResult => ({
    id: 'catalog',
    title: 'Catalogue',
    method: 'GET',
    path: '/api/catalog',
    requests: perSecond * 8,
    seconds: 8,
    perSecond,
    latency: { p50: 1, p90: 1, p99, max: p99 },
    errors: 0,
    timeouts: 0,
    non2xx: 0,
    statusCodes: { '200': perSecond * 8 },
    cpuPercent: { server, generator: 90 },
    rssPeakMb: 120,
  })
  const load = (workers: number, perSecond: number, server: number) => ({
    workers,
    results: { scenarios: [scenario(perSecond, 2, server)], webhook: null, notes: [] },
    pinning: '',
    connections: 16,
    warmupSeconds: 2,
    durationSeconds: 8,
  })

  test('shows the second count in its own table and beside the first', () => {
    const text = report({ load: load(1, 20_000, 95), moreLoads: [load(2, 30_000, 150)] })
    expect(text).toContain('### 1b. The same with WORKERS=2')
    expect(text).toContain(
      '| Catalogue | 20,000 | 2.00 | 95 % / 90 % | 30,000 | 2.00 | 150 % / 90 % | 1.50× |',
    )
    // Section 1, judged against the targets, stays the first count's.
    expect(text.indexOf('## 1. API throughput and latency')).toBeLessThan(text.indexOf('### 1b.'))
  })
})

describe('the large shop measured alone (--only=large-shop)', () => {
  const section: ReportInput['largeShop'] = {
    sizes: [1_000],
    connections: 4,
    warmupSeconds: 1,
    durationSeconds: 3,
    stages: [
      {
        orders: 1_000,
        counts: { orders: 1_000, orderLines: 2_000, webhookEvents: 3_000, customers: 100, accounts: 101 },
        fillSeconds: 0.2,
        results: [
          {
            id: 'search-email',
            title: 'Order search by e-mail (staff)',
            method: 'GET',
            path: '/api/orders?q=customer42%40crew.example',
            requests: 4_000,
            seconds: 3,
            perSecond: 1_333,
            latency: { p50: 2, p90: 3, p99: 4.5, max: 9 },
            errors: 0,
            timeouts: 0,
            non2xx: 0,
            statusCodes: { '200': 4_000 },
            cpuPercent: { server: 90, generator: 40 },
            rssPeakMb: 80,
          } satisfies ScenarioResult,
        ],
      },
    ],
  }

  test('replaces section 3 and keeps every other line of the file', () => {
    const before = report({})
    const alone = renderLargeShopSection(section, ['--only=large-shop'], {
      date: new Date('2026-11-25T16:00:00.123Z'),
      nproc: 2,
      loadAverage: { start: 12.38, end: 8.23 },
    })
    const after = replaceSection(before, '## 3. Large shop', alone)
    if (after === null) throw new Error('no section 3')
    const outside = (text: string) => {
      const lines = text.split('\n')
      const start = lines.indexOf('## 3. Large shop')
      const end = lines.indexOf('## 4. JavaScript per page')
      return [...lines.slice(0, start), ...lines.slice(end)]
    }
    expect(outside(after)).toEqual(outside(before))
    expect(after).toContain(
      'Measured 2026-11-25T16:00:00Z by `npm run bench -- --only=large-shop`, on its own: the summary and the other sections are from the run named at the top. Load average (1 min) at start / end: 12.38 / 8.23 (above 2: other work competed for the CPUs, so these latencies are distorted).',
    )
    expect(after).toContain(
      '| Order search by e-mail (staff): `GET /api/orders?q=customer42%40crew.example` | 4.50 |',
    )
    expect(after.indexOf('## 3. Large shop')).toBeLessThan(after.indexOf('Order search by e-mail'))
    expect(after.indexOf('Order search by e-mail')).toBeLessThan(after.indexOf('## 4. JavaScript per page'))
    expect(replaceSection('# Benchmarks\n', '## 3. Large shop', alone)).toBeNull()
  })
})
