import type { LoginBody, RegisterBody, ResetPasswordBody } from '@core/contracts/auth'
import {
  PASSWORD_MAX_LENGTH,
  passwordLength,
  type SignInMethod,
  signedInRecentlyWith,
} from '@core/rules/account'
import { isEmail, PASSWORD_MIN_LENGTH } from '@core/rules/address'
import { and, eq, gt, sql } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Database } from '../../../db/client'
import { passwordResetTokens } from '../../../db/schema/auth'
import {
  type IdentityProvider,
  IdentityProviderError,
  type Mailer,
  type SignInChecks,
  type VerifiedIdentity,
} from '../../adapters/types'
import type { Config } from '../../env'
import type { Clock } from '../../lib/clock'
import { conflict, forbidden, invalid, unauthenticated, unavailable } from '../../lib/domain-errors'
import { commitTogether } from '../../lib/statements'
import { type AccountService, cleanName, type UserRecord } from '../account/service'
import { STAFF_PASSWORD_MIN_LENGTH } from '../account/staff'
import type { JobHandler, JobQueue } from '../jobs/service'
import { googleAccountEmail, passwordResetEmail, staffPasswordEmail } from './email'
import type { Passwords } from './passwords'
import {
  createSessionStore,
  generateToken,
  hashToken,
  isTokenShaped,
  type Session,
  type SessionStore,
} from './sessions'
import { createSignInLimit } from './sign-in-limit'
import { createEmailVerification, VERIFICATION_JOB } from './verification'

export const AUTH_JOBS = {
  passwordResetEmail: 'password-reset-email',
  emailVerification: VERIFICATION_JOB,
} as const

export const RESET_TOKEN_LIFETIME_MS = 60 * 60 * 1000

export const MESSAGES = {
  invalidEmail: 'Please enter a valid e-mail address, like name@example.com.',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long.`,
  passwordTooLong: `Passwords can be at most ${PASSWORD_MAX_LENGTH} characters.`,
  googleMoved: 'This account now signs in with another Google account.',
  accountGone: 'The account was deleted while it was being signed in to.',
  staffPasswordTooShort: `A staff account's password must be at least ${STAFF_PASSWORD_MIN_LENGTH} characters long.`,
  staffPasswordBelowRule: `A staff account's password must be at least ${STAFF_PASSWORD_MIN_LENGTH} characters long, and this one is shorter. Choose 'Forgot Password' to set a new one.`,
  // One message for a wrong e-mail and a wrong password: the answer never says which accounts exist.
  wrongCredentials: 'The e-mail or password is incorrect.',
  useGoogle: 'This email is registered with Google. Please use Google Sign In.',
  // Sign-up must say the address is taken; it points to the ways back in instead of saying more.
  emailTaken:
    'An account with this e-mail already exists. Please sign in, or reset your password if you forgot it.',
  registered: 'Account created successfully!',
  signedIn: 'Login successful!',
  resetRequested:
    'If an account exists for that e-mail, we have sent it a link to reset the password. The link works for 1 hour.',
  badResetLink: 'This reset link is invalid or has expired. Please ask for a new one.',
  passwordUpdated: 'Your password has been updated. Please sign in with your new password.',
  googleUnverified: 'Your Google account has no verified e-mail address, so we cannot sign you in with it.',
  passwordToDelete: 'Please enter your password to delete your account.',
  wrongPasswordToDelete: 'That password is not right, so your account was not deleted.',
  googleAgainToDelete:
    'To delete your account, please sign in with Google again first. It only takes a moment.',
} as const

/** A signed-in browser: the account, its session, and the token to put in the cookie. */
export interface SignedIn {
  user: UserRecord
  session: Session
  token: string
}

/**
 * A password longer than any the shop sets cannot be anyone's: refused as the request schema refuses one
 * too long in UTF-16 units, before it is hashed or counted as a guess.
 */
function refuseOverlongPassword(password: string): void {
  if (passwordLength(password) > PASSWORD_MAX_LENGTH) throw invalid(MESSAGES.passwordTooLong)
}

function checkPassword(password: string): void {
  if (passwordLength(password) < PASSWORD_MIN_LENGTH) throw invalid(MESSAGES.passwordTooShort)
  refuseOverlongPassword(password)
}

