/**
 * A paid order ends the customer's other open sessions holding a first-order code (docs/decisions/021):
 * their payment would be a second order at the first-order price.
 */
import { and, inArray, ne } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { checkoutSessions } from '../../../db/schema/checkout'
import type { PaymentProvider } from '../../adapters/types'
import { log } from '../../lib/log'
import { runTogether, type Statement } from '../../lib/statements'
import type { DiscountService } from '../discounts/service'
import type { JobHandler, JobQueue } from '../jobs/service'
import { CHECKOUT_JOBS, type CheckoutRecord } from './model'
import { type SessionHoldsDeps, unpaidEndStatements } from './session-holds'

/** Whose other first-order sessions a paid session ends. */
interface PaidSessionCustomer {
  email: string
  userId: string | null
  /** The session that was paid, left alone. */
  paidSession: string
}

function paidSessionCustomer(payload: unknown): PaidSessionCustomer {
  const { email, userId, paidSession } = (payload ?? {}) as Record<string, unknown>
  if (
    typeof email !== 'string' ||
    typeof paidSession !== 'string' ||
    !(userId === null || typeof userId === 'string')
  )
    throw new Error('job payload has no customer')
  return { email, userId, paidSession }
}

export interface FirstOrderExpiryDeps extends SessionHoldsDeps {
  db: Database
  payments: PaymentProvider
  discounts: DiscountService
  jobs: JobQueue
}

export function createFirstOrderExpiry(deps: FirstOrderExpiryDeps) {
  const { db, discounts } = deps
  const expiry = {
    /**
     * For the transaction that makes a paid order: the job that ends the customer's other open sessions
     * holding a first-order code, queued only if there are any.
     */
    expireFirstOrderSessionsStatement(record: Pick<CheckoutRecord, 'id' | 'email' | 'userId'>): Statement {
      const customer = { email: record.email, userId: record.userId }
      const payload: PaidSessionCustomer & Record<string, unknown> = { ...customer, paidSession: record.id }
      const open = discounts.openFirstOrderReservationExists(customer)
      return deps.jobs.enqueueQuery(CHECKOUT_JOBS.expireFirstOrderSessions, payload, {
        dedupeKey: `expire-first-order-sessions:${record.id}`,
        when: open.when,
        whenValues: open.values,
      })
    },

    /**
     * The job: each open session of this customer that holds a first-order code is expired at the payment
     * provider, so it can no longer be paid, and gives its reservation back. One the customer paid before
     * it could be ended makes its order all the same, marked for staff (the order's discount warning).
     */
    async expireFirstOrderSessions(customer: PaidSessionCustomer): Promise<number> {
      const keys = await discounts.openFirstOrderReservations(customer)
      if (keys.length === 0) return 0
      const open = await db
        .select({
          id: checkoutSessions.id,
          discountReservationKey: checkoutSessions.discountReservationKey,
          stockReservationKey: checkoutSessions.stockReservationKey,
        })
        .from(checkoutSessions)
        .where(
          and(
            inArray(checkoutSessions.discountReservationKey, keys),
            inArray(checkoutSessions.status, ['open', 'payment_pending']),
            ne(checkoutSessions.id, customer.paidSession),
          ),
        )
      let expired = 0
      for (const session of open) {
        if ((await deps.payments.expireSession(session.id)) !== 'expired') continue
        // Ended as the provider's expiry event would end it, now: its code's use and its units go back.
        await runTogether(db, unpaidEndStatements(deps, session, 'expired'))
        expired += 1
      }
      if (expired > 0) log.info('first-order sessions expired after a paid order', { sessions: expired })
      return expired
    },

    /** The job handlers this module owns, for the job runner. */
    jobHandlers(): Record<string, JobHandler> {
      return {
        [CHECKOUT_JOBS.expireFirstOrderSessions]: async (payload) => {
          await expiry.expireFirstOrderSessions(paidSessionCustomer(payload))
        },
      }
    },
  }
  return expiry
}
