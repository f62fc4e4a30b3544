import { atom } from 'nanostores'
import { apiRequest } from '../../lib/api'

/** What GET /api/auth/user answers for a signed-in customer. Only the fields the shell relies on are typed. */
export interface AuthUser {
  id?: string | number
  email?: string
  firstName?: string
  lastName?: string
  [field: string]: unknown
}

/** `undefined` while the check runs, `null` when signed out (spec §4 Auth). */
export const $user = atom<AuthUser | null | undefined>(undefined)

let pending: Promise<AuthUser | null> | null = null

function asUser(body: unknown): AuthUser | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null
  // An endpoint may wrap the user ({ user }) or answer { user: null } for anonymous visitors.
  if ('user' in body) return asUser((body as { user: unknown }).user)
  return body as AuthUser
}

/**
 * Asks the server once per page who is signed in. Any non-OK answer, unreadable body or network failure
 * means signed out (spec §7); the failure is logged, never thrown at the page.
 */
export function loadUser(options: { force?: boolean } = {}): Promise<AuthUser | null> {
  if (pending && !options.force) return pending
  pending = apiRequest<unknown>('GET', '/api/auth/user', undefined, { nullOn401: true })
    .then(asUser)
    .catch((error: unknown) => {
      console.warn('Could not check who is signed in', error)
      return null
    })
    .then((user) => {
      $user.set(user)
      return user
    })
  return pending
}

/** After logout: the user is cleared whatever the server said (spec §7). */
export function clearUser(): void {
  pending = Promise.resolve(null)
  $user.set(null)
}
