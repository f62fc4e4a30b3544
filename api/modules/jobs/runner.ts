import type { Services } from '../../services'
import type { JobHandler } from './service'

/**
 * The job queue with every handler the shop has. `runDueJobs()` runs what is due now (tests call it
 * directly); `start()` polls in the background for api/main.ts and returns a function that stops it.
 */
export function createJobRunner(services: Pick<Services, 'jobs' | 'orders'>) {
  const queue = services.jobs
  const handlers: Record<string, JobHandler> = { ...services.orders.jobHandlers() }

  const runner = {
    runDueJobs: (options?: { limit?: number }) => queue.runDueJobs(handlers, options),

    start(options: { intervalMs?: number } = {}): () => Promise<void> {
      const intervalMs = options.intervalMs ?? 2000
      let stopped = false
      let running: Promise<unknown> = Promise.resolve()
      let timer: ReturnType<typeof setTimeout> | undefined
      const tick = () => {
        running = runner
          .runDueJobs()
          .catch((error) =>
            console.error('[jobs] worker loop:', error instanceof Error ? error.message : error),
          )
          .finally(() => {
            if (!stopped) timer = setTimeout(tick, intervalMs)
          })
      }
      timer = setTimeout(tick, intervalMs)
      return async () => {
        stopped = true
        if (timer) clearTimeout(timer)
        await running
      }
    },
  }
  return runner
}

export type JobRunner = ReturnType<typeof createJobRunner>
