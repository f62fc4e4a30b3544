/**
 * Checkpoints of a server's WAL on a thread of their own (docs/decisions/029-group-commit.md). A commit that
 * takes the WAL past `wal_autocheckpoint` pages checkpoints it on the spot: it copies the WAL into the
 * database file and syncs both, and the request's thread waits for the syncs. Measured over HTTP, that
 * was about 15 % of checkout's throughput and half its p99. The thread here checkpoints every
 * CHECKPOINT_INTERVAL_MS instead; the server's connections keep a high threshold of their own
 * (BACKSTOP_PAGES) only for when this thread falls behind.
 */

/** How often the thread checkpoints. */
export const CHECKPOINT_INTERVAL_MS = 100

/** The server's own connections checkpoint only past this many WAL pages (64 MB): the thread is behind. */
export const BACKSTOP_PAGES = 16_000

export interface BackgroundCheckpoints {
  /** Ends the thread once it has closed its connection; resolves then. */
  stop(): Promise<void>
}

/** Starts the checkpoint thread for the database file at `path`; resolves once it has opened the file. */
export async function startBackgroundCheckpoints(
  path: string,
  intervalMs = CHECKPOINT_INTERVAL_MS,
): Promise<BackgroundCheckpoints> {
  const thread = new Worker(new URL('./checkpoint-thread.ts', import.meta.url).href)
  const started = new Promise<void>((resolve, reject) => {
    thread.addEventListener('message', () => resolve(), { once: true })
    thread.addEventListener('error', (event) => reject(new Error(`checkpoint thread: ${event.message}`)), {
      once: true,
    })
  })
  thread.postMessage({ start: { path, intervalMs } })
  await started
  // The thread never keeps the process alive: a server that stops exits without waiting for it (Bun's
  // Worker has unref, which the DOM's type does not name).
  ;(thread as Worker & { unref(): void }).unref()
  let stopped: Promise<void> | null = null
  return {
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        thread.addEventListener(
          'message',
          () => {
            thread.terminate()
            resolve()
          },
          { once: true },
        )
        thread.postMessage({ stop: true })
      })
      return stopped
    },
  }
}
