import { Elysia } from 'elysia'
import { jsonError } from '../../plugins/errors'

/**
 * The header's sign-in check. Customer accounts (sessions, sign-in, Google) are not built yet, so nobody is
 * signed in: the answer is 401, which the site reads as 'signed out' and links the account icon to /login.
 */
export function authRoutes() {
  return new Elysia().get('/api/auth/user', () => jsonError(401, 'Not signed in.'))
}
