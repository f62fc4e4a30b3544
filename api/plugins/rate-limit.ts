import { sql } from 'drizzle-orm'
import { Elysia } from 'elysia'
import type { Database } from '../../db/client'
import { rateLimits } from '../../db/schema'
import type { Clock } from '../lib/clock'
import { HttpError } from './errors'

export interface Limit {
  /** Names the counter: limits with the same name share one allowance per address. */
  name: string
  /** Requests allowed per window. */
  max: number
  windowMs: number
  /** What the customer reads when refused. */
  message: string
}

/**
 * The caller's address. Behind `trustedProxyHops` proxies we run, each proxy appends the address it
 * received the request from to X-Forwarded-For, so the client is the entry that many places from the right:
 * everything left of it was written by the client and proves nothing. With no trusted proxy, the socket.
 */
export function clientAddress(
  forwardedFor: string | null,
  socketAddress: string | null,
  trustedProxyHops: number,
): string {
  if (trustedProxyHops > 0 && forwardedFor) {
    const hops = forwardedFor
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
    const client = hops[Math.max(0, hops.length - trustedProxyHops)]
    if (client) return client
  }
  return socketAddress ?? 'local'
}

/**
 * Fixed-window counting in the database: one atomic upsert per request, shared by every server instance.
 * Throws a 429 HttpError with Retry-After once the window's allowance is used.
 */
export function createRateCounter(db: Database, clock: Clock) {
  return async function hit(key: string, limit: Limit): Promise<void> {
    const now = clock.now().getTime()
    const windowStart = now - (now % limit.windowMs)
    const bucket = `${limit.name}:${key}`
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
      const retryAfter = Math.max(1, Math.ceil((windowStart + limit.windowMs - now) / 1000))
      throw new HttpError(
        429,
        limit.message,
        { retryAfterSeconds: retryAfter },
        { 'retry-after': String(retryAfter) },
      )
    }
  }
}

export type RateCounter = ReturnType<typeof createRateCounter>

/**
 * Rate limits as route options: a route opts in with `{ rateLimit: LIMIT }`, or with a function of the
 * request body that picks the limits that apply (none, one or several). The client address is worked out
 * once per request, from the socket or the trusted proxies' X-Forwarded-For.
 */
export function rateLimitPlugin(options: { counter: RateCounter; trustedProxyHops: number }) {
  return new Elysia({ name: 'rate-limits' })
    .derive({ as: 'global' }, ({ request, server }) => ({
      clientAddress: clientAddress(
        request.headers.get('x-forwarded-for'),
        server?.requestIP(request)?.address ?? null,
        options.trustedProxyHops,
      ),
    }))
    .macro({
      rateLimit: (limits: Limit | ((body: unknown) => readonly Limit[])) => ({
        async beforeHandle({ clientAddress, body }: { clientAddress: string; body: unknown }) {
          const apply = typeof limits === 'function' ? limits(body) : [limits]
          for (const limit of apply) await options.counter(clientAddress, limit)
        },
      }),
    })
}

export type RateLimitPlugin = ReturnType<typeof rateLimitPlugin>

/** Whether a request body carries a non-blank `discount_code` (such calls also count as code guesses). */
export function sendsDiscountCode(body: unknown): boolean {
  const code = (body as { discount_code?: unknown } | null)?.discount_code
  return typeof code === 'string' && code.trim() !== ''
}
