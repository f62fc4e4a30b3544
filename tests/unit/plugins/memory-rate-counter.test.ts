import { describe, expect, test } from 'bun:test'
import { fixedClock } from '../../../api/lib/clock'
import { createMemoryRateCounter } from '../../../api/lib/rate-counters'

const LIMIT = { name: 'rates', max: 3, windowMs: 60_000, message: 'Too many rate requests.' }

describe('the in-memory rate counter', () => {
  test('counts per client and refuses past the limit', async () => {
    const hit = createMemoryRateCounter(fixedClock(new Date('2026-11-23T12:00:00Z')))
    for (let i = 0; i < 3; i++) await hit('10.0.0.1', LIMIT)
    await expect(hit('10.0.0.1', LIMIT)).rejects.toThrow()
    await hit('10.0.0.2', LIMIT)
  })

  test('a flood of new addresses keeps each request cheap once the table is full', async () => {
    const hit = createMemoryRateCounter(fixedClock(new Date('2026-11-23T12:00:00Z')))
    // Fill the table past its cap within one window (nothing expires), as a load of distinct clients does.
    for (let i = 0; i < 110_000; i++) await hit(`fill-${i}`, LIMIT)
    const started = performance.now()
    for (let i = 0; i < 20_000; i++) await hit(`more-${i}`, LIMIT)
    // Dropping only the oldest window: milliseconds. Scanning the full table on each request took seconds.
    expect(performance.now() - started).toBeLessThan(1_500)
  })
})
