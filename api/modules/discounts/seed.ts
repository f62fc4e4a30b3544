import type { Database } from '../../../db/client'
import { discountCodes } from '../../../db/schema'

type SeedCode = Omit<typeof discountCodes.$inferInsert, 'createdAt'>

/** The codes a fresh shop starts with (listed in the README). */
export const SEED_CODES: SeedCode[] = [
  // The 'Welcome to the Crew' newsletter code: 10% off a customer's first paid order.
  { code: 'CREW10', type: 'percentage', amount: 10, firstOrderOnly: true, maxPerCustomer: 1 },
  { code: 'GRIT15', type: 'percentage', amount: 15 },
  { code: 'SAVE5', type: 'fixed', amount: 500, minSubtotalCents: 2000 },
  { code: 'TOOLBOX20', type: 'percentage', amount: 20, minSubtotalCents: 5000 },
  { code: 'EXPIRED10', type: 'percentage', amount: 10, activeUntil: new Date('2025-01-01T00:00:00Z') },
  { code: 'FIRST100', type: 'percentage', amount: 10, maxRedemptions: 100 },
]

/** Adds missing seed codes; codes that exist (possibly edited by staff) are left alone. */
export async function seedDiscountCodes(db: Database, now: Date): Promise<void> {
  await db
    .insert(discountCodes)
    .values(SEED_CODES.map((code) => ({ ...code, createdAt: now })))
    .onConflictDoNothing({ target: discountCodes.code })
}
