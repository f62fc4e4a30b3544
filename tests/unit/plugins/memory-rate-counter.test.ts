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

  test('a refusal says how many seconds remain of the window', async () => {
    const clock = fixedClock(new Date('2026-11-23T12:00:15Z'))
    const hit = createMemoryRateCounter(clock)
    for (let i = 0; i < 3; i++) await hit('10.0.0.1', LIMIT)
    await expect(hit('10.0.0.1', LIMIT)).rejects.toMatchObject({
      kind: 'too-many',
      message: 'Too many rate requests.',
      retryAfterSeconds: 45,
    })
  })

  test('a new window starts every client again', async () => {
    const clock = fixedClock(new Date('2026-11-23T12:00:00Z'))
    const hit = createMemoryRateCounter(clock)
    for (let i = 0; i < 3; i++) await hit('10.0.0.1', LIMIT)
    await expect(hit('10.0.0.1', LIMIT)).rejects.toThrow()
    clock.advance(59_999)
    await expect(hit('10.0.0.1', LIMIT)).rejects.toThrow()
    clock.advance(1)
    for (let i = 0; i < 3; i++) await hit('10.0.0.1', LIMIT)
    await expect(hit('10.0.0.1', LIMIT)).rejects.toThrow()
  })

  test('limits with the same name share one allowance; other names count apart', async () => {
    const hit = createMemoryRateCounter(fixedClock(new Date('2026-11-23T12:00:00Z')))
    const sameName = { ...LIMIT, message: 'Same counter, other words.' }
    const otherName = { ...LIMIT, name: 'discount-attempts' }
    await hit('10.0.0.1', LIMIT)
    await hit('10.0.0.1', sameName)
    await hit('10.0.0.1', LIMIT)
    await expect(hit('10.0.0.1', sameName)).rejects.toThrow('Same counter, other words.')
    for (let i = 0; i < 3; i++) await hit('10.0.0.1', otherName)
    await expect(hit('10.0.0.1', otherName)).rejects.toThrow()
  })

  test("when a window turns, other limits' ended windows are dropped with their counts", async () => {
    const clock = fixedClock(new Date('2026-11-23T12:00:00Z'))
    const hit = createMemoryRateCounter(clock)
    const hourly = { ...LIMIT, name: 'newsletter', windowMs: 3_600_000 }
    const other = { ...LIMIT, name: 'checkout' }
    for (let i = 0; i < 3; i++) await hit('10.0.0.1', other)
    await hit('10.0.0.1', hourly)
    await hit('10.0.0.1', LIMIT)
    expect(hit.tablesHeld()).toBe(3)
    clock.advance(30_000)
    await hit('10.0.0.2', LIMIT)
    expect(hit.tablesHeld()).toBe(3)
    // The minute is over: the first request of the new one drops the ended minute of 'checkout', while
    // the hour that is still running keeps its counts.
    clock.advance(30_000)
    await hit('10.0.0.1', LIMIT)
    expect(hit.tablesHeld()).toBe(2)
    for (let i = 0; i < 3; i++) await hit('10.0.0.1', other)
    await expect(hit('10.0.0.1', other)).rejects.toThrow()
    for (let i = 0; i < 2; i++) await hit('10.0.0.1', hourly)
    await expect(hit('10.0.0.1', hourly)).rejects.toThrow()
  })

  test('a limit of zero refuses the first request', async () => {
    const hit = createMemoryRateCounter(fixedClock(new Date('2026-11-23T12:00:00Z')))
    await expect(hit('10.0.0.1', { ...LIMIT, max: 0 })).rejects.toThrow('Too many rate requests.')
  })

  test('a full table drops the client counted first, and only that one', async () => {
    const hit = createMemoryRateCounter(fixedClock(new Date('2026-11-23T12:00:00Z')))
    for (let i = 0; i < 3; i++) await hit('first', LIMIT)
    for (let i = 0; i < 3; i++) await hit('second', LIMIT)
    // 100,000 clients fit: the 99,998 more fill the table without dropping anyone.
    for (let i = 0; i < 99_998; i++) await hit(`fill-${i}`, LIMIT)
    await expect(hit('first', LIMIT)).rejects.toThrow()
    // One more new client: the first counted is dropped and may start again; the second is still held.
    await hit('one-more', LIMIT)
    await expect(hit('second', LIMIT)).rejects.toThrow()
    await hit('first', LIMIT)
  })

  test('a flood of new addresses keeps each request cheap once the table is full', async () => {
    const clock = fixedClock(new Date('2026-11-23T12:00:00Z'))
    const timeNewClients = async (hit: ReturnType<typeof createMemoryRateCounter>, prefix: string) => {
      const started = performance.now()
      for (let i = 0; i < 20_000; i++) await hit(`${prefix}-${i}`, LIMIT)
      return performance.now() - started
    }
    // 20,000 new clients into an empty table: the yardstick of this machine's speed at this moment.
    const empty = await timeNewClients(createMemoryRateCounter(clock), 'first')
    const hit = createMemoryRateCounter(clock)
    // Fill the table past its cap within one window (nothing expires), as a load of distinct clients does.
    for (let i = 0; i < 110_000; i++) await hit(`fill-${i}`, LIMIT)
    const full = await timeNewClients(hit, 'more')
    // Dropping only the oldest client keeps the full table within a small multiple of the empty one (each
    // new client also empties one slot). Scanning the whole table on each request cost about 1,000× (the
    // rates fell to 217 per second). Measured in one run, so a busy machine slows both alike.
    expect(full).toBeLessThan(empty * 60 + 500)
  })
})
