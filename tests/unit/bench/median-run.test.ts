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

  test('a failed run is left out; with none measured the last failure stands', () => {
    const failed: PageScore = { page: { path: '/about' }, status: 'failed', why: 'NO_NAVSTART' }
    expect(medianRun([failed, run(98, 150), run(100, 0)]).runsPerformance).toEqual([98, 100])
    expect(medianRun([failed, { ...failed, why: 'again' }]).why).toBe('again')
  })
})
