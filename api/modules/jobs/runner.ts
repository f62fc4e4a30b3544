import { errorMessage, log } from '../../lib/log'
import { noteIfStorageFull } from '../../lib/storage-full'
import type { AuthService } from '../auth/service'
import type { CheckoutService } from '../checkout/service'
import type { FulfilmentService } from '../fulfilment/service'
import type { OrdersService } from '../orders/service'
import type { StockService } from '../stock/service'
import type { WebhookService } from '../webhooks/service'
import { requestsFirst } from './pace'
import type { AbandonedJobHandler, JobHandler, JobQueue } from './service'

/**
 * The job queue with every handler the shop has. `runDueJobs()` runs what is due now (tests call it
 * directly); `start()` polls in the background for api/server.ts, looks at once when a job due now is
 * queued, sweeps unfinished payment events now and then (first at its first look, which is when a crash's
 * leftovers are found), and returns a function that stops it.
 */
/** How often the background loop looks for payment events left unfinished by a dead process. */
const SWEEP_EVERY_MS = 15 * 1000
/** Jobs run per turn of the loop before it looks for unfinished payment events again. */
const BATCH = 100

export function createJobRunner(services: {
  jobs: JobQueue
  orders: OrdersService
  webhooks: WebhookService
  auth: AuthService
  checkout: CheckoutService
  fulfilment: FulfilmentService
  stock: StockService
}) {
  const queue = services.jobs
  const handlers: Record<string, JobHandler> = {
    ...services.orders.jobHandlers(),
    ...services.auth.jobHandlers(),
    ...services.checkout.jobHandlers(),
    ...services.fulfilment.jobHandlers(),
  }
  const abandoned: Record<string, AbandonedJobHandler> = {
    ...services.orders.abandonedJobHandlers(),
    ...services.fulfilment.abandonedJobHandlers(),
  }
  let lastSweep = 0

  const runner = {
    runDueJobs: (options?: { limit?: number }) => queue.runDueJobs(handlers, { ...options, abandoned }),

    /**
     * Finishes payment events a dead process left unfinished (see the webhook service's sweep), marks
     * stock holds that ran out released, and forgets checkout requests a dead process left in flight.
     */
    sweep: async () => {
      await services.webhooks.sweep()
      await services.stock.releaseExpired()
      await services.checkout.forgetStaleRequests()
    },

    /**
     * Polls for due jobs in the background. The function it returns stops claiming jobs, lets the one in
     * hand finish, and resolves then: whatever is still queued runs at the next start.
     */
    start(
      options: { intervalMs?: number; concurrency?: number; busy?: () => boolean } = {},
    ): () => Promise<void> {
      const intervalMs = options.intervalMs ?? 2000
      const pace = options.busy ? requestsFirst(options.busy) : undefined
      // Jobs wait on mail servers and carriers, not on this process: a few run side by side. Each claim
      // is one conditional UPDATE, so no two workers ever hold the same job.
      const workers = Math.max(1, options.concurrency ?? 1)
      let stopped = false
      const stopping = () => stopped
      let running: Promise<unknown> = Promise.resolve()
      let timer: ReturnType<typeof setTimeout> | undefined
      /** Waiting for the next look (not running one). */
      let sleeping = false
      /** A job due now was queued while a look was under way: look again at once after it. */
      let lookAgain = false
      /**
       * The last look failed (the database or the disk): the next one waits the whole interval, whatever is
       * queued meanwhile, so a shop in trouble is not asked again, and its log not written, once per request.
       */
      let resting = false
      const lookNow = () => {
        clearTimeout(timer)
        sleeping = false
        resting = false
        tick()
      }
      const sleep = (ms: number) => {
        sleeping = true
        timer = setTimeout(lookNow, ms)
      }
      // A paid order's e-mail and label, a reset link: run when queued, not at the next look two seconds on.
      const stopListening = queue.onDueJob(() => {
        if (stopped || resting) return
        if (sleeping) lookNow()
        else lookAgain = true
      })
      const tick = () => {
        lookAgain = false
        const sweep = Date.now() - lastSweep >= SWEEP_EVERY_MS
        if (sweep) lastSweep = Date.now()
        let busy = false
        let failed = false
        running = (sweep ? runner.sweep() : Promise.resolve())
          .then(() =>
            Promise.all(
              Array.from({ length: stopped ? 0 : workers }, () =>
                queue.runDueJobs(handlers, { limit: BATCH, stopping, abandoned, pace }),
              ),
            ),
          )
          .then((results) => {
            // A full batch means more is waiting: carry on at once instead of after the pause.
            busy = results.some((result) => result.ran >= BATCH)
          })
          .catch((error) => {
            failed = true
            noteIfStorageFull(error)
            log.error('job loop failed', { error: errorMessage(error) })
          })
          .finally(() => {
            if (stopped) return
            resting = failed
            sleep(!failed && (busy || lookAgain) ? 0 : intervalMs)
          })
      }
      sleep(intervalMs)
      return async () => {
        stopped = true
        stopListening()
        if (timer) clearTimeout(timer)
        await running
      }
    },
  }
  return runner
}

export type JobRunner = ReturnType<typeof createJobRunner>
