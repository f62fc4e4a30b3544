import { and, count, eq, or } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { discountCodes, discountRedemptions } from '../../../db/schema'
import type { Clock } from '../../lib/clock'
import { notFound, unprocessable } from '../../plugins/errors'
import type { DiscountTerms } from '../../rules/discounts'
import { formatCents } from '../../rules/money'

export interface DiscountContext {
  subtotalCents: number
  /** Needed for first-order and per-customer rules; without it those rules are checked again at checkout. */
  email?: string
  userId?: string | null
}

interface Customer {
  email: string
  userId: string | null
}

export interface Redemption {
  orderRef: string
  email: string
  userId: string | null
}

export interface DiscountServiceDeps {
  db: Database
  clock: Clock
  /** Whether this (lower-cased) e-mail already has a paid order: the orders module's answer. */
  hasPaidOrder: (email: string) => Promise<boolean>
}

export function createDiscountService({ db, clock, hasPaidOrder }: DiscountServiceDeps) {
  /** The same customer: the same e-mail, or the same account whatever e-mail it gave. */
  function sameCustomer(customer: Customer) {
    return customer.userId
      ? or(eq(discountRedemptions.email, customer.email), eq(discountRedemptions.userId, customer.userId))
      : eq(discountRedemptions.email, customer.email)
  }

  async function redemptions(code: string, customer?: Customer): Promise<number> {
    const where = customer
      ? and(eq(discountRedemptions.code, code), sameCustomer(customer))
      : eq(discountRedemptions.code, code)
    const [row] = await db.select({ n: count() }).from(discountRedemptions).where(where)
    return row?.n ?? 0
  }

  /** A redemption of any code is a paid order too; asking both keeps the rule if either record lags. */
  async function hasOrderedBefore(customer: Customer): Promise<boolean> {
    const [row] = await db
      .select({ one: discountRedemptions.id })
      .from(discountRedemptions)
      .where(sameCustomer(customer))
      .limit(1)
    return row !== undefined || (await hasPaidOrder(customer.email))
  }

  return {
    /** The code's terms if it may be used for this order; otherwise a 4xx the shopper can act on. */
    async validate(code: string, context: DiscountContext): Promise<DiscountTerms> {
      const [row] = await db.select().from(discountCodes).where(eq(discountCodes.code, code))
      if (!row) throw notFound('This discount code does not exist.')
      const now = clock.now().getTime()
      if (row.activeFrom && now < row.activeFrom.getTime())
        throw unprocessable('This discount code is not active yet.')
      if (row.activeUntil && now >= row.activeUntil.getTime())
        throw unprocessable('This discount code has expired.')
      if (context.subtotalCents < row.minSubtotalCents) {
        throw unprocessable(`This code needs an order of at least ${formatCents(row.minSubtotalCents)}.`)
      }
      if (row.maxRedemptions !== null && (await redemptions(code)) >= row.maxRedemptions) {
        throw unprocessable('This discount code has been used up.')
      }
      const email = context.email?.trim().toLowerCase()
      const customer = email ? { email, userId: context.userId ?? null } : null
      if (
        customer &&
        row.maxPerCustomer !== null &&
        (await redemptions(code, customer)) >= row.maxPerCustomer
      ) {
        throw unprocessable('You have already used this discount code.')
      }
      if (customer && row.firstOrderOnly && (await hasOrderedBefore(customer))) {
        throw unprocessable('This code is for your first order only.')
      }
      return { code: row.code, type: row.type, amount: row.amount }
    },

    /** Counts a paid order's use of a code; the same order twice counts once. */
    async recordRedemption(code: string, redemption: Redemption): Promise<void> {
      await db
        .insert(discountRedemptions)
        .values({
          code,
          orderRef: redemption.orderRef,
          email: redemption.email.trim().toLowerCase(),
          userId: redemption.userId,
          createdAt: clock.now(),
        })
        .onConflictDoNothing({ target: discountRedemptions.orderRef })
    },
  }
}

export type DiscountService = ReturnType<typeof createDiscountService>
