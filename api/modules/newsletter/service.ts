import { isEmail } from '@core/rules/address'
import { eq } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Database } from '../../../db/client'
import { newsletterSubscribers } from '../../../db/schema'
import type { Clock } from '../../lib/clock'
import { invalid } from '../../lib/domain-errors'

export interface SubscribeResult {
  email: string
  /** False when the address was already on the list: not an error, nothing is duplicated. */
  created: boolean
}

export function createNewsletterService(db: Database, clock: Clock, waitlists: readonly string[]) {
  return {
    /** The published teasers whose waitlist forms post here (by file name): their outcome is the waitlist's. */
    waitlists,

    async subscribe(rawEmail: string, source: string): Promise<SubscribeResult> {
      const email = rawEmail.trim().toLowerCase()
      if (!isEmail(email)) throw invalid('Please enter a valid e-mail address, like name@example.com.')
      const inserted = await db
        .insert(newsletterSubscribers)
        .values({ email, source, createdAt: clock.now() })
        .onConflictDoNothing({ target: newsletterSubscribers.email })
        .returning({ id: newsletterSubscribers.id })
      return { email, created: inserted.length > 0 }
    },

    /** The sign-up of this (lower-cased) address, or null. */
    async find(email: string): Promise<{ source: string; createdAt: Date } | null> {
      const [row] = await db
        .select({ source: newsletterSubscribers.source, createdAt: newsletterSubscribers.createdAt })
        .from(newsletterSubscribers)
        .where(eq(newsletterSubscribers.email, email))
        .limit(1)
      return row ?? null
    },

    /** Takes the address off the list; unexecuted, for an account deletion's batch. */
    removeQuery(email: string): BatchItem<'sqlite'> {
      return db.delete(newsletterSubscribers).where(eq(newsletterSubscribers.email, email))
    },
  }
}

export type NewsletterService = ReturnType<typeof createNewsletterService>
