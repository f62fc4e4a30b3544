// While requests keep arriving the job runner claims at most one job per gap, across all its workers; when
// none arrive it runs jobs back to back (api/modules/jobs/pace.ts).
import { describe, expect, test } from 'bun:test'
import { requestsFirst } from '../../../api/modules/jobs/pace'

const GAP_MS = 20

async function timeTurns(pace: () => Promise<void>, turns: number, workers = 1): Promise<number> {
  const started = performance.now()
  let left = turns
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (left > 0) {
        left -= 1
        await pace()
      }
    }),
  )
  return performance.now() - started
}

describe('requests first', () => {
  test('with no requests arriving, jobs are claimed back to back', async () => {
    expect(
      await timeTurns(
        requestsFirst(() => false, GAP_MS),
        50,
      ),
    ).toBeLessThan(GAP_MS * 3)
  })

  test('while requests arrive, one claim per gap', async () => {
    // 6 claims: the first at once, then five gaps.
    expect(
      await timeTurns(
        requestsFirst(() => true, GAP_MS),
        6,
      ),
    ).toBeGreaterThanOrEqual(GAP_MS * 5 - 2)
  })

  test('the gap holds across the runner’s workers, not per worker', async () => {
    expect(
      await timeTurns(
        requestsFirst(() => true, GAP_MS),
        6,
        4,
      ),
    ).toBeGreaterThanOrEqual(GAP_MS * 5 - 2)
  })

  test('once requests stop, the waiting claim goes ahead without another gap', async () => {
    let busy = true
    const pace = requestsFirst(() => busy, GAP_MS)
    await pace()
    setTimeout(() => {
      busy = false
    }, 5)
    // The first waits out the gap it was in (how long depends on the machine's load, so it is not timed);
    // the two after it take no gap at all: they never sleep.
    await pace()
    const started = performance.now()
    await pace()
    await pace()
    expect(performance.now() - started).toBeLessThan(GAP_MS)
  })
})