/**
 * The staff rule wherever a password proves who someone is (a sign-in, the account deletion's check), the
 * password being right: a staff password shorter than the rule was chosen under the customer's (an account
 * made staff before `staff add` replaced a customer's password), so it proves nothing until a reset link
 * sets a longer one (403). The attempt stays counted, so guesses at such a password stay under the sign-in
 * limit (decision 012).
 */
function refuseShortStaffPassword(user: UserRecord, password: string): void {
  if (user.role === 'staff' && passwordLength(password) < STAFF_PASSWORD_MIN_LENGTH) {
    throw forbidden(MESSAGES.staffPasswordBelowRule, { newPasswordNeeded: true })
  }
}

/** The staff rule for a password set by a reset link (account/staff.ts), as a 422. */
function checkStaffResetPassword(password: string): void {
  if (passwordLength(password) < STAFF_PASSWORD_MIN_LENGTH) throw invalid(MESSAGES.staffPasswordTooShort)
}

function emailPayload(payload: unknown): string {
  const email = (payload as { email?: unknown } | null)?.email
  if (typeof email !== 'string') throw new Error('job payload has no e-mail')
  return email
}

/**
 * A password sign-in's session, kept only if the account's password is still the one it was given for.
 * It may have been replaced while the session was made (a reset, `staff add`, Google taking over an
 * unproved account), just after every session of the account was ended: this one must not outlive them
 * either, so it is ended and `refusal` thrown.
 */
async function keptIfPasswordStands(
  { accounts, sessions }: { accounts: AccountService; sessions: SessionStore },
  user: UserRecord,
  signedIn: SignedIn,
  refusal: Error,
): Promise<SignedIn> {
  const now = await accounts.findById(user.id)
  if (now?.passwordHash === user.passwordHash) return signedIn
  await sessions.invalidate(signedIn.token)
  throw refusal
}

/** What linking a Google identity uses: the accounts, the sessions, and a way to retire reset links. */
interface LinkDeps {
  accounts: AccountService
  sessions: SessionStore
  retireResetLinks: (userId: string) => Promise<void>
}

/**
 * Attaches a Google identity to the account with its e-mail. An account linked to another Google identity
 * moves to this one: whoever reads the address could take the account by a reset link anyway
 * (docs/decisions/016-verified-e-mail.md). Taken over (an address never proved: whoever registered it
 * before its owner; or another Google identity's: the address changed hands), the password is cleared
 * and the profile its holder wrote replaced (account service), reset links retired and then every session
 * ended, so whoever held it before keeps no way in and leaves nothing the new holder would ship to (a
 * password sign-in of theirs in flight meanwhile is caught by `signIn`'s re-read).
 */
async function linkGoogle(
  { accounts, sessions, retireResetLinks }: LinkDeps,
  user: UserRecord,
  identity: VerifiedIdentity,
): Promise<UserRecord> {
  const unproved = user.emailVerifiedAt === null
  const changedHands = user.googleSubject !== null && user.googleSubject !== identity.subject
  const takenOver = unproved || changedHands
  const linked = await accounts.linkGoogle(user, identity, { takenOver })
  if (takenOver) {
    await retireResetLinks(user.id)
    await sessions.invalidateAllForUser(user.id)
  }
  return linked
}

/**
 * Who is signed in, and how they got there: password sign-up and sign-in (with the brute-force limit),
 * Google sign-in, sessions, and password reset links. Accounts themselves live in the account module.
 */
