/**
 * Staff accounts, managed from the server's command line (`npm run staff`, scripts/staff.ts): nobody can
 * make themselves staff from the web. Removing someone from staff also signs them out everywhere, so the
 * dashboard is closed to them at once, not when their session runs out.
 */
import { PASSWORD_MAX_LENGTH } from '../../rules/account'
import { isEmail } from '../../rules/address'
import type { SessionStore } from '../auth/sessions'
import type { AccountService, UserRecord } from './service'

/** Longer than a customer's minimum: a staff password opens every order's name and address. */
export const STAFF_PASSWORD_MIN_LENGTH = 12

export class StaffCommandError extends Error {}

export type AddOutcome = 'created' | 'promoted' | 'already-staff'
export type RemoveOutcome = 'removed' | 'not-staff'

function normalEmail(email: string): string {
  const normal = email.trim().toLowerCase()
  if (!isEmail(normal)) throw new StaffCommandError(`"${email}" is not an e-mail address.`)
  return normal
}

export function checkStaffPassword(password: string): void {
  if (password.length < STAFF_PASSWORD_MIN_LENGTH) {
    throw new StaffCommandError(`A staff password needs at least ${STAFF_PASSWORD_MIN_LENGTH} characters.`)
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    throw new StaffCommandError(`A password can have at most ${PASSWORD_MAX_LENGTH} characters.`)
  }
}

export function createStaffAccounts(deps: {
  accounts: Pick<AccountService, 'findByEmail' | 'create' | 'setRole' | 'withRole'>
  sessions: Pick<SessionStore, 'invalidateAllForUser'>
}) {
  const { accounts } = deps
  return {
    /**
     * Makes `email` staff: promotes the account if there is one (its password, or Google sign-in, stays as
     * it is), else creates one with the password `askPassword` gives. The password is asked for only then.
     */
    async add(
      rawEmail: string,
      askPassword: () => Promise<string>,
      name: { firstName: string; lastName: string } = { firstName: 'Staff', lastName: '' },
    ): Promise<{ outcome: AddOutcome; user: UserRecord }> {
      const email = normalEmail(rawEmail)
      const existing = await accounts.findByEmail(email)
      if (existing) {
        if (existing.role === 'staff') return { outcome: 'already-staff', user: existing }
        return { outcome: 'promoted', user: await accounts.setRole(existing.id, 'staff') }
      }
      const password = await askPassword()
      checkStaffPassword(password)
      const created = await accounts.create({
        email,
        passwordHash: await Bun.password.hash(password, 'argon2id'),
        ...name,
      })
      // Signed up on the web a moment ago: promote that account instead.
      const user = created ?? (await accounts.findByEmail(email))
      if (!user) throw new Error(`account ${email} could not be created or found`)
      return { outcome: created ? 'created' : 'promoted', user: await accounts.setRole(user.id, 'staff') }
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
