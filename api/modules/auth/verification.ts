/**
 * Proving that an account's owner reads its e-mail: a link with a random token, sent once at sign-up (and
 * again on request), stored hashed, good once for 24 hours. Until an address is proved, the account's
 * password and sessions are not trusted where it matters (staff access, linking Google):
 * docs/decisions/016-verified-e-mail.md.
 */
import { and, eq, isNull, lt, or } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { emailVerificationTokens } from '../../../db/schema/auth'
import type { Mailer } from '../../adapters/types'
import type { Config } from '../../env'
import type { Clock } from '../../lib/clock'
import { conflict, type DomainError, forbidden, invalid } from '../../lib/domain-errors'
import type { AccountService } from '../account/service'
import type { JobQueue } from '../jobs/service'
import { verificationEmail } from './email'
import { generateToken, hashToken, isTokenShaped } from './sessions'

export const VERIFICATION_JOB = 'email-verification'

export const VERIFICATION_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000

export const VERIFICATION_MESSAGES = {
  verified: 'Your e-mail address is verified. Thank you!',
  used: 'This link has already been used: your e-mail address is verified.',
  expired: 'This link has expired. Sign in and send a new one from your account page.',
  invalid: 'This verification link is not valid. Sign in and send a new one from your account page.',
  otherAccount:
    'This link was sent for another account. Sign out, then sign in to the account you made with this e-mail address.',
  sent: 'We have sent a new link to your e-mail address. It works for 24 hours.',
  alreadyVerified: 'Your e-mail address is already verified.',
} as const

/** Why a link was refused; the page words its answer by it. */
export type RefusedLink = 'used' | 'expired' | 'invalid' | 'otherAccount'

function refused(reason: RefusedLink): DomainError {
  // A used link is a conflict with what already happened; an expired or unknown one is a refused value
  // (docs/decisions/015-invalid-input-status.md); another account's link is not this session's to use.
  if (reason === 'otherAccount') return forbidden(VERIFICATION_MESSAGES[reason], { reason })
  return reason === 'used'
    ? conflict(VERIFICATION_MESSAGES[reason], { reason })
    : invalid(VERIFICATION_MESSAGES[reason], { reason })
}

function userIdPayload(payload: unknown): string {
  const userId = (payload as { userId?: unknown } | null)?.userId
  if (typeof userId !== 'string') throw new Error('job payload has no account id')
  return userId
}

export function createEmailVerification(deps: {
  db: Database
  clock: Clock
  mailer: Mailer
  config: Pick<Config, 'publicUrl'>
  accounts: Pick<AccountService, 'findById' | 'markEmailVerified'>
  jobs: Pick<JobQueue, 'enqueue'>
}) {
  const { db, clock, accounts } = deps

  const verification = {
    /** Queues the e-mail: the request that asks does not wait for the mail server. */
    async request(userId: string): Promise<void> {
      await deps.jobs.enqueue(VERIFICATION_JOB, { userId })
    },

    /** The job: a fresh link for an account whose address is not proved yet. */
    async send(userId: string): Promise<void> {
      const user = await accounts.findById(userId)
      if (!user || user.emailVerifiedAt !== null) return
      const token = generateToken()
      const now = clock.now()
      // One live link per account (asking again retires the earlier one), and links that ran out are swept.
      await db.batch([
        db
          .delete(emailVerificationTokens)
          .where(or(eq(emailVerificationTokens.userId, user.id), lt(emailVerificationTokens.expiresAt, now))),
        db.insert(emailVerificationTokens).values({
          id: hashToken(token),
          userId: user.id,
          email: user.email,
          expiresAt: new Date(now.getTime() + VERIFICATION_LINK_LIFETIME_MS),
          createdAt: now,
        }),
      ])
      await deps.mailer.send(
        verificationEmail(user.email, `${deps.config.publicUrl}/verify-email?token=${token}`),
      )
    },

    /**
     * Uses a link, signed in as the account it was sent for: the address it went to is proved. The mailbox
     * alone proves nothing about the account's password: the owner of an address someone else registered
     * would otherwise confirm the squatter's account by clicking the welcome mail (docs/decisions/016).
     * Refusals say whether it was used, expired, unknown or another account's.
     */
    async verify(token: string, signedInAs: string): Promise<void> {
      if (!isTokenShaped(token)) throw refused('invalid')
      const id = hashToken(token)
      const now = clock.now()
      const [link] = await db
        .select()
        .from(emailVerificationTokens)
        .where(eq(emailVerificationTokens.id, id))
        .limit(1)
      if (!link) throw refused('invalid')
      if (link.userId !== signedInAs) throw refused('otherAccount')
      if (link.usedAt !== null) throw refused('used')
      if (link.expiresAt <= now) throw refused('expired')
      // Only the address the link went to: an account whose e-mail changed since proves nothing by it.
      const user = await accounts.findById(link.userId)
      if (!user || user.email !== link.email) throw refused('invalid')
      // Marking it used is what makes it single-use: of two simultaneous uses, only one changes the row.
      const marked = await db
        .update(emailVerificationTokens)
        .set({ usedAt: now })
        .where(and(eq(emailVerificationTokens.id, id), isNull(emailVerificationTokens.usedAt)))
        .returning({ id: emailVerificationTokens.id })
      if (marked.length === 0) throw refused('used')
      await accounts.markEmailVerified(link.userId, link.email)
    },

    jobHandler: (payload: unknown) => verification.send(userIdPayload(payload)),
  }
  return verification
}

export type EmailVerification = ReturnType<typeof createEmailVerification>
