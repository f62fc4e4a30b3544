import { and, count, eq } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { discountCodes, discountRedemptions } from '../../../db/schema'
import type { Clock } from '../../lib/clock'
import { notFound, unprocessable } from '../../plugins/errors'
import type { DiscountTerms } from '../../rules/discounts'
import { formatCents } from '../../rules/money'
import { hasPaidOrder } from '../orders/history'

export interface DiscountContext {
  subtotalCents: number
  /** Needed for first-order and per-customer rules; without it those rules are checked again at checkout. */
  email?: string
  userId?: string | null
}

export interface Redemption {
  orderRef: string
  email: string
  userId: string | null
}

export function createDiscountService(db: Database, clock: Clock) {
  async function redemptions(code: string, email?: string): Promise<number> {
    const where = email
      ? and(eq(discountRedemptions.code, code), eq(discountRedemptions.email, email))
      : eq(discountRedemptions.code, code)
    const [row] = await db.select({ n: count() }).from(discountRedemptions).where(where)
    return row?.n ?? 0
  }

  return {
    /** The code's terms if it may be used for this order; otherwise a 4xx the shopper can act on. */
    async validate(code: string, context: DiscountContext): Promise<DiscountTerms> {
      const [row] = await db.select().from(discountCodes).where(eq(discountCodes.code, code))
      if (!row) throw notFound('This discount code does not exist.')
      const now = clock.now().getTime()
      if (row.activeFrom && now < row.activeFrom.getTime()) throw unprocessable('This discount code is not active yet.')
      if (row.activeUntil && now >= row.activeUntil.getTime()) throw unprocessable('This discount code has expired.')
      if (context.subtotalCents < row.minSubtotalCents) {
        throw unprocessable(`This code needs an order of at least ${formatCents(row.minSubtotalCents)}.`)
      }
      if (row.maxRedemptions !== null && (await redemptions(code)) >= row.maxRedemptions) {
        throw unprocessable('This discount code has been used up.')
      }
      const email = context.email?.trim().toLowerCase()
      if (email && row.maxPerCustomer !== null && (await redemptions(code, email)) >= row.maxPerCustomer) {
        throw unprocessable('You have already used this discount code.')
      }
      if (email && row.firstOrderOnly && (await hasPaidOrder(db, email))) {
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