export function createAuthService(deps: {
  db: Database
  clock: Clock
  mailer: Mailer
  config: Pick<Config, 'publicUrl' | 'nodeEnv'>
  google: IdentityProvider | null
  accounts: AccountService
  jobs: JobQueue
  passwords: Passwords
}) {
  const { db, clock, accounts, jobs } = deps
  const sessions = createSessionStore(db, clock)
  const signInLimit = createSignInLimit(db, clock)
  const verification = createEmailVerification({ ...deps, accounts, jobs })

  const { passwords } = deps

  /**
   * Signs in to `user`. An account deleted meanwhile (in another browser) gets no session: a password
   * sign-in is refused like a wrong password, a Google one goes back to the sign-in page.
   */
  async function signInAs(user: UserRecord, method: SignInMethod): Promise<SignedIn> {
    const created = await sessions.create(user.id, method)
    if (!created) {
      if (method === 'google') throw new IdentityProviderError(MESSAGES.accountGone)
      throw unauthenticated(MESSAGES.wrongCredentials)
    }
    const { token, session } = created
    // Now and then, on a sign-in, clear out sessions that ran out long ago.
    if (Math.random() < 0.01) await sessions.sweepExpired()
    return { user, session, token }
  }

  const link: LinkDeps = {
    accounts,
    sessions,
    retireResetLinks: async (userId) => {
      await db.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId))
    },
  }

  /**
   * The account a verified Google identity signs in to, signed in: the one linked to that identity, else
   * the one with its e-mail (linked now: linkGoogle), else a new account without a password.
   */
  async function googleAccountOf(identity: VerifiedIdentity): Promise<SignedIn> {
    const known = await accounts.findByGoogleSubject(identity.subject)
    if (known) {
      // Google vouches for the address again; it proves the account's e-mail if that is still the same.
      if (known.emailVerifiedAt === null) await accounts.markEmailVerified(known.id, identity.email)
      return signInAs(known, 'google')
    }
    const byEmail = await accounts.findByEmail(identity.email)
    if (byEmail) return signInAs(await linkGoogle(link, byEmail, identity), 'google')
    const created = await accounts.create({
      email: identity.email,
      passwordHash: null,
      googleSubject: identity.subject,
      firstName: identity.givenName ?? '',
      lastName: identity.familyName ?? '',
      photoUrl: identity.picture,
      emailVerifiedAt: clock.now(),
    })
    if (created) return signInAs(created, 'google')
    // Created a moment ago by a parallel sign-in or sign-up with the same e-mail: linked like any other.
    const raced = await accounts.findByEmail(identity.email)
    if (!raced) throw new Error('Google account could not be created or found')
    return signInAs(await linkGoogle(link, raced, identity), 'google')
  }

  /** The account a reset link (by its stored hash) is for, while the link is live; null otherwise. */
  async function liveResetLink(tokenId: string): Promise<{ userId: string } | null> {
    const [link] = await db
      .select({ userId: passwordResetTokens.userId })
      .from(passwordResetTokens)
      .where(and(eq(passwordResetTokens.id, tokenId), gt(passwordResetTokens.expiresAt, clock.now())))
    return link ?? null
  }

  /** A new reset link for the account (one live link per account: an earlier one is retired). */
  async function issueResetLink(userId: string): Promise<string> {
    const token = generateToken()
    const now = clock.now()
    await db.batch([
      db.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId)),
      db.insert(passwordResetTokens).values({
        id: hashToken(token),
        userId,
        expiresAt: new Date(now.getTime() + RESET_TOKEN_LIFETIME_MS),
        createdAt: now,
      }),
    ])
    return `${deps.config.publicUrl}/reset-password?token=${token}`
  }

  const service = {
    /** Retires every reset link of the account (the staff command, after it sets a password). */
    retireResetLinks: link.retireResetLinks,

    sessions,
    verification,
    /** Cookies are Secure in production (https only). */
    cookiePolicy: { secure: deps.config.nodeEnv === 'production' },
    googleConfigured: deps.google !== null,

    /** The account behind a session cookie's token, or null; `renewed` means the cookies must be re-sent. */
    async authenticate(
      token: string | null,
    ): Promise<{ user: UserRecord; session: Session; renewed: boolean } | null> {
      if (token === null) return null
      const live = await sessions.validate(token)
      if (!live) return null
      const user = await accounts.findById(live.session.userId)
      return user ? { user, ...live } : null
    },

    async register(body: RegisterBody): Promise<SignedIn> {
      const firstName = cleanName(body.firstName, 'first name')
      const lastName = cleanName(body.lastName, 'last name')
      const email = body.email.trim().toLowerCase()
      if (!isEmail(email)) throw invalid(MESSAGES.invalidEmail)
      checkPassword(body.password)
      const passwordHash = await passwords.hash(body.password)
      const user = await accounts.create({ email, passwordHash, firstName, lastName })
      if (!user) throw conflict(MESSAGES.emailTaken)
      // Signed in at once (docs/product.md#sign-in); the address is proved later, by the link this queues.
      await verification.request(user.id)
      // The owner of the address may have taken the new account over meanwhile (Google, `staff add`).
      return keptIfPasswordStands(
        { accounts, sessions },
        user,
        await signInAs(user, 'password'),
        conflict(MESSAGES.emailTaken),
      )
    },

    /** Password sign-in from `address` (the client's), counted against the brute-force limit. */
    async signIn(body: LoginBody, address: string): Promise<SignedIn> {
      const email = body.email.trim().toLowerCase()
      if (!isEmail(email)) throw invalid(MESSAGES.invalidEmail)
      refuseOverlongPassword(body.password)
      const attempt = await signInLimit.begin(email, address)
      const user = await accounts.findByEmail(email)
      if (!user) {
        await passwords.verify(body.password, await passwords.decoy())
        throw unauthenticated(MESSAGES.wrongCredentials)
      }
      if (user.passwordHash === null) {
        // docs/product.md#accounts: an account registered with Google is told to use Google (this does reveal that it exists).
        if (user.googleSubject !== null) throw unauthenticated(MESSAGES.useGoogle, { useGoogle: true })
        // No password yet (one is set with an e-mailed link): refused like a wrong one, in as long.
        await passwords.verify(body.password, await passwords.decoy())
        throw unauthenticated(MESSAGES.wrongCredentials)
      }
      if (body.password === '' || !(await passwords.verify(body.password, user.passwordHash))) {
        throw unauthenticated(MESSAGES.wrongCredentials)
      }
      refuseShortStaffPassword(user, body.password)
      await attempt.succeeded()
      return keptIfPasswordStands(
        { accounts, sessions },
        user,
        await signInAs(user, 'password'),
        unauthenticated(MESSAGES.wrongCredentials),
      )
    },

    signOut: (token: string | null) => sessions.invalidate(token),

    /**
     * That the person at this browser is the account's owner, before something that cannot be undone
     * (deleting the account): its password, counted against the sign-in limit like a sign-in from
     * `address`, or, for an account without one, a Google sign-in of this session in the last 10 minutes.
     * A wrong or missing proof is a 403 naming what to give (`reauthenticate`); a blank password a 422.
     */
    async confirmIdentity(
      user: UserRecord,
      session: Session,
      password: string | undefined,
      address: string,
    ): Promise<void> {
      if (user.passwordHash === null) {
        if (signedInRecentlyWith(session, 'google', clock.now())) return
        throw forbidden(MESSAGES.googleAgainToDelete, { reauthenticate: 'google' })
      }
      if (password === undefined || password === '') throw invalid(MESSAGES.passwordToDelete)
      refuseOverlongPassword(password)
      const attempt = await signInLimit.begin(user.email, address)
      if (!(await passwords.verify(password, user.passwordHash))) {
        throw forbidden(MESSAGES.wrongPasswordToDelete, { reauthenticate: 'password' })
      }
      refuseShortStaffPassword(user, password)
      await attempt.succeeded()
    },

    /**
     * For an account being deleted, unexecuted, for the deletion's batch: every session (every browser
     * signed out), reset link and counted sign-in failure of the account.
     */
    forgetAccountQueries(user: UserRecord): BatchItem<'sqlite'>[] {
      return [
        sessions.invalidateAllForUserQuery(user.id),
        db.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id)),
        signInLimit.forgetAccountQuery(user.email),
      ]
    },

    /**
     * Forgot password: the same answer, and the same work in the request (one queued job), whether or not
     * the e-mail has an account. The job looks the account up and sends the e-mail.
     */
    async requestPasswordReset(rawEmail: string): Promise<void> {
      const email = rawEmail.trim().toLowerCase()
      if (!isEmail(email)) throw invalid(MESSAGES.invalidEmail)
      await jobs.enqueue(AUTH_JOBS.passwordResetEmail, { email }, { maxAttempts: 3 })
    },

    /**
     * The job: a fresh single-use link for an account that signs in with a password (or has none yet); a
     * pointer to Google for one that signs in with Google.
     */
    async sendPasswordReset(email: string): Promise<void> {
      const user = await accounts.findByEmail(email)
      if (!user) return
      if (user.passwordHash === null && user.googleSubject !== null) {
        await deps.mailer.send(googleAccountEmail(user.email, `${deps.config.publicUrl}/login`))
        return
      }
      await deps.mailer.send(passwordResetEmail(user.email, await issueResetLink(user.id)))
    },

    /** For `npm run staff -- add`: a link to choose the password of a staff account that has none. */
    async sendStaffPasswordLink(user: UserRecord): Promise<void> {
      await deps.mailer.send(staffPasswordEmail(user.email, await issueResetLink(user.id)))
    },

    async isResetTokenValid(token: string): Promise<boolean> {
      if (!isTokenShaped(token)) return false
      const [row] = await db
        .select({ id: passwordResetTokens.id })
        .from(passwordResetTokens)
        .where(
          and(eq(passwordResetTokens.id, hashToken(token)), gt(passwordResetTokens.expiresAt, clock.now())),
        )
        .limit(1)
      return row !== undefined
    },

    /** Sets the new password, uses up the link, and signs the account out everywhere. */
    async resetPassword(body: ResetPasswordBody): Promise<void> {
      checkPassword(body.password)
      if (!isTokenShaped(body.token)) throw invalid(MESSAGES.badResetLink)
      const tokenId = hashToken(body.token)
      // A staff account's password opens every order's name and address: the staff rule holds for it,
      // checked before the link is spent, so a password refused leaves the link good for another.
      const link = await liveResetLink(tokenId)
      if (!link) throw invalid(MESSAGES.badResetLink)
      if ((await accounts.findById(link.userId))?.role === 'staff') checkStaffResetPassword(body.password)
      const passwordHash = await passwords.hash(body.password)
      // In one transaction, with the link as it is then: the password set only while the link is live (a
      // Google sign-in that took the account over meanwhile retired it) and the staff rule holds (the
      // account may have been made staff meanwhile), and the link spent only if it was set. Of two uses at
      // once, only one spends it.
      const now = clock.now()
      const owner = sql`(select ${passwordResetTokens.userId} from ${passwordResetTokens}
        where ${passwordResetTokens.id} = ${tokenId} and ${passwordResetTokens.expiresAt} > ${now.getTime()})`
      const staffRule =
        passwordLength(body.password) >= STAFF_PASSWORD_MIN_LENGTH ? sql`1` : sql`role <> 'staff'`
      const [spent] = await commitTogether(
        db,
        [
          accounts.setPasswordStatement(owner, passwordHash, staffRule),
          db.delete(passwordResetTokens).where(and(eq(passwordResetTokens.id, tokenId), sql`changes() = 1`)),
        ],
        db.all<{ spent: number }>(sql`select changes() as spent`),
      )
      if (!spent?.spent) {
        const still = await liveResetLink(tokenId)
        if (still && (await accounts.findById(still.userId))?.role === 'staff') {
          checkStaffResetPassword(body.password)
        }
        throw invalid(MESSAGES.badResetLink)
      }
      // The link was read in the account's mailbox: that proves the address too.
      const user = await accounts.findById(link.userId)
      if (user) await accounts.markEmailVerified(user.id, user.email)
      await sessions.invalidateAllForUser(link.userId)
      await db.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, link.userId))
    },

    /** Where to send the browser for Google sign-in, and the checks to keep for its return. */
    async startGoogleSignIn(): Promise<{ url: string; checks: SignInChecks }> {
      if (!deps.google) throw unavailable('Google sign-in is not set up on this shop.')
      return deps.google.start(`${deps.config.publicUrl}/auth/google/callback`)
    },

    /**
     * Completes Google sign-in: the account with this Google identity, else the one with its verified
     * e-mail (docs/product.md#google-sign-in), else a new account without a password. An account found by e-mail whose
     * address was never proved may have been registered by someone else before its owner came (account
     * pre-hijacking): its password is cleared and its sessions ended before the owner is signed in.
     */
    async finishGoogleSignIn(callbackUrl: URL, checks: SignInChecks): Promise<SignedIn> {
      if (!deps.google) throw unavailable('Google sign-in is not set up on this shop.')
      const identity = await deps.google.finish(callbackUrl, checks)
      if (!identity.emailVerified) throw new IdentityProviderError(MESSAGES.googleUnverified)
      const signedIn = await googleAccountOf(identity)
      // The account may have moved to another Google identity (its address changed hands) while this
      // session was made, just after every session of it was ended: this one must not outlive them.
      const now = await accounts.findById(signedIn.user.id)
      if (now?.googleSubject === identity.subject) return signedIn
      await sessions.invalidate(signedIn.token)
      throw new IdentityProviderError(MESSAGES.googleMoved)
    },

    /** The job handlers this module owns, for the job runner. */
    jobHandlers(): Record<string, JobHandler> {
      return {
        [AUTH_JOBS.passwordResetEmail]: (payload) => service.sendPasswordReset(emailPayload(payload)),
        [AUTH_JOBS.emailVerification]: verification.jobHandler,
      }
    },
  }
  return service
}

export type AuthService = ReturnType<typeof createAuthService>
