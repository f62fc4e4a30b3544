/**
 * A code's terms and limits when a checkout session opens: whether it may be used, and one use held for
 * the session (docs/decisions/006-discount-uses-are-reserved.md).
 */
import type { DiscountTerms } from '@core/rules/discounts'
import { centsToDollars, formatCents } from '@core/rules/money'
import { and, count, eq, type SQL, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { discountCodes, discountRedemptions } from '../../../db/schema'
import type { Clock } from '../../lib/clock'
import { invalid, notFound } from '../../lib/domain-errors'
import { commitTogether, type Statement } from '../../lib/statements'
import {
  ALREADY_USED_MESSAGE,
  type CodeRow,
  type Customer,
  counting,
  customerOf,
  type DiscountContext,
  FIRST_ORDER_MESSAGE,
  perCustomerLimit,
  type Reservation,
  USED_UP_MESSAGE,
} from './model'

/** A code's terms are read again after this: edits made in the database reach every instance within it. */
const CODE_CACHE_MS = 30 * 1000

export interface DiscountLimitsDeps {
  db: Database
  clock: Clock
  /** Whether this account already has a paid order: the orders module's answer. */
  hasPaidOrder: (customer: { userId: string }) => Promise<boolean>
}

/**
 * What the limits need to know, in one query: uses of the code that count, the signed-in account's share
 * of them, and whether the account has a redeemed use of any code (a paid order). `ownKeys`: uses the
 * asker holds already are not counted against it (the same checkout request after a double click or Pay
 * pressed again, or the cart's own open session: docs/decisions/032).
 */
async function usage(
  db: Database,
  code: string,
  now: Date,
  userId: string | null,
  ownKeys: readonly string[],
) {
  const others = and(
    counting(now),
    ...ownKeys.map((key) => sql`${discountRedemptions.reservationKey} is not ${key}`),
  )
  const total = db
    .select({ n: count() })
    .from(discountRedemptions)
    .where(and(eq(discountRedemptions.code, code), others))
  if (!userId) {
    const [row] = await db.select({ total: sql<number>`(${total})` }).from(sql`(select 1)`)
    return { total: row?.total ?? 0, mine: 0, redeemedBefore: false }
  }
  const account = eq(discountRedemptions.userId, userId)
  const mine = db
    .select({ n: count() })
    .from(discountRedemptions)
    .where(and(eq(discountRedemptions.code, code), others, account))
  const before = db
    .select({ one: sql`1` })
    .from(discountRedemptions)
    .where(and(eq(discountRedemptions.status, 'redeemed'), account))
    .limit(1)
  const [row] = await db
    .select({
      total: sql<number>`(${total})`,
      mine: sql<number>`(${mine})`,
      redeemedBefore: sql<number>`exists ${before}`,
    })
    .from(sql`(select 1)`)
  return { total: row?.total ?? 0, mine: row?.mine ?? 0, redeemedBefore: Boolean(row?.redeemedBefore) }
}

/**
 * One conditional INSERT that holds a use of `code` only while its limits allow: the total limit, and a
 * signed-in account's per-customer limit, count redeemed uses and live reservations. It inserts nothing
 * when a limit was reached or the same request had reserved already (`heldSql` then tells the two apart);
 * the same request whose use was released (the provider refused its session: 'Please try again') holds
 * it again, under the same limits, as its units are held again.
 */
function insertReservation(
  db: Database,
  code: string,
  customer: Customer,
  reservation: Reservation,
  now: Date,
): Statement {
  // The use handed over from the cart's earlier session is released in the same transaction: not counted.
  const live = sql`(status = 'redeemed' or (status = 'reserved' and expires_at > ${now.getTime()}
    and reservation_key is not ${reservation.handedOver ?? null}))`
  // A guest's per-customer uses are not counted here: every guest passes (the rules are applied when the
  // order is paid), so the per-customer test below is written to hold for them.
  const mine = customer.userId ? sql`user_id = ${customer.userId}` : sql`0`
  return db.run(sql`
    insert into discount_redemptions
      (code, status, reservation_key, email, customer_key, user_id, expires_at, created_at)
    select ${code}, 'reserved', ${reservation.key}, ${customer.email}, ${customer.key}, ${customer.userId},
           ${reservation.expiresAt.getTime()}, ${now.getTime()}
    from discount_codes c
    where c.code = ${code}
      and (c.max_redemptions is null
           or (select count(*) from discount_redemptions where code = ${code} and ${live}) < c.max_redemptions)
      and (case
             when c.first_order_only then min(coalesce(c.max_per_customer, 1), 1)
             else c.max_per_customer
           end is null
           or (select count(*) from discount_redemptions where code = ${code} and ${live} and ${mine})
              < case
                  when c.first_order_only then min(coalesce(c.max_per_customer, 1), 1)
                  else c.max_per_customer
                end)
    on conflict (reservation_key) do update set
      status = 'reserved', expires_at = excluded.expires_at, created_at = excluded.created_at
    where discount_redemptions.status = 'released'`)
}

/** SQL: whether the reservation under this key holds a use (made now, or by the same request before). */
function heldSql(key: string): SQL<number> {
  return sql<number>`exists (select 1 from ${discountRedemptions}
    where ${discountRedemptions.reservationKey} = ${key} and ${discountRedemptions.status} <> 'released')`
}

/**
 * A use of a code ready to be held for a checkout session: the statement that holds it, for the
 * transaction that reserves everything the session needs (its stock too), and what to do after it.
 */
export interface DiscountHold {
  terms: DiscountTerms
  statement: Statement
  /** SQL, true once the statement ran if the session holds the use. */
  held: SQL<number>
  /** The statement held nothing: throws the limit's message. */
  refused(): Promise<never>
}

/**
 * Codes change rarely and are read on every check: kept in memory. Unknown codes are not remembered, so
 * guessing cannot fill memory; the limits that must be fresh are counted in the database each time.
 */
function codeCache(db: Database): (code: string) => Promise<CodeRow | null> {
  const codes = new Map<string, { row: CodeRow; readAt: number }>()
  return async (code) => {
    const now = Date.now()
    const cached = codes.get(code)
    if (cached && now - cached.readAt < CODE_CACHE_MS) return cached.row
    const [row] = await db.select().from(discountCodes).where(eq(discountCodes.code, code))
    if (row) codes.set(code, { row, readAt: now })
    else codes.delete(code)
    return row ?? null
  }
}

export function createDiscountLimits({ db, clock, hasPaidOrder }: DiscountLimitsDeps) {
  const codeRow = codeCache(db)

  /** The code's row if the code exists, is active now and the subtotal reaches its minimum. */
  async function usableRow(code: string, context: Pick<DiscountContext, 'subtotalCents'>): Promise<CodeRow> {
    const row = await codeRow(code)
    if (!row) throw notFound('This discount code does not exist.')
    const now = clock.now()
    if (row.activeFrom && now.getTime() < row.activeFrom.getTime())
      throw invalid('This discount code is not active yet.')
    if (row.activeUntil && now.getTime() >= row.activeUntil.getTime())
      throw invalid('This discount code has expired.')
    if (context.subtotalCents < row.minSubtotalCents) {
      // The minimum travels with the refusal (dollars, as the answer's): a cart that accepted the code keeps
      // it, counting for nothing until it reaches this (docs/product.md#cart).
      throw invalid(`This code needs an order of at least ${formatCents(row.minSubtotalCents)}.`, {
        minSubtotal: Number(centsToDollars(row.minSubtotalCents)),
      })
    }
    return row
  }

  const limits = {
    /**
     * The code's own terms for this order — it exists, is active and the subtotal reaches its minimum —
     * without counting uses: from memory. Checkout prices the session with these and `reserve` then
     * checks the limits once, as it holds the use. Otherwise a 4xx the shopper can act on.
     */
    async terms(code: string, context: Pick<DiscountContext, 'subtotalCents'>): Promise<DiscountTerms> {
      const row = await usableRow(code, context)
      return { code: row.code, type: row.type, amount: row.amount }
    },

    /**
     * The code's terms if it may be used for this order; otherwise a 4xx the shopper can act on. The
     * per-customer rules are asked of a signed-in account only, about that account (DiscountContext).
     * `heldBy`: the keys of uses the asker holds already (its checkout request's, its cart's open
     * session's), not counted against it.
     */
    async validate(
      code: string,
      context: DiscountContext,
      heldBy: readonly string[] = [],
    ): Promise<DiscountTerms> {
      const row = await usableRow(code, context)
      const userId = context.userId ?? null
      const limit = perCustomerLimit(row)
      const limited = row.maxRedemptions !== null || (userId !== null && limit !== null)
      if (limited) {
        const used = await usage(db, code, clock.now(), userId, heldBy)
        if (row.maxRedemptions !== null && used.total >= row.maxRedemptions) throw invalid(USED_UP_MESSAGE)
        if (userId && limit !== null && used.mine >= limit) {
          throw invalid(row.firstOrderOnly ? FIRST_ORDER_MESSAGE : ALREADY_USED_MESSAGE)
        }
        // A redeemed use of any code is a paid order too; asking both keeps the rule if either record lags.
        if (userId && row.firstOrderOnly && (used.redeemedBefore || (await hasPaidOrder({ userId })))) {
          throw invalid(FIRST_ORDER_MESSAGE)
        }
      }
      return { code: row.code, type: row.type, amount: row.amount, minSubtotalCents: row.minSubtotalCents }
    },

    /**
     * Validates the code for this customer and prepares the conditional INSERT that holds one use of it
     * for a checkout session, so sessions opened in parallel can never pass a limit together. A guest's
     * reservation counts against the total only: it holds nobody's own use (DiscountContext). The same
     * request (a double click) keeps its existing reservation.
     */
    async prepareReservation(
      code: string,
      context: DiscountContext,
      reservation: Reservation,
    ): Promise<DiscountHold> {
      const own = [reservation.key, ...(reservation.handedOver ? [reservation.handedOver] : [])]
      const terms = await limits.validate(code, context, own)
      const customer = customerOf(context)
      if (!customer) throw new Error('a discount is reserved for a customer: the e-mail is required')
      return {
        terms,
        statement: insertReservation(db, code, customer, reservation, clock.now()),
        held: heldSql(reservation.key),
        async refused(): Promise<never> {
          // Another session took the last use between the check and the insert: say which limit it was.
          await limits.validate(code, context, own)
          throw invalid(USED_UP_MESSAGE)
        },
      }
    },

    /** prepareReservation, held on its own: the code's terms, or the limit's message. */
    async reserve(code: string, context: DiscountContext, reservation: Reservation): Promise<DiscountTerms> {
      const hold = await limits.prepareReservation(code, context, reservation)
      const [row] = await commitTogether(
        db,
        [hold.statement],
        db.all<{ held: number }>(sql`select ${hold.held} as held`),
      )
      if (!row?.held) await hold.refused()
      return hold.terms
    },
  }
  return limits
}
