/**
 * The thread that checkpoints the WAL of a server's database (db/checkpoints.ts starts it): its own libSQL
 * connection copies what the WAL holds back into the database file and syncs both files, again and again,
 * so the server's thread never waits for those syncs. A PASSIVE checkpoint takes no lock a writer or reader
 * waits for: it copies what it can and leaves the rest for the next pass; when another process's thread is
 * checkpointing the same file it is simply busy, and this pass is skipped.
 */
import Database from 'libsql'

declare const self: Worker

type Message = { start: { path: string; intervalMs: number } } | { stop: true }

let db: Database.Database | null = null
let timer: ReturnType<typeof setInterval> | undefined

self.onmessage = (event: MessageEvent<Message>) => {
  if ('stop' in event.data) {
    // Closed here, on this thread: a thread ended from outside with the binding's objects alive crashes.
    clearInterval(timer)
    db?.close()
    db = null
    self.postMessage('stopped')
    return
  }
  const { path, intervalMs } = event.data.start
  db = new Database(path)
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)')
  timer = setInterval(() => {
    try {
      checkpoint.all()
    } catch {
      // Busy (another checkpoint under way) or a file being replaced by a restore: the next pass tries again.
    }
  }, intervalMs)
  self.postMessage('started')
}
