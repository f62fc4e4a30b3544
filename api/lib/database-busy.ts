import { errorMessage } from './log'
import { isStorageFull } from './storage-full'

/** SQLite's 'database is locked': another process held the write lock past the busy timeout. */
export function isDatabaseBusy(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = String((current as { code?: unknown }).code ?? '')
    if (code.startsWith('SQLITE_BUSY') || /database is locked/i.test(errorMessage(current))) return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

/**
 * Runs a small write that must not be lost (a job marked done, an event marked failed), trying again while
 * another writer holds the database, for up to `forMs`. With `orFull`, also while the disk is full: a
 * background job's outcome waits for room rather than for its lease to run out (minutes), while a request
 * is answered 503 at once instead. The waits are timers, so the process keeps serving meanwhile. Any other
 * error, or a lock (or a full disk) lasting past `forMs`, is thrown.
 */
export async function whileBusy<T>(
  write: () => Promise<T>,
  forMs = 60_000,
  options: { orFull?: boolean } = {},
): Promise<T> {
  const deadline = Date.now() + forMs
  for (let pause = 100; ; pause = Math.min(pause * 2, 2000)) {
    try {
      return await write()
    } catch (error) {
      const waitable = isDatabaseBusy(error) || (options.orFull === true && isStorageFull(error))
      if (!waitable || Date.now() + pause > deadline) throw error
      await Bun.sleep(pause)
    }
  }
}
