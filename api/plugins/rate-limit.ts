import { Elysia } from 'elysia'
import { type Limit, limitKey, type RateCounter } from '../lib/rate-counters'

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
  return forwardedClient(forwardedFor, trustedProxyHops) ?? socketAddress ?? 'local'
}

/** The client as the trusted proxies' X-Forwarded-For names it, or null without trusted proxies or the header. */
function forwardedClient(forwardedFor: string | null, trustedProxyHops: number): string | null {
  if (trustedProxyHops <= 0 || !forwardedFor) return null
  const hops = forwardedFor
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  return hops[Math.max(0, hops.length - trustedProxyHops)] ?? null
}

/**
 * Rate limits as route options: a route opts in with `{ rateLimit: LIMIT }`, or with a function of the
 * request body that picks the limits that apply (none, one or several). The client address is worked out
 * once per request, from the socket or the trusted proxies' X-Forwarded-For.
 */
export function rateLimitPlugin(options: { counter: RateCounter; trustedProxyHops: number }) {
  return (
    new Elysia({ name: 'rate-limits' })
      // Limits count per client: an IPv6 client by its /64 network (limitKey).
      // The socket's address is asked for only when no trusted proxy named the client: it is not free.
      .derive({ as: 'global' }, ({ request, server }) => ({
        clientAddress: limitKey(
          forwardedClient(request.headers.get('x-forwarded-for'), options.trustedProxyHops) ??
            server?.requestIP(request)?.address ??
            'local',
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
  )
}

export type RateLimitPlugin = ReturnType<typeof rateLimitPlugin>

/** Whether a request body carries a non-blank `discount_code` (such calls also count as code guesses). */
export function sendsDiscountCode(body: unknown): boolean {
  const code = (body as { discount_code?: unknown } | null)?.discount_code
  return typeof code === 'string' && code.trim() !== ''
}
