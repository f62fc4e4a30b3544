/**
 * Refunds a `charge.refunded` event tells of without listing them. Stripe's current API versions send the
 * charge with its amount refunded and no list of refunds, so a shop whose endpoint takes `charge.refunded`
 * and not the `refund.*` events would never hear of a refund made in Stripe's dashboard. When the amount
 * refunded is more than the shop has counted for the order, a job asks the provider for the payment's
 * refunds, and each moves forward as its own event would (idempotent by the refund's id and key). The
 * event's own handling makes no outside call (its lease assumes milliseconds); the job retries with
 * backoff while the provider cannot be asked (docs/decisions/023-refunds-and-label-voids.md).
 */
import { sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import type { PaymentProvider, RefundActivity } from '../../adapters/types'
import type { Statement } from '../../lib/statements'
import type { JobHandler, JobQueue } from '../jobs/service'
import { ORDER_JOBS, refundedCentsByOrder } from '../orders/service'

export interface UnlistedRefundsDeps {
  db: Database
  payments: Pick<PaymentProvider, 'listRefunds'>
  jobs: Pick<JobQueue, 'enqueueQuery'>
}

/** The refund event's handling (refunds.ts `refundEvent`), with the statement that ends its transaction. */
type RefundEvent = (activity: RefundActivity, record: (orderId: number) => Statement) => Promise<unknown>

/** What the job needs: the payment to ask about. */
interface ListRefundsPayload {
  paymentRef: string
}

function paymentOf(payload: unknown): ListRefundsPayload {
  const paymentRef = (payload as { paymentRef?: unknown } | null)?.paymentRef
  if (typeof paymentRef !== 'string' || paymentRef === '') throw new Error('job payload has no payment')
  return { paymentRef }
}

export function createUnlistedRefunds(deps: UnlistedRefundsDeps) {
  return {
    /**
     * For the refund event's transaction: the job that asks for the payment's refunds, when the event
     * lists none and says more was refunded than the order's refunds the shop counts; else nothing.
     */
    async jobStatements(activity: RefundActivity, orderId: number): Promise<Statement[]> {
      const { amountRefundedCents, paymentRef } = activity
      if (activity.refunds.length > 0 || amountRefundedCents === null || !paymentRef) return []
      const counted = (await refundedCentsByOrder(deps.db, [orderId])).get(orderId) ?? 0
      if (amountRefundedCents <= counted) return []
      const payload: ListRefundsPayload & Record<string, unknown> = { paymentRef }
      return [deps.jobs.enqueueQuery(ORDER_JOBS.listRefunds, payload)]
    },

    /** The job: the payment's refunds, as the provider lists them, moved forward as one refund event. */
    handler(refundEvent: RefundEvent): JobHandler {
      return async (payload) => {
        const { paymentRef } = paymentOf(payload)
        const refunds = await deps.payments.listRefunds(paymentRef)
        if (refunds.length === 0) return
        const activity: RefundActivity = {
          paymentRef,
          chargeRef: null,
          currency: refunds[0]?.currency ?? 'usd',
          amountRefundedCents: null,
          refunds,
        }
        // No event's outcome to record: the transaction ends with a statement that changes nothing.
        await refundEvent(activity, () => deps.db.run(sql`select 1`))
      }
    },
  }
}
