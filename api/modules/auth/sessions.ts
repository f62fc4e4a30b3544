/**
 * Sessions as the Lucia guide builds them: the browser holds a random token, the database holds its
 * SHA-256. A stolen copy of the table signs nobody in, and a guessed or altered cookie matches no row.
 */

import type { SignInMethod } from '@core/rules/account'
import { sha256 } from '@oslojs/crypto/sha2'
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding'
import { and, eq, gt, lt, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { sessions } from '../../../db/schema/auth'
import { users } from '../../../db/schema/users'
import type { Clock } from '../../lib/clock'

const DAY_MS = 24 * 60 * 60 * 1000
/** A session lasts 30 days from its last renewal. */
export const SESSION_LIFETIME_MS = 30 * DAY_MS
/** Used with less than this left, it is renewed for another 30 days (at most one write per 15 days). */
export const SESSION_RENEW_WITHIN_MS = 15 * DAY_MS

/** 20 random bytes in lower-case base32: 32 characters, 160 bits. */
const TOKEN_PATTERN = /^[a-z2-7]{32}$/

export function generateToken(): string {
  return encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)))
}

/** What is stored for a token (sessions and reset links alike). */
export function hashToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)))
}

export function isTokenShaped(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_PATTERN.test(value)
}

export interface Session {
  id: string
  userId: string
  expiresAt: Date
  /** When the browser signed in (renewal moves only `expiresAt`). */
  createdAt: Date
  /** How it signed in; null for a session made before this was recorded. */
  signedInWith: SignInMethod | null
}

export function createSessionStore(db: Database, clock: Clock) {
  return {
    /**
     * A new session for the account, or null when the account is gone: deleted in another browser while
     * this sign-in checked its password, it gets no session (and no error from the session's foreign key).
     */
    async create(
      userId: string,
      signedInWith: SignInMethod,
    ): Promise<{ token: string; session: Session } | null> {
      const token = generateToken()
      const now = clock.now()
      const session: Session = {
        id: hashToken(token),
        userId,
        expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
        createdAt: now,
        signedInWith,
      }
      const stored =
        await db.run(sql`insert into ${sessions} (id, user_id, expires_at, created_at, signed_in_with)
        select ${session.id}, ${userId}, ${session.expiresAt.getTime()}, ${now.getTime()}, ${signedInWith}
        where exists (select 1 from ${users} where ${users.id} = ${userId})`)
      return stored.rowsAffected > 0 ? { token, session } : null
    },

    /**
     * The live session for a cookie's token, or null. `renewed` says its expiry moved, so the cookies
     * must be sent again with the new lifetime.
     */
    async validate(token: unknown): Promise<{ session: Session; renewed: boolean } | null> {
      if (!isTokenShaped(token)) return null
      const id = hashToken(token)
      const now = clock.now().getTime()
      const [row] = await db
        .select({
          id: sessions.id,
          userId: sessions.userId,
          expiresAt: sessions.expiresAt,
          createdAt: sessions.createdAt,
          signedInWith: sessions.signedInWith,
        })
        .from(sessions)
        .where(eq(sessions.id, id))
        .limit(1)
      if (!row) return null
      if (row.expiresAt.getTime() <= now) {
        await db.delete(sessions).where(eq(sessions.id, id))
        return null
      }
      if (row.expiresAt.getTime() - now >= SESSION_RENEW_WITHIN_MS) return { session: row, renewed: false }
      const expiresAt = new Date(now + SESSION_LIFETIME_MS)
      // Only while it is still live: a session deleted by a logout a moment ago stays deleted.
      const renewed = await db
        .update(sessions)
        .set({ expiresAt })
        .where(and(eq(sessions.id, id), gt(sessions.expiresAt, new Date(now))))
        .returning({ id: sessions.id })
      if (renewed.length === 0) return null
      return { session: { ...row, expiresAt }, renewed: true }
    },

    async invalidate(token: unknown): Promise<void> {
      if (!isTokenShaped(token)) return
      await db.delete(sessions).where(eq(sessions.id, hashToken(token)))
    },

    /** Every browser signed in to this account is signed out (after a password reset). */
    async invalidateAllForUser(userId: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.userId, userId))
    },

    /** The same, unexecuted, for a batch (an account deletion). */
    invalidateAllForUserQuery: (userId: string) => db.delete(sessions).where(eq(sessions.userId, userId)),

    /** Expired rows are useless; a sweep now and then keeps the table small without a scheduler. */
    async sweepExpired(): Promise<void> {
      await db.delete(sessions).where(lt(sessions.expiresAt, clock.now()))
    },
  }
}

export type SessionStore = ReturnType<typeof createSessionStore>
