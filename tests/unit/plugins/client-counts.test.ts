import { heapStats } from 'bun:jsc'
import { describe, expect, test } from 'bun:test'
import { ClientCounts } from '../../../api/lib/client-counts'

/** What the table must answer, kept the plain way: a Map and the order clients came in. */
function referenceCounts(maxClients: number) {
  const counts = new Map<string, number>()
  const order: string[] = []
  const increment = (key: string): number => {
    const count = (counts.get(key) ?? 0) + 1
    if (count === 1) {
      if (counts.size >= maxClients) counts.delete(order.shift() as string)
      order.push(key)
    }
    counts.set(key, count)
    return count
  }
  return { increment, size: () => counts.size }
}

/** A small deterministic generator, so a failure can be replayed. */
function numbers(seed: number) {
  let state = seed
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state
  }
}

describe('client counts in typed arrays', () => {
  test('count each client as a Map would, through growth and drops of the oldest', () => {
    for (const maxClients of [1, 7, 50, 3000]) {
      const table = new ClientCounts(maxClients)
      const reference = referenceCounts(maxClients)
      const next = numbers(maxClients)
      // Keys drawn from a pool larger than the table, so clients come back after being dropped and runs of
      // the probe table are emptied and refilled (backward-shift deletion) thousands of times.
      for (let i = 0; i < 40_000; i++) {
        const key = `10.0.${next() % (maxClients * 3)}.1`
        expect(table.increment(key)).toBe(reference.increment(key))
      }
      expect(table.size).toBe(reference.size())
    }
  })

  test('a full table drops the client counted first, and only that one', () => {
    const table = new ClientCounts(3)
    table.increment('a')
    table.increment('a')
    table.increment('b')
    table.increment('c')
    table.increment('d') // full: 'a' leaves
    expect(table.increment('b')).toBe(2)
    expect(table.increment('a')).toBe(1) // 'a' starts again; 'c' leaves for it
    expect(table.increment('d')).toBe(2)
    expect(table.size).toBe(3)
  })

  test('counting 100,000 clients leaves no object per client for the collector to walk', () => {
    const table = new ClientCounts(100_000)
    Bun.gc(true)
    const before = heapStats().objectCount
    for (let i = 0; i < 100_000; i++) table.increment(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)
    Bun.gc(true)
    // A Map of the same clients keeps 100,000 key strings alive; the table keeps a handful of typed arrays.
    expect(heapStats().objectCount - before).toBeLessThan(1_000)
    expect(table.size).toBe(100_000)
  })

  test('refuses a table that could hold nobody', () => {
    expect(() => new ClientCounts(0)).toThrow('maxClients must be at least 1')
  })
})
