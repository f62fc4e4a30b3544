import { errorMessage } from './log'

/**
 * Whether an error says there is no room left to write: SQLite's SQLITE_FULL ("database or disk is
 * full"), or the file system's ENOSPC (no space left on the device) or EDQUOT (over quota), from writing
 * a label or an e-mail to the data folder.
 */
export function isStorageFull(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = String((current as { code?: unknown }).code ?? '')
    if (code.startsWith('SQLITE_FULL') || code === 'ENOSPC' || code === 'EDQUOT') return true
    if (/database or disk is full|no space left on device/i.test(errorMessage(current))) return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

/**
 * Whether the last write this process tried failed for want of room. Set by whoever meets the error (a
 * request, a job); /api/ready answers 503 while it is set, and clears it once a trial write succeeds.
 */
export const storage = { full: false }

/** Notes a failed write if `error` says the disk is full; answers whether it did. */
export function noteIfStorageFull(error: unknown): boolean {
  if (!isStorageFull(error)) return false
  storage.full = true
  return true
}
