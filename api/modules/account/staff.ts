/**
 * Staff accounts, managed from the server's command line (`npm run staff`, scripts/staff.ts): nobody can
 * make themselves staff from the web. Removing someone from staff also signs them out everywhere, so the
 * dashboard is closed to them at once, not when their session runs out.
 *
 * Making an existing account staff keeps only credentials someone proved: anyone can register the owner's
 * address before the owner runs the command, so an account whose e-mail was never verified loses its
 * password and every session first (docs/decisions/016-verified-e-mail.md). A customer's password, proved
 * or not, was chosen under the customer's shorter rule: a customer made staff gets a staff password too
 * (docs/decisions/012-staff-dashboard.md). Only an account signing in with Google alone keeps its way in.
 */

import { PASSWORD_MAX_LENGTH, passwordLength } from '@core/rules/account'
import { isEmail } from '@core/rules/address'
import { errorMessage } from '../../lib/log'
import type { Passwords } from '../auth/passwords'
import type { SessionStore } from '../auth/sessions'
import type { AccountService, UserRecord } from './service'

/** Longer than a customer's minimum: a staff password opens every order's name and address. */
export const STAFF_PASSWORD_MIN_LENGTH = 12

export class StaffCommandError extends Error {}

export type AddOutcome = 'created' | 'promoted' | 'already-staff'

/**
 * What became of an existing account's way in: kept (a staff account whose e-mail is verified, one that
 * signs in with Google only, or a new account), replaced by the password given, or removed with a link to
 * set one e-mailed to the address.
 */
export type CredentialsOutcome = 'kept' | 'replaced' | 'link-sent'

/**
 * Why an existing account's password is replaced: its e-mail was never verified, or it is a customer's
 * (chosen under the customer's shorter rule).
 */
export type ReplacedBecause = 'unverified' | 'customer-password' | 'no-way-in'

/** Each reason in words, for whoever runs the command. */
export const REPLACED_BECAUSE: Record<ReplacedBecause, string> = {
  unverified: 'its e-mail was never verified',
  'customer-password': "a customer's password may be shorter than a staff password must be",
  'no-way-in': 'it had no password and no Google sign-in',
}

/**
 * The password for the account: `new-account` must give one; an existing account whose password is being
 * replaced (`unverified`, `customer-password`) may answer null to have a link to set one e-mailed instead.
 */
export type PasswordSource = (purpose: 'new-account' | ReplacedBecause) => Promise<string | null>
export type RemoveOutcome = 'removed' | 'not-staff'

function normalEmail(email: string): string {
  const normal = email.trim().toLowerCase()
  if (!isEmail(normal)) throw new StaffCommandError(`"${email}" is not an e-mail address.`)
  return normal
}

export function checkStaffPassword(password: string): void {
  const characters = passwordLength(password)
  if (characters < STAFF_PASSWORD_MIN_LENGTH) {
    throw new StaffCommandError(`A staff password needs at least ${STAFF_PASSWORD_MIN_LENGTH} characters.`)
  }
  if (characters > PASSWORD_MAX_LENGTH) {
    throw new StaffCommandError(`A password can have at most ${PASSWORD_MAX_LENGTH} characters.`)
  }
}

