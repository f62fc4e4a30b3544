// A write that must not be lost waits out a busy database, and a job's outcome also a full disk
// (api/lib/database-busy.ts).
import { describe, expect, test } from 'bun:test'
import { whileBusy } from '../../api/lib/database-busy'

const full = () => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })
const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })

/** A write that fails with `error()` the first `failures` times, then answers 'written'. */
function failingTimes(failures: number, error: () => Error) {
  let tries = 0
  return {
    write: async () => {
      tries += 1
      if (tries <= failures) throw error()
      return 'written'
    },
    tries: () => tries,
  }
}

describe('whileBusy', () => {
  test('tries again while the database is busy', async () => {
    const write = failingTimes(2, busy)
    expect(await whileBusy(write.write, 5_000)).toBe('written')
    expect(write.tries()).toBe(3)
  })

  test('a full disk is thrown at once, for a request to answer 503', async () => {
    const write = failingTimes(1, full)
    await expect(whileBusy(write.write, 5_000)).rejects.toThrow('database or disk is full')
    expect(write.tries()).toBe(1)
  })

  test('with orFull, a full disk is waited out too, as a job waits to write its outcome', async () => {
    const write = failingTimes(2, full)
    expect(await whileBusy(write.write, 5_000, { orFull: true })).toBe('written')
    expect(write.tries()).toBe(3)
  })

  test('a full disk that outlasts the wait is thrown', async () => {
    const write = failingTimes(100, full)
    await expect(whileBusy(write.write, 250, { orFull: true })).rejects.toThrow('database or disk is full')
  })
})
