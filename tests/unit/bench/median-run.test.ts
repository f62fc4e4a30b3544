import { describe, expect, test } from 'bun:test'
import { medianRun, type PageScore } from '../../../scripts/bench/lighthouse'

const run = (performance: number, tbtMs: number, why = ''): PageScore => ({
  page: { path: '/about' },
  status: 'measured',
  scores: { performance, accessibility: 100, bestPractices: 100, seo: 100 },
  tbtMs,
  warnings: why ? [why] : [],
})

describe("a page's median Lighthouse run", () => {
  test('the middle Performance of three, whichever order they ran in; every run kept beside it', () => {
    const median = medianRun([run(100, 10, 'first'), run(97, 190, 'second'), run(99, 120, 'third')])
    expect(median.scores?.performance).toBe(99)
    expect(median.warnings).toEqual(['third'])
    expect(median.runsPerformance).toEqual([100, 97, 99])
  })

  test('of equal scores, more blocking time counts as the lower', () => {
    const median = medianRun([run(99, 40, 'light'), run(99, 140, 'heavy'), run(100, 0, 'best')])
    expect(median.warnings).toEqual(['light'])
    expect(medianRun([run(99, 40, 'light'), run(99, 140, 'heavy')]).warnings).toEqual(['heavy'])
  })

  test('each budgeted number is its own median: one late paint does not stand for the page', () => {
    const late = { ...run(100, 40, 'late paint'), fcpMs: 868, lcpMs: 1_865, cls: 0 }
    const median = medianRun([
      { ...run(100, 20), fcpMs: 850, lcpMs: 870, cls: 0 },
      late,
      { ...run(100, 60), fcpMs: 900, lcpMs: 905, cls: 0.02 },
    ])
    expect(median.warnings).toEqual(['late paint'])
    expect([median.fcpMs, median.lcpMs, median.tbtMs, median.cls]).toEqual([868, 905, 40, 0])
    // Of two runs the worse number counts.
    expect(medianRun([late, { ...run(99, 90), fcpMs: 800, lcpMs: 820, cls: 0 }]).lcpMs).toBe(1_865)
  })

  test('a failed run is left out; with none measured the last failure stands', () => {
    const failed: PageScore = { page: { path: '/about' }, status: 'failed', why: 'NO_NAVSTART' }
    expect(medianRun([failed, run(98, 150), run(100, 0)]).runsPerformance).toEqual([98, 100])
    expect(medianRun([failed, { ...failed, why: 'again' }]).why).toBe('again')
  })
})
