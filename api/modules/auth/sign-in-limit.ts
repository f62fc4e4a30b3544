/**
 * The password sign-in brute-force limit: at most 10 failed attempts in 10 minutes per account (the e-mail
 * tried, whether or not it has an account) and per client address. Attempts are rows in the database, so
 * every server instance counts the same ones.
 *
 * Each attempt is written *before* the password is checked and counted together with the others, so a
 * burst of parallel guesses cannot all slip in under the limit; a successful attempt removes its own row.
 */
import { and, desc, eq, gt, lt } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { signInFailures } from '../../../db/schema/auth'
import type { Clock } from '../../lib/clock'
import { type DomainError, tooMany } from '../../lib/domain-errors'

export const SIGN_IN_LIMIT = { max: 10, windowMs: 10 * 60 * 1000 }

export interface SignInAttempt {
  /** Call when the password was right: the attempt does not count as a failure. */
  succeeded(): Promise<void>
}

function tooManyAttempts(retryAfterSeconds: number): DomainError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60))
  return tooMany(
    `Too many sign-in attempts. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again, or reset your password.`,
    retryAfterSeconds,
  )
}

export function createSignInLimit(db: Database, clock: Clock) {
  /** When the oldest of the last `max` failures for this key leaves the window, or null if under the limit. */
  async function blockedUntil(by: 'account' | 'address', key: string, since: number, ownId: number) {
    const column = by === 'account' ? signInFailures.account : signInFailures.address
    const rows = await db
      .select({ id: signInFailures.id, at: signInFailures.at })
      .from(signInFailures)
      .where(and(eq(column, key), gt(signInFailures.at, since)))
      .orderBy(desc(signInFailures.at), desc(signInFailures.id))
      .limit(SIGN_IN_LIMIT.max + 1)
    const others = rows.filter((row) => row.id !== ownId)
    if (others.length < SIGN_IN_LIMIT.max) return null
    const oldestCounted = others[SIGN_IN_LIMIT.max - 1]
    return (oldestCounted?.at ?? since) + SIGN_IN_LIMIT.windowMs
  }

  return {
    /** Every counted failure for this account (e-mail), unexecuted, for an account deletion's batch. */
    forgetAccountQuery: (account: string) =>
      db.delete(signInFailures).where(eq(signInFailures.account, account)),

    /**
     * Records an attempt for this account and address, or throws a 429 (with Retry-After) when either has
     * used its allowance. A refused attempt is not recorded, so waiting always ends the lock.
     */
    async begin(account: string, address: string): Promise<SignInAttempt> {
      const now = clock.now().getTime()
      const since = now - SIGN_IN_LIMIT.windowMs
      const [row] = await db
        .insert(signInFailures)
        .values({ account, address, at: now })
        .returning({ id: signInFailures.id })
      const ownId = row?.id ?? -1
      const until = Math.max(
        (await blockedUntil('account', account, since, ownId)) ?? 0,
        (await blockedUntil('address', address, since, ownId)) ?? 0,
      )
      if (until > now) {
        await db.delete(signInFailures).where(eq(signInFailures.id, ownId))
        throw tooManyAttempts(Math.ceil((until - now) / 1000))
      }
      // Rows older than a day can never count again.
      if (Math.random() < 0.01) {
        await db.delete(signInFailures).where(lt(signInFailures.at, now - 24 * 60 * 60 * 1000))
      }
      return {
        async succeeded() {
          await db.delete(signInFailures).where(eq(signInFailures.id, ownId))
        },
      }
    },
  }
}

export type SignInLimit = ReturnType<typeof createSignInLimit>
