import { Elysia } from 'elysia'
import type { Clock } from '../../lib/clock'
import { forbidden, unauthenticated } from '../../lib/domain-errors'
import type { UserRecord } from '../account/service'
import { clearSessionCookies, hasSessionCookies, sessionToken, setSessionCookies } from './cookies'
import type { AuthService } from './service'
import type { Session } from './sessions'

/** What a signed-in customer reads on a staff call. */
export const STAFF_ONLY_MESSAGE =
  'This is for Grit & Whisker staff only. Your account does not have staff access.'

/**
 * Who is calling, from the `session` cookie. A route opts in with one of three options:
 *
 *   .get('/api/user/orders', ({ user }) => …, { signedIn: true })      // 401 unless signed in
 *   .post('/api/create-checkout-session', ({ user }) => …, { maybeSignedIn: true })   // user or null
 *   .get('/api/orders', ({ user }) => …, { staff: true })   // 401 anonymous, 403 unless the role is staff
 *
 * The account is read again on every request, so a staff member demoted a moment ago is refused at once.
 * A session used with less than 15 days left is renewed and its cookies sent again; a cookie that matches
 * no live session is cleared, so the browser stops presenting it (and pages stop asking who is signed in).
 */
export function sessionAuth(auth: Pick<AuthService, 'authenticate' | 'cookiePolicy'>, clock: Clock) {
  async function identify(cookie: Parameters<typeof sessionToken>[0]) {
    const current = await auth.authenticate(sessionToken(cookie, auth.cookiePolicy))
    if (!current) {
      if (hasSessionCookies(cookie, auth.cookiePolicy)) clearSessionCookies(cookie, auth.cookiePolicy)
      return null
    }
    if (current.renewed) {
      const token = sessionToken(cookie, auth.cookiePolicy)
      if (token) setSessionCookies(cookie, token, current.session.expiresAt, clock.now(), auth.cookiePolicy)
    }
    return current
  }

  // Unnamed on purpose: each route module that uses it gets the macros, none is deduplicated away.
  return new Elysia().macro({
    signedIn: {
      async resolve({ cookie }): Promise<{ user: UserRecord; session: Session }> {
        const current = await identify(cookie)
        if (!current) throw unauthenticated()
        return { user: current.user, session: current.session }
      },
    },
    staff: {
      async resolve({ cookie }): Promise<{ user: UserRecord; session: Session }> {
        const current = await identify(cookie)
        if (!current) throw unauthenticated()
        if (current.user.role !== 'staff') throw forbidden(STAFF_ONLY_MESSAGE)
        return { user: current.user, session: current.session }
      },
    },
    maybeSignedIn: {
      async resolve({ cookie }): Promise<{ user: UserRecord | null }> {
        return { user: (await identify(cookie))?.user ?? null }
      },
    },
  })
}
