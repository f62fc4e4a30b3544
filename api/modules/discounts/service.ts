import { customerKey } from '@core/rules/customer'
import type { DiscountTerms } from '@core/rules/discounts'
import { formatCents } from '@core/rules/money'
import { and, count, eq, gt, inArray, not, or, type SQL, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { discountCodes, discountRedemptions } from '../../../db/schema'
import type { Clock } from '../../lib/clock'
import { invalid, notFound } from '../../lib/domain-errors'
import { runTogether, type Statement } from '../../lib/statements'

export interface DiscountContext {
  subtotalCents: number
  /** The e-mail the session is for, kept with its reservation; no rule looks it up when a session opens. */
  email?: string
  /**
   * The signed-in customer's account. Per-customer rules (first order only, uses per customer) are checked
   * when a session opens against this account's own orders and uses, and only then: a guest's e-mail is
   * never looked up, since the answer would tell whoever typed it whether that address has ordered, and a
   * guest's reservation never holds anyone else's use (docs/decisions/021). Every payment is checked
   * again when it is paid, by e-mail and by account (repeatUseWarning).
   */
  userId?: string | null
}

interface Customer {
  email: string
  key: string
  userId: string | null
}

/** Who a paid order belongs to, as the rules checked at payment compare customers. */
export interface PayingCustomer {
  email: string
  userId: string | null
}

export interface Redemption {
  orderRef: string
  email: string
  userId: string | null
  /** The reservation the paid session held, if any: it becomes this redemption. */
  reservationKey?: string | null
}

export interface Reservation {
  /** The checkout request's idempotency key: the same request reserves once. */
  key: string
  /** The payment session lasts until then; an unpaid reservation stops counting after it. */
  expiresAt: Date
}

export interface DiscountServiceDeps {
  db: Database
  clock: Clock
  /** Whether this account already has a paid order: the orders module's answer. */
  hasPaidOrder: (customer: { userId: string }) => Promise<boolean>
}

export const USED_UP_MESSAGE = 'This discount code has been used up.'
export const ALREADY_USED_MESSAGE = 'You have already used this discount code.'
export const FIRST_ORDER_MESSAGE = 'This code is for your first order only.'

/** A code's terms are read again after this: edits made in the database reach every instance within it. */
const CODE_CACHE_MS = 30 * 1000

type CodeRow = typeof discountCodes.$inferSelect

export function createDiscountService({ db, clock, hasPaidOrder }: DiscountServiceDeps) {
  // Codes change rarely and are read on every check: kept in memory. Unknown codes are not remembered, so
  // guessing cannot fill memory; the limits that must be fresh are counted in the database each time.
  const codes = new Map<string, { row: CodeRow; readAt: number }>()

  async function codeRow(code: string): Promise<CodeRow | null> {
    const now = Date.now()
    const cached = codes.get(code)
    if (cached && now - cached.readAt < CODE_CACHE_MS) return cached.row
    const [row] = await db.select().from(discountCodes).where(eq(discountCodes.code, code))
    if (row) codes.set(code, { row, readAt: now })
    else codes.delete(code)
    return row ?? null
  }

  /** The same customer, as the rules checked at payment see one: the same customer key, or the same account. */
  function sameCustomer(customer: Customer): SQL {
    const byKey = eq(discountRedemptions.customerKey, customer.key)
    return (customer.userId ? or(byKey, eq(discountRedemptions.userId, customer.userId)) : byKey) as SQL
  }

  /** Uses that count against limits: paid ones, and reservations whose payment session may still be paid. */
  function counting(now: Date): SQL {
    return or(
      eq(discountRedemptions.status, 'redeemed'),
      and(eq(discountRedemptions.status, 'reserved'), gt(discountRedemptions.expiresAt, now)),
    ) as SQL
  }

  /**
   * What the limits need to know, in one query: uses of the code that count, the signed-in account's
   * share of them, and whether the account has a redeemed use of any code (a paid order).
   */
  async function usage(code: string, now: Date, userId: string | null) {
    const total = db
      .select({ n: count() })
      .from(discountRedemptions)
      .where(and(eq(discountRedemptions.code, code), counting(now)))
    if (!userId) {
      const [row] = await db.select({ total: sql<number>`(${total})` }).from(sql`(select 1)`)
      return { total: row?.total ?? 0, mine: 0, redeemedBefore: false }
    }
    const account = eq(discountRedemptions.userId, userId)
    const mine = db
      .select({ n: count() })
      .from(discountRedemptions)
      .where(and(eq(discountRedemptions.code, code), counting(now), account))
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

  function customerOf(context: DiscountContext): Customer | null {
    const email = context.email?.trim().toLowerCase()
    return email ? { email, key: customerKey(email), userId: context.userId ?? null } : null
  }

  /** A first-order code is once per customer even when its row sets no per-customer limit. */
  function perCustomerLimit(row: typeof discountCodes.$inferSelect): number | null {
    if (row.maxPerCustomer !== null)
      return row.firstOrderOnly ? Math.min(row.maxPerCustomer, 1) : row.maxPerCustomer
    return row.firstOrderOnly ? 1 : null
  }

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
      throw invalid(`This code needs an order of at least ${formatCents(row.minSubtotalCents)}.`)
    }
    return row
  }

  /** A customer's live reservations of first-order codes: their reservation keys. */
  function firstOrderReservations(paying: PayingCustomer): SQL {
    const customer = customerOf({ subtotalCents: 0, ...paying })
    if (!customer) throw new Error('a reservation belongs to an e-mail')
    return sql`select ${discountRedemptions.reservationKey} as key from ${discountRedemptions}
      where ${discountRedemptions.status} = 'reserved'
        and ${discountRedemptions.expiresAt} > ${clock.now().getTime()}
        and ${sameCustomer(customer)}
        and ${discountRedemptions.code} in (select code from ${discountCodes} where first_order_only)`
  }

  const service = {
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
     */
    async validate(code: string, context: DiscountContext): Promise<DiscountTerms> {
      const row = await usableRow(code, context)
      const now = clock.now()
      const userId = context.userId ?? null
      const limit = perCustomerLimit(row)
      const limited = row.maxRedemptions !== null || (userId !== null && limit !== null)
      if (limited) {
        const used = await usage(code, now, userId)
        if (row.maxRedemptions !== null && used.total >= row.maxRedemptions) throw invalid(USED_UP_MESSAGE)
        if (userId && limit !== null && used.mine >= limit) {
          throw invalid(row.firstOrderOnly ? FIRST_ORDER_MESSAGE : ALREADY_USED_MESSAGE)
        }
        // A redeemed use of any code is a paid order too; asking both keeps the rule if either record lags.
        if (userId && row.firstOrderOnly && (used.redeemedBefore || (await hasPaidOrder({ userId })))) {
          throw invalid(FIRST_ORDER_MESSAGE)
        }
      }
      return { code: row.code, type: row.type, amount: row.amount }
    },

    /**
     * Validates the code for this customer and holds one use of it for a checkout session, in one
     * conditional INSERT: the total limit, and a signed-in account's per-customer limit, count redeemed
     * uses and live reservations, so sessions opened in parallel can never pass a limit together. A
     * guest's reservation counts against the total only: it holds nobody's own use (DiscountContext). The
     * same request (a double click) gets its existing reservation back.
     */
    async reserve(code: string, context: DiscountContext, reservation: Reservation): Promise<DiscountTerms> {
      const terms = await service.validate(code, context)
      const customer = customerOf(context)
      if (!customer) throw new Error('a discount is reserved for a customer: the e-mail is required')
      const now = clock.now()
      const live = sql`(status = 'redeemed' or (status = 'reserved' and expires_at > ${now.getTime()}))`
      // A guest's per-customer uses are not counted here: every guest passes (the rules are applied when
      // the order is paid), so the per-customer test below is written to hold for them.
      const mine = customer.userId ? sql`user_id = ${customer.userId}` : sql`0`
      const [row] = await db.all<{ id: number }>(sql`
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
        on conflict (reservation_key) do nothing
        returning id`)
      if (row) return terms
      const [existing] = await db
        .select({ status: discountRedemptions.status })
        .from(discountRedemptions)
        .where(eq(discountRedemptions.reservationKey, reservation.key))
        .limit(1)
      if (existing && existing.status !== 'released') return terms
      // Another session took the last use between the check and the insert: say which limit it was.
      await service.validate(code, context)
      throw invalid(USED_UP_MESSAGE)
    },

    /**
     * SQL, for the transaction that makes a paid order: why this payment broke a per-customer rule of `code`, or
     * NULL. Checked for every customer, by customer key and by account, and answered to staff only (the
     * order's warning): a first-order code when `earlierOrder` (SQL: the number of this customer's order
     * paid before, or NULL) is not NULL; a code with uses per customer that this customer had used up.
     */
    repeatUseWarning(code: string, paying: PayingCustomer, orderRef: SQL, earlierOrder: SQL): SQL {
      const customer = customerOf({ subtotalCents: 0, ...paying })
      if (!customer) throw new Error('a paid order has an e-mail')
      const usedBefore = sql`(select count(*) from ${discountRedemptions}
        where ${discountRedemptions.code} = c.code and ${discountRedemptions.status} = 'redeemed'
          and ${discountRedemptions.orderRef} is not ${orderRef} and ${sameCustomer(customer)})`
      return sql`(select case
          when c.first_order_only and ${earlierOrder} is not null
            then printf('%s is for a first order only: this customer''s order %s was paid first.', c.code, ${earlierOrder})
          when c.max_per_customer is not null and ${usedBefore} >= c.max_per_customer
            then printf('%s allows %d use(s) per customer: this customer had used them already.', c.code, c.max_per_customer)
        end
        from ${discountCodes} c where c.code = ${code})`
    },

    /**
     * SQL: whether this customer (customer key or account) holds a live reservation of a first-order code,
     * i.e. has a session open with one. A paid order then has those sessions expired (the checkout module).
     */
    openFirstOrderReservationExists(paying: PayingCustomer): SQL {
      return sql`exists (${firstOrderReservations(paying)})`
    },

    /** The reservation keys of this customer's live first-order reservations. */
    async openFirstOrderReservations(paying: PayingCustomer): Promise<string[]> {
      const rows = await db.all<{ key: string }>(firstOrderReservations(paying))
      return rows.map((row) => row.key)
    },

    /** The session expired or its payment failed: its reservation stops counting. */
    async release(reservationKey: string): Promise<void> {
      await service.releaseStatement(reservationKey)
    },

    /** release as a statement, for the transaction that ends the session. */
    releaseStatement(reservationKey: string): Statement {
      return db
        .update(discountRedemptions)
        .set({ status: 'released' })
        .where(
          and(
            eq(discountRedemptions.reservationKey, reservationKey),
            eq(discountRedemptions.status, 'reserved'),
          ),
        )
    },

    /**
     * recordRedemption as statements for the transaction that makes the order, so the use is counted
     * with the order: `orderRef` is SQL for the order number there. Same rules: the reservation becomes
     * the redemption, else (no reservation, or it was already redeemed) a new row, which the unique order
     * reference makes a no-op the second time.
     */
    redeemStatements(code: string, redemption: Omit<Redemption, 'orderRef'>, orderRef: SQL): Statement[] {
      const email = redemption.email.trim().toLowerCase()
      const insert = sql`insert into ${discountRedemptions}
          (code, status, order_ref, email, customer_key, user_id, created_at)
        select ${code}, 'redeemed', ${orderRef}, ${email}, ${customerKey(email)}, ${redemption.userId},
               ${clock.now().getTime()}
        where ${redemption.reservationKey ? sql`changes() = 0` : sql`1`}
        on conflict do nothing`
      if (!redemption.reservationKey) return [db.run(insert)]
      return [
        db
          .update(discountRedemptions)
          .set({ status: 'redeemed', orderRef: sql`${orderRef}` })
          .where(
            and(
              eq(discountRedemptions.reservationKey, redemption.reservationKey),
              inArray(discountRedemptions.status, ['reserved', 'released']),
            ),
          ),
        // Right after the UPDATE, changes() counts the rows it redeemed.
        db.run(insert),
      ]
    },

    /**
     * For an account being deleted, unexecuted, for the deletion's batch (docs/decisions/018): its uses
     * of codes stay counted (a code's total limit still holds) but name nobody. A reservation whose
     * payment session may still be paid only stops being the account's: if it is paid, it is a guest's,
     * and the per-customer rules still see it by e-mail.
     */
    forgetCustomerQueries(userId: string): [Statement, Statement] {
      const now = clock.now()
      const live = and(eq(discountRedemptions.status, 'reserved'), gt(discountRedemptions.expiresAt, now))
      return [
        db
          .update(discountRedemptions)
          .set({ email: '', customerKey: '', userId: null })
          .where(and(eq(discountRedemptions.userId, userId), not(live as SQL))),
        db.update(discountRedemptions).set({ userId: null }).where(eq(discountRedemptions.userId, userId)),
      ]
    },

    /**
     * Counts a paid order's use of a code: its reservation becomes the redemption (even if it had been
     * released, since the customer did pay), or, for a session without one, a new row. The same order
     * twice counts once.
     */
    async recordRedemption(code: string, redemption: Redemption): Promise<void> {
      await runTogether(db, service.redeemStatements(code, redemption, sql`${redemption.orderRef}`))
    },
  }
  return service
}

export type DiscountService = ReturnType<typeof createDiscountService>
