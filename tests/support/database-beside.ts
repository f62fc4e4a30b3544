import type { Client } from '@libsql/client'
import { createFileClient } from '../../db/connection-pool'

/** Longer than the server's own wait (db/client.ts BUSY_TIMEOUT_MS): a test beside a busy server is patient. */
const WAIT_FOR_LOCK_MS = 10_000

/**
 * A client for a test to read or write the database of a shop server running beside it (`file:` URL or
 * path), made as the shop makes its own (db/connection-pool.ts), so it behaves as another instance of the
 * shop would: a write waits up to WAIT_FOR_LOCK_MS for the server's lock, and one that gave up waiting is
 * an error. libSQL's plain client lends a connection whose write failed busy again, and a write on it then
 * answers that it changed its row while nothing is ever committed: a test's figure or role written while the
 * server committed was silently lost, and the test went on as if it had been set.
 */
export function databaseBeside(url: string): Client {
  return createFileClient(url.replace(/^file:/, ''), { timeout: WAIT_FOR_LOCK_MS })
}
