// Another process holding the database's write lock, for tests of what the shop does meanwhile.
import { expect } from 'bun:test'

/**
 * Another process takes the write lock (BEGIN EXCLUSIVE) and holds it `ms`. It must be another process:
 * a connection waiting for a lock waits on this thread, so a lock held here could never be let go. Resolves
 * once the lock is held; `released` once it is let go.
 */
export async function lockFor(file: string, ms: number): Promise<{ released: Promise<void> }> {
  const locker = Bun.spawn(
    [
      process.execPath,
      '-e',
      `const { Database } = require('bun:sqlite')
       const db = new Database(${JSON.stringify(file)})
       db.exec('PRAGMA busy_timeout = 10000')
       db.exec('BEGIN EXCLUSIVE')
       console.log('locked')
       await Bun.sleep(${ms})
       db.exec('COMMIT')`,
    ],
    { stdout: 'pipe', stderr: 'inherit' },
  )
  const reader = locker.stdout.getReader()
  const { value } = await reader.read()
  expect(new TextDecoder().decode(value)).toContain('locked')
  return { released: locker.exited.then(() => undefined) }
}
