/**
 * One open payment session per cart (docs/decisions/032-one-open-session-per-cart.md). A shopper who went
 * back from the payment page to change the cart still has the earlier session holding the code's use and
 * the units: the cart's own checks do not count what it holds, and the cart's next session takes them
 * over: it is reserved without counting them (the earlier session keeps them meanwhile), then the earlier
 * one is ended at the provider and gives them back. A next session refused, or an earlier one the provider
 * cannot end, leaves the earlier one as it was; the next one is opened only once the earlier is ended.
 */
import { customerKey } from '@core/rules/customer'
import type { SQL } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { type PaymentProvider, PaymentProviderError } from '../../adapters/types'
import { sha256Hex } from '../../lib/digests'
import { errorMessage, log } from '../../lib/log'
import { runTogether, type Statement } from '../../lib/statements'
import type { StockService } from '../stock/service'
import { type CheckoutRecord, isSessionId } from './model'
import { type HeldBy, type SessionHoldsDeps, unpaidEndStatements } from './session-holds'
import type { CheckoutSessions } from './sessions'

export interface OpenSessionDeps extends SessionHoldsDeps {
  db: Database
  payments: Pick<PaymentProvider, 'expireSession'>
  sessions: Pick<CheckoutSessions, 'record' | 'statusStatement' | 'endedUnder'>
  stock: SessionHoldsDeps['stock'] & Pick<StockService, 'handOverStatement' | 'forgetHandOverStatement'>
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
 * For the transaction that reserves the next session (under `toKey`): the earlier session's units handed
 * over, so the stock guard lets the next one's holds take them, if `onlyIf` holds (the next session's code
 * use was held). Its code's use needs no statement: the next one's is counted without it.
 */
export function handOverStatements(
  deps: Pick<OpenSessionDeps, 'stock'>,
  earlier: HeldBy,
  toKey: string,
  now: Date,
  onlyIf?: SQL,
): Statement[] {
  const fromKey = earlier.stockReservationKey
  return fromKey ? [deps.stock.handOverStatement(fromKey, toKey, now, onlyIf)] : []
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
   * cart went back to a request it had made before, and the provider replays its answer, that ended
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
     * The key the next session is held under (unendedKey, when `keyUsedBefore`), and the earlier session
     * the cart names whose holds it takes over, if that one is still open, the same customer's, and not
     * the one this very request gets back (a double click, or Pay pressed again with nothing changed, is
     * answered with the provider's same session).
     */
    async earlierOf(
      sessionId: string | undefined,
      next: NextSession,
      options: { keyUsedBefore: boolean },
    ): Promise<{ key: string; earlier: CheckoutRecord | null }> {
      // Looked up only for a request that may have been sent before (the cart names an earlier session, or
      // the provider answered it with a session ended unpaid): a cart's first checkout is spared the read.
      const key = options.keyUsedBefore ? await unendedKey(next.key) : next.key
      const earlier = await stillOpen(sessionId)
      if (!earlier || earlier.stockReservationKey === key || !sameCustomer(earlier, { ...next, key })) {
        return { key, earlier: null }
      }
      return { key, earlier }
    },

    /**
     * Ends the earlier session at the provider, so it can no longer be paid; ended, it is recorded expired
     * and gives its code's use and units back, and the hand-over to `toKey` is over. Otherwise (paid
     * meanwhile, or the provider cannot be reached) it is left as it was: the caller gives the next up.
     */
    async end(earlier: HeldBy, toKey: string): Promise<EndOutcome> {
      let outcome: 'expired' | 'complete'
      try {
        outcome = await deps.payments.expireSession(earlier.id)
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error
        log.warn('the cart’s earlier payment session could not be ended', { error: errorMessage(error) })
        return 'unreachable'
      }
      if (outcome === 'expired') {
        await runTogether(deps.db, [
          ...unpaidEndStatements(deps, earlier, 'expired'),
          deps.stock.forgetHandOverStatement(toKey),
        ])
      }
      return outcome
    },
  }
}

export type OpenSessions = ReturnType<typeof createOpenSessions>
