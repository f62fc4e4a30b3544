import { atom } from 'nanostores'
import { apiRequest } from '../../lib/api'
import { hasSessionHint, SIGNED_IN_COOKIE } from './session-hint'

/** What GET /api/auth/user answers for a signed-in customer. Only the fields the shell relies on are typed. */
export interface AuthUser {
  id?: string | number
  email?: string
  firstName?: string
  lastName?: string
  [field: string]: unknown
}

/** `undefined` while the check runs, `null` when signed out (docs/product.md#sign-in). */
export const $user = atom<AuthUser | null | undefined>(undefined)

let pending: Promise<AuthUser | null> | null = null

function asUser(body: unknown): AuthUser | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null
  // An endpoint may wrap the user ({ user }) or answer { user: null } for anonymous visitors.
  if ('user' in body) return asUser((body as { user: unknown }).user)
  return body as AuthUser
}

/**
 * Any non-OK answer, unreadable body or network failure means signed out (docs/product.md#sign-in); the failure is logged,
 * never thrown at the page.
 */
async function askServer(): Promise<AuthUser | null> {
  try {
    const body = await apiRequest<unknown>('GET', '/api/auth/user', undefined, { nullOn401: true })
    // A 401: the session has ended, so the cookie saying otherwise goes too and later pages do not ask.
    // biome-ignore lint/suspicious/noDocumentCookie: a constant with nothing to escape; the Cookie Store API is missing from the older Safari and Firefox still in use
    if (body === null) document.cookie = `${SIGNED_IN_COOKIE}=; Max-Age=0; Path=/`
    return asUser(body)
  } catch (error) {
    console.warn('Could not check who is signed in', error)
    return null
  }
}

/**
 * Finds out once per page who is signed in. Without the signed-in cookie the visitor is signed out and the
 * server is not asked: its 401 would be logged as an error by the browser, on every page of every visitor.
 */
export function loadUser(options: { force?: boolean } = {}): Promise<AuthUser | null> {
  if (pending && !options.force) return pending
  pending = (hasSessionHint() ? askServer() : Promise.resolve(null)).then((user) => {
    $user.set(user)
    return user
  })
  return pending
}

/** After logout: the user is cleared whatever the server said (docs/product.md#sign-in). */
export function clearUser(): void {
  pending = Promise.resolve(null)
  $user.set(null)
}