export function createStaffAccounts(deps: {
  accounts: Pick<
    AccountService,
    'findByEmail' | 'create' | 'setRole' | 'withRole' | 'setPasswordHash' | 'clearPassword'
  >
  sessions: Pick<SessionStore, 'invalidateAllForUser'>
  /** E-mails the account a link to choose its password (a reset link; earlier ones are retired). */
  sendPasswordLink: (user: UserRecord) => Promise<void>
  /** Retires the account's reset links: one sent before must not undo the password given here. */
  retireResetLinks: (userId: string) => Promise<void>
  passwords: Pick<Passwords, 'hash'>
}) {
  const { accounts } = deps

  /**
   * Takes away a password and sessions nobody proved they own: replaced by the password given, or
   * removed with a link to set one. Done before the account becomes staff, so at no moment is it staff
   * with the old way in.
   */
  async function replaceCredentials(
    user: UserRecord,
    askPassword: PasswordSource,
    because: ReplacedBecause,
  ): Promise<Exclude<CredentialsOutcome, 'kept'>> {
    const password = await askPassword(because)
    if (password !== null) {
      checkStaffPassword(password)
      await accounts.setPasswordHash(user.id, await deps.passwords.hash(password))
      await deps.retireResetLinks(user.id)
    } else {
      await accounts.clearPassword(user.id)
    }
    await deps.sessions.invalidateAllForUser(user.id)
    return password !== null ? 'replaced' : 'link-sent'
  }

  /**
   * Why an existing account's password must be replaced (or one set) before it is staff, or null when its
   * way in may stay: a verified staff account's, or a Google-only one's.
   */
  function replacedBecause(user: UserRecord): ReplacedBecause | null {
    if (user.emailVerifiedAt === null) return 'unverified'
    // A link to set one was sent and lost, or the mail failed: the command run again gives a way in.
    if (user.passwordHash === null && user.googleSubject === null) return 'no-way-in'
    if (user.role !== 'staff' && user.passwordHash !== null) return 'customer-password'
    return null
  }

  return {
    /**
     * Makes `email` staff. An existing account whose e-mail is not verified, or a customer's with a
     * password, has its sessions ended and its password replaced (by the one `askPassword` gives, or by an
     * e-mailed link to set one) first; a verified staff account, or one signing in with Google only, is
     * made staff as it is. Without an account, one is created with the password given.
     */
    async add(
      rawEmail: string,
      askPassword: PasswordSource,
      name: { firstName: string; lastName: string } = { firstName: 'Staff', lastName: '' },
    ): Promise<{
      outcome: AddOutcome
      credentials: CredentialsOutcome
      because: ReplacedBecause | null
      user: UserRecord
    }> {
      const email = normalEmail(rawEmail)
      const existing = await accounts.findByEmail(email)
      if (existing) {
        const because = replacedBecause(existing)
        const credentials = because ? await replaceCredentials(existing, askPassword, because) : 'kept'
        const outcome = existing.role === 'staff' ? 'already-staff' : 'promoted'
        const user = await accounts.setRole(existing.id, 'staff')
        // Last: should the e-mail fail, the account is already safe (no password, no sessions) and staff.
        if (credentials === 'link-sent') {
          try {
            await deps.sendPasswordLink(user)
          } catch (error) {
            throw new StaffCommandError(
              `${email} is staff now, with no password and signed out everywhere, because ${REPLACED_BECAUSE[because ?? 'unverified']}; but the e-mail with a link to set a password could not be sent (${errorMessage(error)}). Run the command again with STAFF_PASSWORD set, or once mail works.`,
            )
          }
        }
        return { outcome, credentials, because, user }
      }
      const password = await askPassword('new-account')
      if (password === null) throw new StaffCommandError('A new staff account needs a password.')
      checkStaffPassword(password)
      const created = await accounts.create({
        email,
        passwordHash: await deps.passwords.hash(password),
        ...name,
      })
      // Signed up on the web a moment ago: promote that account instead.
      const user = created ?? (await accounts.findByEmail(email))
      if (!user) throw new Error(`account ${email} could not be created or found`)
      if (!created) {
        // Signed up on the web between the look-up and the insert: unproved, like any account made there.
        const credentials = await replaceCredentials(user, async () => password, 'unverified')
        const staff = await accounts.setRole(user.id, 'staff')
        return { outcome: 'promoted', credentials, because: 'unverified', user: staff }
      }
      const staff = await accounts.setRole(user.id, 'staff')
      return { outcome: 'created', credentials: 'kept', because: null, user: staff }
    },

    /** Back to customer, and every session of the account ended: the dashboard closes to them now. */
    async remove(rawEmail: string): Promise<{ outcome: RemoveOutcome; user: UserRecord }> {
      const email = normalEmail(rawEmail)
      const user = await accounts.findByEmail(email)
      if (!user) throw new StaffCommandError(`No account has the e-mail ${email}.`)
      // Sessions end even if the role was already customer: removing someone is meant to lock them out.
      const demoted = user.role === 'staff' ? await accounts.setRole(user.id, 'customer') : user
      await deps.sessions.invalidateAllForUser(user.id)
      return { outcome: user.role === 'staff' ? 'removed' : 'not-staff', user: demoted }
    },

    list: () => accounts.withRole('staff'),
  }
}

export type StaffAccounts = ReturnType<typeof createStaffAccounts>
