import { or, sql } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Database } from '../../db/client'
import { rateLimits } from '../../db/schema'
import { ClientCounts } from './client-counts'
import type { Clock } from './clock'
import { tooMany } from './domain-errors'

/**
 * How often a client or an e-mail may do something: the counters behind every rate limit. The routes apply
 * them per client address through api/plugins/rate-limit.ts; services count per e-mail or account with the
 * same counters. A refusal is a domain error ('too-many') with the seconds to wait.
 */
export interface Limit {
  /** Names the counter: limits with the same name share one allowance per address. */
  name: string
  /** Requests allowed per window. */
  max: number
  windowMs: number
  /** What the customer reads when refused. */
  message: string
}

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  const [head = '', tail, ...more] = address.split('::')
  if (more.length > 0) return null
  const parse = (part: string) => (part === '' ? [] : part.split(':'))
  const left = parse(head)
  const right = tail === undefined ? [] : parse(tail)
  const missing = 8 - left.length - right.length
  if (tail === undefined ? missing !== 0 : missing < 1) return null
  const groups = [...left, ...Array(tail === undefined ? 0 : missing).fill('0'), ...right]
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return null
  return groups.map((group) => Number.parseInt(group, 16))
}

// Compiled once: a regular expression literal inside the function is a new object on every call, and this
// runs for every request.
const BRACKETS = /^\[|\]$/g
const ZONE = /%.*$/
const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i

/**
 * The client as limits count it. An internet provider hands each subscriber a whole IPv6 /64, so one
 * person can use any of its 2^64 addresses: a limit per address would be no limit. An IPv6 client is
 * therefore counted by its /64 network; an IPv4 address written as IPv6 (::ffff:a.b.c.d) is that IPv4
 * address. Anything else (an IPv4 address, 'local') is counted as it is.
 */
export function limitKey(address: string): string {
  const trimmed = address.trim().replace(BRACKETS, '').replace(ZONE, '')
  const mapped = MAPPED_IPV4.exec(trimmed)
  if (mapped?.[1]) return mapped[1]
  if (!trimmed.includes(':')) return trimmed
  const groups = ipv6Groups(trimmed)
  if (!groups) return trimmed.toLowerCase()
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`
}

function refuse(limit: Limit, windowStart: number, now: number): never {
  throw tooMany(limit.message, Math.max(1, Math.ceil((windowStart + limit.windowMs - now) / 1000)))
}

/**
 * Clients counted per limit before the first counted is dropped: a flood of new addresses cannot fill
 * memory (when full, a table of 262,144 slots of 12 bytes and a ring of 8 bytes a client: about 4 MB a limit).
 */
const MAX_MEMORY_CLIENTS = 100_000

/**
 * Fixed-window counting in this process's memory, for the cheap public calls (discount checks, rates,
 * newsletter, checkout): no database write per request. Each instance counts on its own, so N instances
 * allow N times the limit (docs/decisions/007). Throws a 'too-many' error with the seconds to wait once the
 * allowance is used.
 *
 * A fixed window needs only the current window's counts, so each limit keeps one table per window and
 * starts a new one when its window turns. The tables are typed arrays, not Maps of strings: under a load
 * from many addresses they are full, and the collector would walk a Map on every collection
 * (api/lib/client-counts.ts). A full table is about 4 MB, so when any limit's window turns, the tables of
 * other limits whose windows have ended go too: a flood on one call does not stay in memory until that
 * call is used again.
 */
export function createMemoryRateCounter(clock: Clock) {
  /** By limit name (limits with the same name share one allowance): its window and the counts in it. */
  const windows = new Map<string, LimitWindow>()

  function dropEnded(now: number): void {
    for (const [name, window] of windows) if (window.windowEnd <= now) windows.delete(name)
  }

  async function hit(key: string, limit: Limit): Promise<void> {
    const now = clock.now().getTime()
    const windowStart = now - (now % limit.windowMs)
    let window = windows.get(limit.name)
    if (window?.windowStart !== windowStart) {
      dropEnded(now)
      window = {
        windowStart,
        windowEnd: windowStart + limit.windowMs,
        counts: new ClientCounts(MAX_MEMORY_CLIENTS),
      }
      windows.set(limit.name, window)
    }
    if (window.counts.increment(key) > limit.max) refuse(limit, windowStart, now)
  }
  /** How many limits hold a table now (tests/unit/plugins/memory-rate-counter.test.ts). */
  hit.tablesHeld = () => windows.size
  return hit
}

interface LimitWindow {
  windowStart: number
  windowEnd: number
  counts: ClientCounts
}

/**
 * Fixed-window counting in the database: one atomic upsert per request, shared by every server instance,
 * for limits that must hold across instances. Throws a 'too-many' error with the seconds to wait once the window's
 * allowance is used.
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
    if ((row?.count ?? 0) > limit.max) refuse(limit, windowStart, now)
  }
}

export type RateCounter = (key: string, limit: Limit) => Promise<void>

/**
 * Removes the database counters kept for these keys (an account's id) under every limit's name, for an
 * account deletion's batch; unexecuted. Buckets are `name:key`, so a key matches only whole.
 */
export function forgetRateCountsQuery(db: Database, keys: readonly string[]): BatchItem<'sqlite'> {
  const matches = keys.map((key) => sql`substr(${rateLimits.bucket}, -(length(${key}) + 1)) = ${`:${key}`}`)
  return db.delete(rateLimits).where(or(...matches))
}
