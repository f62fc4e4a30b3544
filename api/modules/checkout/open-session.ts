/**
 * One open payment session per cart (docs/decisions/032-one-open-session-per-cart.md). A shopper who went
 * back from the payment page to change the cart still has the earlier session holding the code's use and
 * the units: the cart's own checks do not count what it holds, and the cart's next session takes them
 * over in the transaction that reserves it, then ends the earlier one at the provider. A next session that
 * cannot be reserved leaves the earlier one as it was; one the provider cannot end gives them back.
 */
import { customerKey } from '@core/rules/customer'
import type { SQL } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { type PaymentProvider, PaymentProviderError } from '../../adapters/types'
import { sha256Hex } from '../../lib/digests'
import { errorMessage, log } from '../../lib/log'
import { runTogether, type Statement } from '../../lib/statements'
import type { DiscountService } from '../discounts/service'
import type { StockService } from '../stock/service'
import { type CheckoutRecord, isSessionId } from './model'
import type { HeldBy } from './session-holds'
import type { CheckoutSessions } from './sessions'

export interface OpenSessionDeps {
  db: Database
  payments: Pick<PaymentProvider, 'expireSession'>
  sessions: Pick<CheckoutSessions, 'record' | 'statusStatement' | 'endedUnder' | 'stillOpenSql'>
  discounts: Pick<DiscountService, 'releaseStatement' | 'reholdStatement'>
  stock: Pick<StockService, 'releaseStatement' | 'reholdStatement'>
}

/** Who asks for the new session, and the key its reservations are held under. */
export interface NextSession {
  email: string
  userId: string | null
  key: string
}

/** What the provider did when asked to end the earlier session. */
export type EndOutcome = 'expired' | 'complete' | 'unreachable'

/** The most keys tried past sessions the shop ended: one per trip back and forth, far more than a cart makes. */
const MAX_KEY_STEPS = 50

function sameCustomer(record: CheckoutRecord, next: NextSession): boolean {
  if (record.userId !== null && record.userId === next.userId) return true
  return record.email !== '' && customerKey(record.email) === customerKey(next.email)
}

/**
 * The statements that hand the earlier session's code's use and units over to the next one, for the
 * transaction that reserves the next: released, if `when` holds (the next one's use was held).
 */
export function handOverStatements(
  deps: Pick<OpenSessionDeps, 'discounts' | 'stock'>,
  earlier: HeldBy,
  when?: SQL,
) {
  const { discountReservationKey: discountKey, stockReservationKey: unitsKey } = earlier
  return [
    ...(discountKey ? [deps.discounts.releaseStatement(discountKey, when)] : []),
    ...(unitsKey ? [deps.stock.releaseStatement(unitsKey, when)] : []),
  ]
}

export function createOpenSessions(deps: OpenSessionDeps) {
  /** The cart's earlier session while it can still be paid from its payment page; otherwise null. */
  async function stillOpen(sessionId: string | undefined): Promise<CheckoutRecord | null> {
    if (!sessionId || !isSessionId(sessionId)) return null
    const record = await deps.sessions.record(sessionId)
    return record?.status === 'open' ? record : null
  }

  /**
   * The key for the next session: the request's own, unless a session under it was ended unpaid (the
   * cart went back to a request it had made before, and the provider would answer with that ended
   * session); then one derived from it and the ended session, the same for the same request.
   */
  async function unendedKey(key: string): Promise<string> {
    let current = key
    for (let step = 0; step < MAX_KEY_STEPS; step += 1) {
      const ended = await deps.sessions.endedUnder(current)
      if (ended === null) return current
      current = `checkout-${sha256Hex(`${current}:after:${ended}`)}`
    }
    return current
  }

  return {
    /**
     * The key of the code's use the cart's open session holds, for the cart's discount check and rates:
     * not counted against the cart. Knowing a session's id (a secret of the browser that opened it) is all
     * it takes, and all it gives is a check that does not count one use.
     */
    async cartHold(sessionId: string | undefined): Promise<string[]> {
      const key = (await stillOpen(sessionId))?.discountReservationKey
      return key ? [key] : []
    },

    /**
     * For a cart that names its earlier session: the key the next session is held under, and the earlier
     * session whose holds it takes over, if that one is still open, the same customer's, and not the one
     * this very request gets back (a double click, or Pay pressed again with nothing changed, is answered
     * with the provider's same session).
     */
    async earlierOf(
      sessionId: string | undefined,
      next: NextSession,
    ): Promise<{ key: string; earlier: CheckoutRecord | null }> {
      if (!sessionId) return { key: next.key, earlier: null }
      const key = await unendedKey(next.key)
      const earlier = await stillOpen(sessionId)
      if (!earlier || earlier.stockReservationKey === key || !sameCustomer(earlier, { ...next, key })) {
        return { key, earlier: null }
      }
      return { key, earlier }
    },

    /** Ends the earlier session at the provider, so it can no longer be paid, and records it expired. */
    async end(earlier: HeldBy): Promise<EndOutcome> {
      let outcome: 'expired' | 'complete'
      try {
        outcome = await deps.payments.expireSession(earlier.id)
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error
        log.warn('the cart’s earlier payment session could not be ended', { error: errorMessage(error) })
        return 'unreachable'
      }
      if (outcome === 'expired') {
        await runTogether(deps.db, [deps.sessions.statusStatement(earlier.id, 'expired', ['open'])])
      }
      return outcome
    },

    /**
     * The earlier session's use and units held again, when the next session is given up after the hand-over
     * (the provider could not end the earlier one, or it was paid meanwhile): it may still be paid. Only
     * while it is still open here.
     */
    handBackStatements(earlier: HeldBy): Statement[] {
      const open = deps.sessions.stillOpenSql(earlier.id)
      const { discountReservationKey: discountKey, stockReservationKey: unitsKey } = earlier
      return [
        ...(discountKey ? [deps.discounts.reholdStatement(discountKey, open)] : []),
        ...(unitsKey ? [deps.stock.reholdStatement(unitsKey, open)] : []),
      ]
    },
  }
}

export type OpenSessions = ReturnType<typeof createOpenSessions>
