import { withoutPersonalData } from '../../lib/redact'
import type { Services } from '../../services'
import type { JobHandler } from './service'

/**
 * The job queue with every handler the shop has. `runDueJobs()` runs what is due now (tests call it
 * directly); `start()` polls in the background for api/main.ts, sweeping unfinished payment events now and
 * then (first right after start, which is when a crash's leftovers are found), and returns a function that
 * stops it.
 */
/** How often the background loop looks for payment events left unfinished by a dead process. */
const SWEEP_EVERY_MS = 15 * 1000

export function createJobRunner(services: Pick<Services, 'jobs' | 'orders' | 'webhooks' | 'auth'>) {
  const queue = services.jobs
  const handlers: Record<string, JobHandler> = {
    ...services.orders.jobHandlers(),
    ...services.auth.jobHandlers(),
  }
  let lastSweep = 0

  const runner = {
    runDueJobs: (options?: { limit?: number }) => queue.runDueJobs(handlers, options),

    /** Finishes payment events a dead process left unfinished (see the webhook service's sweep). */
    sweepWebhooks: () => services.webhooks.sweep(),

    start(options: { intervalMs?: number } = {}): () => Promise<void> {
      const intervalMs = options.intervalMs ?? 2000
      let stopped = false
      let running: Promise<unknown> = Promise.resolve()
      let timer: ReturnType<typeof setTimeout> | undefined
      const tick = () => {
        const sweep = Date.now() - lastSweep >= SWEEP_EVERY_MS
        if (sweep) lastSweep = Date.now()
        running = (sweep ? runner.sweepWebhooks().then(() => runner.runDueJobs()) : runner.runDueJobs())
          .catch((error) =>
            console.error(
              '[jobs] worker loop:',
              withoutPersonalData(error instanceof Error ? error.message : String(error)),
            ),
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
