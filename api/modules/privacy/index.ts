import { accountExportSchema, deleteAccountBody } from '@core/contracts/privacy'
import { Elysia, t } from 'elysia'
import type { Clock } from '../../lib/clock'
import { forbidden, unauthenticated } from '../../lib/domain-errors'
import type { RateLimitPlugin } from '../../plugins/rate-limit'
import { clearSessionCookies } from '../auth/cookies'
import { sessionAuth } from '../auth/guard'
import type { AuthService } from '../auth/service'
import type { PrivacyService } from './service'

/** Where a browser that followed the download link without a session goes: sign in, then back to it. */
const SIGN_IN_FIRST = '/login?next=%2Fprofile'

/**
 * The export is a plain link on /profile. A page of another site could still point a browser at it (the
 * session cookie is SameSite=Lax, so a top-level navigation carries it); browsers that send Fetch Metadata
 * say so, and such a request is refused. A bookmark or a typed address says `none` and is fine.
 */
function fromAnotherSite(request: Request): boolean {
  const site = request.headers.get('sec-fetch-site')
  return site === 'cross-site' || site === 'same-site'
}

/** A browser following a link (a page load), rather than a script asking for JSON. */
function isNavigation(request: Request): boolean {
  const mode = request.headers.get('sec-fetch-mode')
  if (mode !== null) return mode === 'navigate'
  return (request.headers.get('accept') ?? '').includes('text/html')
}

/** grit-and-whisker-my-data-2026-03-02.json: the day of the export (UTC), nothing personal. */
function exportFileName(now: Date): string {
  return `grit-and-whisker-my-data-${now.toISOString().slice(0, 10)}.json`
}

/** "Download my data" and "Delete account" (docs/decisions/018-account-data.md). */
export function privacyRoutes(
  { auth, privacy }: { auth: AuthService; privacy: PrivacyService },
  limits: RateLimitPlugin,
  clock: Clock,
) {
  return (
    new Elysia()
      // For `clientAddress`: a wrong password here counts against the sign-in limit per client too.
      .use(limits)
      .use(sessionAuth(auth, clock))
      // Personal answers: never stored by a browser or a proxy cache.
      .onAfterHandle(({ set }) => {
        set.headers['cache-control'] = 'no-store'
      })
      .get(
        '/api/user/export',
        async ({ user, request, set }) => {
          if (fromAnotherSite(request)) throw forbidden('This request must come from the shop itself.')
          if (!user) {
            if (!isNavigation(request)) throw unauthenticated()
            set.status = 303
            set.headers.location = SIGN_IN_FIRST
            return ''
          }
          set.headers['content-disposition'] = `attachment; filename="${exportFileName(clock.now())}"`
          return privacy.exportFor(user)
        },
        {
          detail: {
            summary: 'Download my data: the profile, address, preferences, orders and newsletter sign-up',
            description:
              'A JSON file (`Content-Disposition: attachment`). A browser that follows the link without a ' +
              'session is sent to sign in (303); a script gets 401.',
            tags: ['Account'],
          },
          maybeSignedIn: true,
          response: { 200: accountExportSchema, 303: t.Literal('') },
        },
      )
      .delete(
        '/api/user',
        async ({ user, session, body, cookie, clientAddress, set }) => {
          await privacy.deleteAccount(user, session, body?.password, clientAddress)
          clearSessionCookies(cookie, auth.cookiePolicy)
          set.status = 204
        },
        {
          detail: {
            summary: 'Delete my account',
            description:
              '`{ password }` for an account with a password; an account made with Google needs a Google ' +
              'sign-in in the last 10 minutes instead. 204, and every session is ended. A wrong or missing ' +
              'proof is a 403 whose `reauthenticate` says which (`password` or `google`); 409 while an order ' +
              'has not shipped.',
            tags: ['Account'],
          },
          signedIn: true,
          body: t.Optional(deleteAccountBody),
          parse: 'json',
        },
      )
  )
}
