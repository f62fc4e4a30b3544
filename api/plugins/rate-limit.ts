import { sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { rateLimits } from '../../db/schema'
import type { Clock } from '../lib/clock'
import { HttpError } from './errors'

export interface Limit {
  /** Requests allowed per window. */
  max: number
  windowMs: number
  /** What the customer reads when refused. */
  message: string
}

export type RateLimiter = (bucket: string, limit: Limit) => Promise<void>

/**
 * Fixed-window counting in the database: one atomic upsert per request, shared by every server instance.
 * Throws a 429 HttpError once the window's allowance is used.
 */
export function createRateLimiter(db: Database, clock: Clock): RateLimiter {
  return async (bucket, limit) => {
    const now = clock.now().getTime()
    const windowStart = now - (now % limit.windowMs)
    const [row] = await db
      .insert(rateLimits)
      .values({ bucket, windowStart, count: 1 })
      .onConflictDoUpdate({
        target: [rateLimits.bucket, rateLimits.windowStart],
        set: { count: sql`${rateLimits.count} + 1` },
      })
      .returning({ count: rateLimits.count })
    // Old windows are useless; sweeping now and then keeps the table small without a scheduler.
    if (Math.random() < 0.01) {
      await db.delete(rateLimits).where(sql`${rateLimits.windowStart} < ${now - 24 * 60 * 60 * 1000}`)
    }
    if ((row?.count ?? 0) > limit.max) {
      const retryAfter = Math.ceil((windowStart + limit.windowMs - now) / 1000)
      throw new HttpError(429, limit.message, { retryAfterSeconds: retryAfter })
    }
  }
}

/** The caller's address: the socket's, or the proxy's X-Forwarded-For when configured to trust it. */
export function clientAddress(
  request: Request,
  server: { requestIP(request: Request): { address: string } | null } | null,
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  return server?.requestIP(request)?.address ?? 'local'
}
