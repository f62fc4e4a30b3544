import { inArray } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { orders } from '../../../db/schema/orders'
import type { Job, JobQueue } from '../jobs/service'
import { ORDER_JOBS } from './service'

/**
 * The e-mails the shop sends about an order, by job type, with the name staff read. An order e-mail added
 * later joins here, and shows on the dashboard with Retry when it fails.
 */
export const ORDER_EMAIL_JOBS: Readonly<Record<string, string>> = {
  [ORDER_JOBS.confirmationEmail]: 'Order confirmation',
  [ORDER_JOBS.shippedEmail]: 'Shipping confirmation',
  [ORDER_JOBS.refundEmail]: 'Refund',
  [ORDER_JOBS.cancelledEmail]: 'Cancellation',
}

const EMAIL_TYPES = Object.keys(ORDER_EMAIL_JOBS)

/** How many failed e-mails the dashboard lists: a long list means the mail server is down, not 50 problems. */
export const FAILED_EMAILS_SHOWN = 50

export interface FailedOrderEmail {
  job: Job
  /** Null when the order is gone (a restored backup without it). */
  order: { id: number; email: string; customerName: string } | null
  orderId: number | null
  /** What staff read: 'Order confirmation'. */
  name: string
}

function orderIdOf(job: Job): number | null {
  try {
    const id = (JSON.parse(job.payload) as { orderId?: unknown } | null)?.orderId
    return typeof id === 'number' && Number.isSafeInteger(id) ? id : null
  } catch {
    return null
  }
}

/** An order's e-mails that gave up (the mail server refused every attempt), and staff's Retry of them. */
export function createFailedOrderEmails(deps: {
  db: Database
  jobs: Pick<JobQueue, 'failed' | 'retryFailed' | 'waiting'>
}) {
  return {
    /** The failed order e-mails, newest failure first, each with its order. */
    async list(): Promise<FailedOrderEmail[]> {
      const failed = await deps.jobs.failed(EMAIL_TYPES, FAILED_EMAILS_SHOWN)
      const ids = [...new Set(failed.map(orderIdOf).filter((id): id is number => id !== null))]
      const rows =
        ids.length === 0
          ? []
          : await deps.db
              .select({ id: orders.id, email: orders.email, customerName: orders.customerName })
              .from(orders)
              .where(inArray(orders.id, ids))
      const byId = new Map(rows.map((row) => [row.id, row]))
      return failed.map((job) => {
        const orderId = orderIdOf(job)
        return {
          job,
          orderId,
          order: orderId === null ? null : (byId.get(orderId) ?? null),
          name: ORDER_EMAIL_JOBS[job.type] ?? job.type,
        }
      })
    },

    /**
     * Queues the order's failed e-mails again (one UPDATE: of two Retries at once, one queues them). Says
     * which were queued now, and how many of the order's e-mails wait in the queue regardless.
     */
    async retry(orderId: number): Promise<{ queued: string[]; waiting: number }> {
      const match = { field: 'orderId', value: orderId }
      const queued = await deps.jobs.retryFailed(EMAIL_TYPES, match)
      return {
        queued: queued.map((job) => ORDER_EMAIL_JOBS[job.type] ?? job.type),
        waiting: queued.length > 0 ? queued.length : await deps.jobs.waiting(EMAIL_TYPES, match),
      }
    },
  }
}

export type FailedOrderEmails = ReturnType<typeof createFailedOrderEmails>
