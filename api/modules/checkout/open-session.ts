/**
 * One open payment session per cart (docs/decisions/032-one-open-session-per-cart.md). A shopper who went
 * back from the payment page to change the cart still has the earlier session holding the code's use and
 * the units: the cart's own checks do not count what it holds, and the cart's next session ends it first,
 * so a cart never competes with itself for a code's last use or the last jars.
 */
import { customerKey } from '@core/rules/customer'
import type { Database } from '../../../db/client'
import { type PaymentProvider, PaymentProviderError } from '../../adapters/types'
import { errorMessage, log } from '../../lib/log'
import { runTogether } from '../../lib/statements'
import { type CheckoutRecord, isSessionId } from './model'
import { type SessionHoldsDeps, unpaidEndStatements } from './session-holds'
import type { CheckoutSessions } from './sessions'

export interface OpenSessionDeps extends SessionHoldsDeps {
  db: Database
  payments: Pick<PaymentProvider, 'expireSession'>
  sessions: Pick<CheckoutSessions, 'record' | 'statusStatement'>
}

/** Who asks for the new session, and the key its reservations are held under. */
export interface NextSession {
  email: string
  userId: string | null
  key: string
}

function sameCustomer(record: CheckoutRecord, next: NextSession): boolean {
  if (record.userId !== null && record.userId === next.userId) return true
  return record.email !== '' && customerKey(record.email) === customerKey(next.email)
}

export function createOpenSessions(deps: OpenSessionDeps) {
  /** The cart's earlier session while it can still be paid from its payment page; otherwise null. */
  async function stillOpen(sessionId: string | undefined): Promise<CheckoutRecord | null> {
    if (!sessionId || !isSessionId(sessionId)) return null
    const record = await deps.sessions.record(sessionId)
    return record?.status === 'open' ? record : null
  }

  return {
    /**
     * The key of the code's use the cart's open session holds, for the cart's discount check and rates:
     * not counted against the cart. Knowing a session's id (a secret of the browser that opened it) is all
     * it takes, and all it gives is a check that does not count one use.
     */
    async cartHold(sessionId: string | undefined): Promise<string | undefined> {
      return (await stillOpen(sessionId))?.discountReservationKey ?? undefined
    },

    /**
     * Before the cart's new session reserves: its earlier one, if still open, the same customer's, and not
     * the one this very request gets back (a double click, or Pay pressed again with nothing changed, is
     * answered with the provider's same session), is expired at the provider and gives back its code's use
     * and its units. One the provider says was paid meanwhile keeps them for its order; one the provider
     * cannot end now keeps them until it expires, as before.
     */
    async endEarlier(sessionId: string | undefined, next: NextSession): Promise<void> {
      const earlier = await stillOpen(sessionId)
      if (!earlier || earlier.stockReservationKey === next.key || !sameCustomer(earlier, next)) return
      try {
        if ((await deps.payments.expireSession(earlier.id)) !== 'expired') return
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error
        log.warn('the cart’s earlier payment session could not be ended', { error: errorMessage(error) })
        return
      }
      // Ended as the provider's expiry event would end it, now: its code's use and its units go back.
      await runTogether(deps.db, unpaidEndStatements(deps, earlier, 'expired'))
    },
  }
}
