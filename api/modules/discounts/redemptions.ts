/**
 * A code's uses once a session is paid or ends: redeemed with the order, released with an unpaid session,
 * checked again at payment for every customer (docs/decisions/021), and forgotten with an account.
 */
import { customerKey } from '@core/rules/customer'
import { and, eq, gt, inArray, not, type Placeholder, type SQL, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { discountCodes, discountRedemptions } from '../../../db/schema'
import type { Clock } from '../../lib/clock'
import { builtOnce, perSqlPair, runTogether, type Statement } from '../../lib/statements'
import { type Customer, customerOf, type PayingCustomer, type Redemption, sameCustomer } from './model'

interface RedemptionsDeps {
  db: Database
  clock: Clock
}

/** The paying customer as the rules see one; `unnamed` says why one without an e-mail cannot be. */
function customerPaying(paying: PayingCustomer, unnamed: string): Customer {
  const customer = customerOf({ subtotalCents: 0, ...paying })
  if (!customer) throw new Error(unnamed)
  return customer
}

/** Whose first-order reservations: values, or placeholders for a statement built once. */
interface FirstOrderCustomer {
  key: string | Placeholder
  /** The account, or null for a guest (then only the customer key matches). */
  userId: string | Placeholder | null
  now: number | Placeholder
}

/**
 * SQL: a customer's live reservations of first-order codes, their reservation keys; the same customer as
 * the rules at payment see one (`sameCustomer`): the customer key, or the account.
 */
function firstOrderReservations({ key, userId, now }: FirstOrderCustomer): SQL {
  return sql`select ${discountRedemptions.reservationKey} as key from ${discountRedemptions}
    where ${discountRedemptions.status} = 'reserved'
      and ${discountRedemptions.expiresAt} > ${now}
      and ${sameCustomer({ key, userId })}
      and ${discountRedemptions.code} in (select code from ${discountCodes} where first_order_only)`
}

/**
 * SQL: whether a customer holds a live reservation of a first-order code, with placeholders for the
 * customer (`firstOrderCustomerKey`, and `firstOrderUserId` with an account) and the time
 * (`firstOrderNow`): one object per shape, so the paid order's statement it guards is built once.
 */
function openFirstOrderSql(withAccount: boolean): SQL {
  const customer = {
    key: sql.placeholder('firstOrderCustomerKey'),
    userId: withAccount ? sql.placeholder('firstOrderUserId') : null,
    now: sql.placeholder('firstOrderNow'),
  }
  return sql`exists (${firstOrderReservations(customer)})`
}

const OPEN_FIRST_ORDER = { guest: openFirstOrderSql(false), account: openFirstOrderSql(true) }

/**
 * For an account being deleted, unexecuted, for the deletion's batch (docs/decisions/018): its uses of
 * codes stay counted (a code's total limit still holds) but name nobody. A reservation whose payment
 * session may still be paid only stops being the account's: if it is paid, it is a guest's, and the
 * per-customer rules still see it by e-mail.
 */
function forgetCustomerStatements({ db, clock }: RedemptionsDeps, userId: string): [Statement, Statement] {
  const live = and(eq(discountRedemptions.status, 'reserved'), gt(discountRedemptions.expiresAt, clock.now()))
  return [
    db
      .update(discountRedemptions)
      .set({ email: '', customerKey: '', userId: null })
      .where(and(eq(discountRedemptions.userId, userId), not(live as SQL))),
    db.update(discountRedemptions).set({ userId: null }).where(eq(discountRedemptions.userId, userId)),
  ]
}

/**
 * SQL, for the transaction that makes a paid order: why this payment broke a rule of its code, or NULL.
 * Checked for every customer, by customer key and by account, and answered to staff only (the order's
 * warning): a first-order code when `earlierOrder` (SQL: the number of this customer's order paid before,
 * or NULL) is not NULL; a code with uses per customer that this customer had used up; a code whose uses in
 * all were used up by other orders, which a payment after its reservation ran out can find (a bank debit
 * clears days after the session's 25 hours). The code and the customer are placeholders
 * (`repeatUseWarning` gives their values).
 */
function repeatUseWarningSql(withAccount: boolean, orderRef: SQL, earlierOrder: SQL): SQL {
  const customer = {
    key: sql.placeholder('warningCustomerKey'),
    userId: withAccount ? sql.placeholder('warningUserId') : null,
  }
  /** The code's uses redeemed by orders other than this one, of those `whose` picks. */
  const redeemedElsewhere = (whose: SQL = sql`1`) => sql`(select count(*) from ${discountRedemptions}
    where ${discountRedemptions.code} = c.code and ${discountRedemptions.status} = 'redeemed'
      and ${discountRedemptions.orderRef} is not ${orderRef} and ${whose})`
  const usedBefore = redeemedElsewhere(sameCustomer(customer))
  const usedByOthers = redeemedElsewhere()
  return sql`(select case
      when c.first_order_only and ${earlierOrder} is not null
        then printf('%s is for a first order only: this customer''s order %s was paid first.', c.code, ${earlierOrder})
      when c.max_per_customer is not null and ${usedBefore} >= c.max_per_customer
        then printf('%s allows %d use(s) per customer: this customer had used them already.', c.code, c.max_per_customer)
      when c.max_redemptions is not null and ${usedByOthers} >= c.max_redemptions
        then printf('%s allows %d use(s) in all: other orders had used them before this payment came.', c.code, c.max_redemptions)
    end
    from ${discountCodes} c where c.code = ${sql.placeholder('warningCode')})`
}

/**
 * The warning's SQL per shape of customer (a guest, an account), for the order's SQL it was made with:
 * every paid order's transaction names its order with the same SQL objects, so each shape is one object and
 * the statement that writes it is built once (orders' `warningWrite`).
 */
const warningShapes = perSqlPair((orderRef, earlierOrder) => ({
  guest: repeatUseWarningSql(false, orderRef, earlierOrder),
  account: repeatUseWarningSql(true, orderRef, earlierOrder),
}))

function repeatUseWarning(
  code: string,
  paying: PayingCustomer,
  orderRef: SQL,
  earlierOrder: SQL,
): { sql: SQL; values: Record<string, unknown> } {
  const customer = customerPaying(paying, 'a paid order has an e-mail')
  const shapes = warningShapes(orderRef, earlierOrder)
  const values = { warningCode: code, warningCustomerKey: customer.key }
  return customer.userId
    ? { sql: shapes.account, values: { ...values, warningUserId: customer.userId } }
    : { sql: shapes.guest, values }
}

/** `when` left out: every call the same object, so the statements below are built once for it too. */
const ALWAYS = sql`1`

/**
 * The statements that redeem a use, built once for each order SQL and condition they are given (every paid
 * order's transaction gives the same objects; `recordRedemption` its own each time), the values apart:
 * the reservation becoming the redemption, then a new row only if it did not (`unreserved`), or a new row
 * for a session that held none (`newUse`). The unique order reference makes a new row a no-op the second time.
 */
function createRedemptionWrites(db: Database) {
  const insert = (onlyIfNothingRedeemed: boolean) =>
    builtOnce<Record<string, unknown>, [SQL, SQL]>((orderRef, when) =>
      db.run(sql`insert into ${discountRedemptions}
          (code, status, order_ref, email, customer_key, user_id, created_at)
        select ${sql.placeholder('redeemCode')}, 'redeemed', ${orderRef}, ${sql.placeholder('redeemEmail')},
               ${sql.placeholder('redeemCustomerKey')}, ${sql.placeholder('redeemUserId')}, ${sql.placeholder('redeemAt')}
        where ${onlyIfNothingRedeemed ? sql`changes() = 0` : sql`1`} and ${when}
        on conflict do nothing`),
    )
  return perSqlPair(() => ({
    reserved: builtOnce<Record<string, unknown>, [SQL, SQL]>((orderRef, when) =>
      db
        .update(discountRedemptions)
        .set({ status: 'redeemed', orderRef: sql`${orderRef}` })
        .where(
          and(
            eq(discountRedemptions.reservationKey, sql.placeholder('redeemReservationKey')),
            inArray(discountRedemptions.status, ['reserved', 'released']),
            when,
          ),
        ),
    ),
    unreserved: insert(true),
    newUse: insert(false),
  }))
}

export function createRedemptions(deps: RedemptionsDeps) {
  const { db, clock } = deps
  const redemptionWrites = createRedemptionWrites(db)
  const redemptions = {
    repeatUseWarning,

    /**
     * SQL: whether this customer (customer key or account) holds a live reservation of a first-order code,
     * i.e. has a session open with one, and the values of its placeholders. A paid order then has those
     * sessions expired (the checkout module).
     */
    openFirstOrderReservationExists(paying: PayingCustomer): { when: SQL; values: Record<string, unknown> } {
      const customer = customerPaying(paying, 'a reservation belongs to an e-mail')
      const values = { firstOrderCustomerKey: customer.key, firstOrderNow: clock.now().getTime() }
      return customer.userId
        ? { when: OPEN_FIRST_ORDER.account, values: { ...values, firstOrderUserId: customer.userId } }
        : { when: OPEN_FIRST_ORDER.guest, values }
    },

    /** The reservation keys of this customer's live first-order reservations. */
    async openFirstOrderReservations(paying: PayingCustomer): Promise<string[]> {
      const customer = customerPaying(paying, 'a reservation belongs to an e-mail')
      const rows = await db.all<{ key: string }>(
        firstOrderReservations({ key: customer.key, userId: customer.userId, now: clock.now().getTime() }),
      )
      return rows.map((row) => row.key)
    },

    /** The session expired or its payment failed: its reservation stops counting. */
    async release(reservationKey: string): Promise<void> {
      await redemptions.releaseStatement(reservationKey)
    },

    /**
     * A delayed payment (a bank debit) is on its way: the reservation, if still live, lasts `until`, so the
     * use is still held when the money comes days later (docs/decisions/021).
     */
    holdStatement(reservationKey: string, now: Date, until: Date) {
      return db
        .update(discountRedemptions)
        .set({ expiresAt: sql`max(${discountRedemptions.expiresAt}, ${until.getTime()})` })
        .where(
          and(
            eq(discountRedemptions.reservationKey, reservationKey),
            eq(discountRedemptions.status, 'reserved'),
            gt(discountRedemptions.expiresAt, now),
          ),
        )
    },

    /** release as a statement, for the transaction that ends the session; only if `when` (SQL) holds. */
    releaseStatement(reservationKey: string, when: SQL = sql`1`) {
      return db
        .update(discountRedemptions)
        .set({ status: 'released' })
        .where(
          and(
            eq(discountRedemptions.reservationKey, reservationKey),
            eq(discountRedemptions.status, 'reserved'),
            when,
          ),
        )
    },

    /**
     * A cancelled order's use of its code: released, so it counts against no limit any more. The order
     * keeps its reference on the row, so a repeated payment event of that order (`redeemStatements` only
     * when it makes the order) never redeems it again.
     */
    releaseRedemptionStatement(orderRef: string, when: SQL = sql`1`): Statement {
      return db
        .update(discountRedemptions)
        .set({ status: 'released' })
        .where(
          and(eq(discountRedemptions.orderRef, orderRef), eq(discountRedemptions.status, 'redeemed'), when),
        )
    },

    /**
     * recordRedemption as statements for the transaction that makes the order, so the use is counted
     * with the order: `orderRef` is SQL for the order number there. Same rules: the reservation becomes
     * the redemption, else (no reservation, or it was already redeemed) a new row, which the unique order
     * reference makes a no-op the second time. `when` (SQL) limits it to the event that makes the order: a
     * later one must not redeem a use a cancel released.
     */
    redeemStatements(
      code: string,
      redemption: Omit<Redemption, 'orderRef'>,
      orderRef: SQL,
      when: SQL = ALWAYS,
    ): Statement[] {
      const email = redemption.email.trim().toLowerCase()
      const values = {
        redeemCode: code,
        redeemEmail: email,
        redeemCustomerKey: customerKey(email),
        redeemUserId: redemption.userId,
        redeemAt: clock.now().getTime(),
      }
      const built = redemptionWrites(orderRef, when)
      if (!redemption.reservationKey) return [built.newUse.with(values, orderRef, when)]
      return [
        built.reserved.with({ redeemReservationKey: redemption.reservationKey }, orderRef, when),
        // Right after the UPDATE, changes() counts the rows it redeemed.
        built.unreserved.with(values, orderRef, when),
      ]
    },

    forgetCustomerQueries: (userId: string) => forgetCustomerStatements(deps, userId),

    /**
     * Counts a paid order's use of a code: its reservation becomes the redemption (even if it had been
     * released, since the customer did pay), or, for a session without one, a new row. The same order
     * twice counts once.
     */
    async recordRedemption(code: string, redemption: Redemption): Promise<void> {
      await runTogether(db, redemptions.redeemStatements(code, redemption, sql`${redemption.orderRef}`))
    },
  }
  return redemptions
}
