/**
 * The statements that hold, sell, release and return units, for the transactions other modules run
 * (docs/decisions/026-stock-reserved-at-checkout.md): checkout reserves with its discount use, fulfilment
 * sells with the order, cancels and refunds restock with their own writes.
 */
import { and, eq, gt, lte, ne, type Placeholder, type SQL, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { stockHandovers, stockLevels, stockReservations } from '../../../db/schema/stock'
import { builtOnce, type Statement } from '../../lib/statements'
import { IN_FLIGHT_LIMIT_MS, type StockLine } from './model'

interface ReservationsDeps {
  db: Database
}

/**
 * The paid order's staff warning as SQL, the same object for every order of its shape (so the statement
 * that writes it is built once), and the values of its placeholders.
 */
export interface ShortfallWarning {
  sql: SQL
  values: Record<string, unknown>
}

/** A line in the shortfall warning's SQL: its values, or placeholders for the SQL built once per shape. */
type LineRef = { [Name in keyof StockLine]: StockLine[Name] | Placeholder }

/**
 * SQL: units other live reservations hold of this line's product and variant at `now` (ms). A session the
 * key's session is handing its units over to (docs/decisions/032) holds them for it, not against it.
 */
function heldByOthers(line: LineRef, key: Placeholder | SQL, now: Placeholder): SQL<number> {
  return sql<number>`coalesce((select sum(r.quantity) from ${stockReservations} r
    where r.product_id = ${line.productId} and r.variant = ${line.variant} and r.status = 'reserved'
      and r.expires_at > ${now} and r.reservation_key is not ${key}
      and r.reservation_key not in (select h.to_key from ${stockHandovers} h where h.from_key = ${key})), 0)`
}

/**
 * SQL for the paid order's staff warning (see `shortfallWarning`), for `count` lines, with placeholders
 * for every value: `key` (null when the session held nothing), `now`, and each line's `quantityN`, `labelN`,
 * `productIdN` and `variantN`. Each fragment appears once: what was free is worked out in an inner select,
 * cheapest first (CASE stops at the first branch that holds): the kept count of every hold (never below
 * what live ones hold), and only then the shelf less the others' live holds. A live hold of its own is
 * not taken on trust: staff may have set the shelf below what the holds take. NULL when the line had enough.
 */
function shortfallSql(count: number, withKey: boolean): SQL {
  if (count === 0) return sql`null`
  const key = sql.placeholder('key')
  const now = sql.placeholder('now')
  const cases = Array.from({ length: count }, (_, index) => {
    const line: LineRef = {
      productId: sql.placeholder(`productId${index}`),
      variant: sql.placeholder(`variant${index}`),
      quantity: sql.placeholder(`quantity${index}`),
      label: sql.placeholder(`label${index}`),
    }
    return sql`select case when free < ${line.quantity}
        then printf('%s: %d paid for, %d were free', ${line.label}, ${line.quantity}, max(free, 0)) end as short
      from (select case
          when l.on_hand - l.held >= ${line.quantity} then null
          else l.on_hand - ${heldByOthers(line, withKey ? key : sql`null`, now)} end as free
        from ${stockLevels} l
        where l.product_id = ${line.productId} and l.variant = ${line.variant} and l.on_hand is not null)`
  })
  return sql`(select case when list is null then null else printf(
      'Too few on the shelf at payment: %s. Check the shelf before packing; refund what cannot be sent.',
      list) end
    from (select group_concat(short, '; ') as list from (${sql.join(cases, sql` union all `)})))`
}

/** The shortfall warning's SQL per count of lines and whether a key held them: each built once. */
const shortfallSqlByShape = new Map<string, SQL>()

/** Units going back on the shelf of a product and (stock's) variant: a number, or SQL for one. */
export interface RestockLine {
  productId: number
  variant: string
  quantity: number | SQL<number>
}

/** This line's product and variant, counted (a row with on_hand). */
function counted(line: Pick<StockLine, 'productId' | 'variant'>) {
  return and(
    eq(stockLevels.productId, line.productId),
    eq(stockLevels.variant, line.variant),
    sql`${stockLevels.onHand} is not null`,
  )
}

/** The values of one line's hold (times in ms, as stored). */
type HoldValues = {
  key: string
  productId: number
  variant: string
  quantity: number
  until: number
  now: number
}

/**
 * SQL: hold one counted line's units under the key, if `onlyIf` holds; the same key again takes its own
 * hold over, never shortening it. A key that already holds those units (live), or sold them, inserts
 * nothing: the shelf's guard (a BEFORE INSERT trigger, which an upsert meets too) would refuse the request
 * for units that are its own, so a shopper who paid and presses Pay again would be told the line sold out
 * instead of that their payment went through, and a session the shelf was recounted under could not be
 * had again; the stored session decides those (checkout/service.ts). Values are given, or placeholders for
 * a statement built once.
 */
function holdSql(values: { [Name in keyof HoldValues]: HoldValues[Name] | Placeholder }, onlyIf: SQL) {
  const { key, productId, variant, quantity, until, now } = values
  return sql`insert into ${stockReservations}
      (reservation_key, product_id, variant, quantity, status, expires_at, created_at)
    select ${key}, ${productId}, ${variant}, ${quantity}, 'reserved', ${until}, ${now}
    where exists (select 1 from ${stockLevels}
        where ${stockLevels.productId} = ${productId} and ${stockLevels.variant} = ${variant}
          and ${stockLevels.onHand} is not null)
      and not exists (select 1 from ${stockReservations} own
        where own.reservation_key = ${key} and own.product_id = ${productId} and own.variant = ${variant}
          and (own.status = 'sold'
            or (own.status = 'reserved' and own.expires_at > ${now} and own.quantity >= ${quantity})))
      and (${onlyIf})
    on conflict (reservation_key, product_id, variant) do update set
      quantity = excluded.quantity,
      status = 'reserved',
      created_at = excluded.created_at,
      expires_at = case
        when ${stockReservations.status} = 'reserved' and ${stockReservations.expiresAt} > excluded.created_at
          then max(${stockReservations.expiresAt}, excluded.expires_at)
        else excluded.expires_at end
    where ${stockReservations.status} <> 'sold'`
}

/**
 * The statements every checkout and every paid order send, their SQL built once (api/lib/statements.ts).
 * Times in ms, as stored. `created` (SQL): the order transaction's "this payment made the order", the
 * same object for every order.
 */
function statementsBuiltOnce(db: Database) {
  // The session's delayed payment is on its way: its hold lasts at least until then. Never shortened: the
  // same checkout sent again takes its hold over after a delayed payment held it longer (holdSql).
  const extendHold = builtOnce<{ key: string; now: Date; until: number }>(() =>
    db
      .update(stockReservations)
      .set({ expiresAt: sql`max(${stockReservations.expiresAt}, ${sql.placeholder('until')})` })
      .where(
        and(
          eq(stockReservations.reservationKey, sql.placeholder('key')),
          eq(stockReservations.status, 'reserved'),
          gt(stockReservations.expiresAt, sql.placeholder('now')),
        ),
      ),
  )

  // A checkout without a condition (no discount code) is the busiest case: its hold is built once.
  const holdUnits = builtOnce<HoldValues>(() =>
    db.run(
      holdSql(
        {
          key: sql.placeholder('key'),
          productId: sql.placeholder('productId'),
          variant: sql.placeholder('variant'),
          quantity: sql.placeholder('quantity'),
          until: sql.placeholder('until'),
          now: sql.placeholder('now'),
        },
        sql`1`,
      ),
    ),
  )

  // A paid order's sale (`saleStatements`).
  const sellHold = builtOnce<{ key: string; productId: number; variant: string }, [SQL]>((created) =>
    db
      .update(stockReservations)
      .set({ status: 'sold' })
      .where(
        and(
          eq(stockReservations.reservationKey, sql.placeholder('key')),
          eq(stockReservations.productId, sql.placeholder('productId')),
          eq(stockReservations.variant, sql.placeholder('variant')),
          ne(stockReservations.status, 'sold'),
          sql`${created}`,
        ),
      ),
  )
  const takeOffShelf = builtOnce<
    { productId: number; variant: string; quantity: number; now: number },
    [SQL]
  >((created) =>
    db
      .update(stockLevels)
      .set({
        // Below 0 when the payment found too few: the units it is owed, so that a cancel or a restocking
        // refund of any order puts back only what that order took (docs/decisions/026).
        onHand: sql`${stockLevels.onHand} - ${sql.placeholder('quantity')}`,
        updatedAt: sql`${sql.placeholder('now')}`,
      })
      .where(
        and(
          eq(stockLevels.productId, sql.placeholder('productId')),
          eq(stockLevels.variant, sql.placeholder('variant')),
          sql`${stockLevels.onHand} is not null`,
          sql`${created}`,
        ),
      ),
  )

  return { extendHold, holdUnits, sellHold, takeOffShelf }
}

export function createReservations({ db }: ReservationsDeps) {
  const { extendHold, holdUnits, sellHold, takeOffShelf } = statementsBuiltOnce(db)
  const forgetHandOver = builtOnce<{ toKey: string }>(() =>
    db.delete(stockHandovers).where(eq(stockHandovers.toKey, sql.placeholder('toKey'))),
  )

  return {
    /**
     * Holds each counted line's units under `key` until `expiresAt`, for the transaction that reserves a
     * checkout session's cart: one INSERT per line, each refused by the guard (migration 0017's trigger)
     * when too few are left, which aborts the whole transaction. Lines nobody counts are left alone.
     * `onlyIf` (SQL) holds nothing unless it is true: the session's discount use, reserved just before.
     * The same key again (a double click) takes its own hold over, never shortening it.
     */
    reserveStatements(
      key: string,
      lines: readonly StockLine[],
      hold: { now: Date; expiresAt: Date; onlyIf?: SQL },
    ): Statement[] {
      const now = hold.now.getTime()
      const until = hold.expiresAt.getTime()
      return lines.map((line) => {
        const values = {
          key,
          productId: line.productId,
          variant: line.variant,
          quantity: line.quantity,
          until,
          now,
        }
        return hold.onlyIf ? db.run(holdSql(values, hold.onlyIf)) : holdUnits.with(values)
      })
    },

    /**
     * The session's delayed payment is on its way: its hold lasts as long as the bank may take, and never
     * less than it already did. A hold that already ran out is not taken back (others
     * may have the units now); its payment is checked when it comes.
     */
    holdStatement(key: string, now: Date, until: Date): Statement {
      return extendHold.with({ key, now, until: until.getTime() })
    },

    /**
     * Holds that ran out are marked released, now and then (the job runner's sweep): they stopped
     * counting when they expired, and released they leave the kept count (migration 0019), so holds go on
     * passing the guard without a sum. A payment that comes later still finds its session and is checked
     * as any late one is (`shortfallWarning`).
     */
    async releaseExpired(now: Date): Promise<number> {
      const result = await db
        .update(stockReservations)
        .set({ status: 'released' })
        .where(and(eq(stockReservations.status, 'reserved'), lte(stockReservations.expiresAt, now)))
      // A hand-over lasts while the provider is asked to end a session; one a crash left is tidied here
      // (each reservation under its key starts by dropping it anyway).
      await db
        .delete(stockHandovers)
        .where(lte(stockHandovers.createdAt, new Date(now.getTime() - IN_FLIGHT_LIMIT_MS)))
      return result.rowsAffected
    },

    /** The units still held under `key` at `now`, by product and variant. */
    async heldUnder(
      key: string,
      now: Date,
    ): Promise<{ productId: number; variant: string; units: number }[]> {
      return db.all(sql`select product_id as productId, variant, sum(quantity) as units
        from ${stockReservations}
        where reservation_key = ${key} and status = 'reserved' and expires_at > ${now.getTime()}
        group by product_id, variant`)
    },

    /** The session ended unpaid, or never opened: its units are free for others. Only if `when` (SQL) holds. */
    releaseStatement(key: string, when: SQL = sql`1`): Statement {
      return db
        .update(stockReservations)
        .set({ status: 'released' })
        .where(and(eq(stockReservations.reservationKey, key), eq(stockReservations.status, 'reserved'), when))
    },

    /**
     * The cart's earlier session (`fromKey`) hands its units over to its next one (`toKey`), for the
     * transaction that reserves the next (docs/decisions/032): the guard then leaves the earlier holds out
     * of what others hold for the next one's reservations. The earlier keeps its holds until it is ended.
     * Only if `onlyIf` holds (the next session's code use was held).
     */
    handOverStatement(fromKey: string, toKey: string, now: Date, onlyIf: SQL = sql`1`): Statement {
      return db.run(sql`insert into ${stockHandovers} (from_key, to_key, created_at)
        select ${fromKey}, ${toKey}, ${now.getTime()} where ${onlyIf}
        on conflict do nothing`)
    },

    /**
     * The hand-over to `toKey` is over: the earlier session was ended, or the next one given up. Sent
     * with every reservation (a crash may have left one): built once.
     */
    forgetHandOverStatement(toKey: string): Statement {
      return forgetHandOver.with({ toKey })
    },

    /**
     * SQL for the paid order's staff warning, or NULL: the lines that found fewer units free than they
     * took (their hold had run out or been released before the payment came, or staff set the shelf below
     * what was held). Evaluated before `saleStatements`, in the same transaction.
     */
    shortfallWarning(key: string | null, lines: readonly StockLine[], now: Date): ShortfallWarning {
      const shape = `${lines.length}:${key !== null}`
      let warning = shortfallSqlByShape.get(shape)
      if (!warning) {
        warning = shortfallSql(lines.length, key !== null)
        shortfallSqlByShape.set(shape, warning)
      }
      const values: Record<string, unknown> = { now: now.getTime(), ...(key === null ? {} : { key }) }
      for (const [index, line] of lines.entries()) {
        values[`productId${index}`] = line.productId
        values[`variant${index}`] = line.variant
        values[`quantity${index}`] = line.quantity
        values[`label${index}`] = line.label
      }
      return { sql: warning, values }
    },

    /**
     * A paid order takes its units off the shelf and its reservation becomes a sale, once: only when
     * `created` (SQL: this payment made the order) holds. A payment that found too few takes the shelf
     * below 0 (the units owed to paid orders) and is marked for staff by `shortfallWarning`.
     */
    saleStatements(key: string | null, lines: readonly StockLine[], created: SQL, now: Date): Statement[] {
      return lines.flatMap((line) => {
        const unit = { productId: line.productId, variant: line.variant }
        return [
          ...(key === null ? [] : [sellHold.with({ ...unit, key }, created)]),
          takeOffShelf.with({ ...unit, quantity: line.quantity, now: now.getTime() }, created),
        ]
      })
    },

    /** SQL: true when any of `lines` is counted (where `restockStatements` would move units). */
    anyCountedSql(lines: readonly Pick<RestockLine, 'productId' | 'variant'>[]): SQL {
      if (lines.length === 0) return sql`0`
      return sql`exists (select 1 from ${stockLevels} where ${sql.join(
        lines.map((line) => sql`(${counted(line)})`),
        sql` or `,
      )})`
    },

    /**
     * Units back on the shelf (a cancel, a refund with restock): counted lines only. A line's quantity may
     * be SQL, worked out in the transaction (the units of an order line not back yet).
     */
    restockStatements(lines: readonly RestockLine[], now: Date, when?: SQL): Statement[] {
      return lines.map((line) =>
        db
          .update(stockLevels)
          .set({ onHand: sql`${stockLevels.onHand} + ${line.quantity}`, updatedAt: now })
          .where(when ? and(counted(line), when) : counted(line)),
      )
    },
  }
}
