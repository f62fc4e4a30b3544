/**
 * Checkout requests in flight under one reservation key (docs/decisions/032, "The same request twice at
 * once"). A request's key is a digest of what it asks for, so the same request sent twice at once (a
 * network retry, an API client) holds its code's use and its units under one key, and the provider answers
 * both with one session. One of the two failing (the provider refused it, or could not end the cart's
 * earlier session) must not give back what the other's session relies on: it gives the holds back only
 * when it is alone, no other request under the key being in flight and no session stored under it still
 * payable.
 */
import { and, eq, lte, type SQL, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { checkoutRequests, checkoutSessions } from '../../../db/schema/checkout'
import { discountRedemptions } from '../../../db/schema/discounts'
import { stockReservations } from '../../../db/schema/stock'
import { builtOnce, runTogether, type Statement } from '../../lib/statements'
import { IN_FLIGHT_LIMIT_MS } from '../stock/model'

/** One request's place under its key: the key it holds under and its own id. */
export interface InFlight {
  key: string
  requestId: string
}

export function createInFlight(db: Database) {
  // Every checkout sends both: built once. Only a request that holds something is recorded (a cart of
  // products nobody counts, without a code, has nothing another could give back).
  const start = builtOnce<{ key: string; requestId: string; now: number }>(() =>
    db.run(sql`insert into ${checkoutRequests} (reservation_key, request_id, started_at)
      select ${sql.placeholder('key')}, ${sql.placeholder('requestId')}, ${sql.placeholder('now')}
      where exists (select 1 from ${stockReservations} r
          where r.reservation_key = ${sql.placeholder('key')} and r.status = 'reserved')
        or exists (select 1 from ${discountRedemptions} d
          where d.reservation_key = ${sql.placeholder('key')} and d.status = 'reserved')
      on conflict do nothing`),
  )
  const finish = builtOnce<{ key: string; requestId: string }>(() =>
    db
      .delete(checkoutRequests)
      .where(
        and(
          eq(checkoutRequests.reservationKey, sql.placeholder('key')),
          eq(checkoutRequests.requestId, sql.placeholder('requestId')),
        ),
      ),
  )

  return {
    /**
     * For the transaction that reserves, after its holds: the request is in flight under its key, if it
     * holds anything.
     */
    startStatement: (request: InFlight, now: Date): Statement =>
      start.with({ ...request, now: now.getTime() }),

    /** For the transaction that stores the session or gives the request up: no longer in flight. */
    finishStatement: (request: InFlight): Statement => finish.with(request),

    /**
     * SQL: true when this request is alone under its key: no other one in flight (one a crash left stops
     * counting after IN_FLIGHT_LIMIT_MS) and no session stored under the key that can still be paid (open,
     * or its bank debit on its way). Only then may its failure give the key's holds back.
     */
    aloneSql(request: InFlight, now: Date): SQL {
      const since = now.getTime() - IN_FLIGHT_LIMIT_MS
      return sql`not exists (select 1 from ${checkoutRequests} q
          where q.reservation_key = ${request.key} and q.request_id <> ${request.requestId}
            and q.started_at > ${since})
        and not exists (select 1 from ${checkoutSessions} s
          where s.stock_reservation_key = ${request.key} and s.status in ('open', 'payment_pending'))`
    },

    /**
     * The sweep: requests a dying process left in flight, older than IN_FLIGHT_LIMIT_MS. Their units and
     * their code's use were held for a session's whole life (the reservation does not wait for the session
     * to be stored to say so), so both are given back here, unless the key is not theirs alone: another
     * request under it still in flight, or a session stored under it that can still be paid (the same
     * request sent again after the crash). Then the rows go. One transaction, so a request under the key
     * that starts meanwhile either comes first and keeps the holds, or comes after and takes them again.
     */
    async forgetStale(now: Date): Promise<void> {
      const stale = now.getTime() - IN_FLIGHT_LIMIT_MS
      const deadAlone = sql`select q.reservation_key from ${checkoutRequests} q
        where q.started_at <= ${stale}
          and not exists (select 1 from ${checkoutRequests} f
            where f.reservation_key = q.reservation_key and f.started_at > ${stale})
          and not exists (select 1 from ${checkoutSessions} s
            where s.stock_reservation_key = q.reservation_key and s.status in ('open', 'payment_pending'))`
      await runTogether(db, [
        db.run(sql`update ${stockReservations} set status = 'released'
          where status = 'reserved' and reservation_key in (${deadAlone})`),
        db.run(sql`update ${discountRedemptions} set status = 'released'
          where status = 'reserved' and reservation_key in (${deadAlone})`),
        db.delete(checkoutRequests).where(lte(checkoutRequests.startedAt, new Date(stale))),
      ])
    },
  }
}

export type InFlightRequests = ReturnType<typeof createInFlight>
