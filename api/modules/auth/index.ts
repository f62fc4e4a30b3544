import { publicUserSchema } from '@core/contracts/account'
import {
  authenticatedResponse,
  forgotPasswordBody,
  loginBody,
  messageResponse,
  registerBody,
  resendVerificationResponse,
  resetPasswordBody,
  resetTokenBody,
  verifyEmailBody,
} from '@core/contracts/auth'
import { customerKey } from '@core/rules/customer'
import { DEFAULT_AFTER_SIGN_IN, sameSitePath } from '@core/rules/return-path'
import { Elysia } from 'elysia'
import { IdentityProviderError, type SignInChecks } from '../../adapters/types'
import type { Config } from '../../env'
import type { Clock } from '../../lib/clock'
import { invalid } from '../../lib/domain-errors'
import { errorMessage, log } from '../../lib/log'
import type { RateCounter } from '../../lib/rate-counters'
import type { RateLimitPlugin } from '../../plugins/rate-limit'
import type { AccountService } from '../account/service'
import { type CookieJar, clearSessionCookies, sessionToken, setSessionCookies } from './cookies'
import { googleUnavailablePage } from './google-page'
import { sessionAuth } from './guard'
import { type AuthService, MESSAGES, type SignedIn } from './service'
import { VERIFICATION_MESSAGES } from './verification'

const HOUR_MS = 60 * 60 * 1000
/** Counted in the database (sharedRateCounter), so several server instances allow no more than one. */
const LIMITS = {
  // docs/decisions/020: room for many shoppers behind one carrier or office address; one address still
  // makes at most 30 accounts (30 password hashes, 30 answers about taken e-mails) an hour.
  register: {
    name: 'register',
    max: 30,
    windowMs: HOUR_MS,
    message: 'Too many sign-ups from here. Please try again later.',
  },
  registerPerInbox: {
    name: 'register-inbox',
    max: 5,
    windowMs: HOUR_MS,
    message: 'Too many sign-ups for this e-mail. Please try again in an hour.',
  },
  resetPerAddress: {
    name: 'reset-request',
    max: 5,
    windowMs: 15 * 60 * 1000,
    message: 'Too many reset requests from here. Please wait 15 minutes and try again.',
  },
  resetPerEmail: {
    name: 'reset-request-email',
    max: 3,
    windowMs: HOUR_MS,
    message: 'Too many reset requests for this e-mail. Please check your inbox, or try again in an hour.',
  },
  resetUse: {
    name: 'reset-use',
    max: 20,
    windowMs: 15 * 60 * 1000,
    message: 'Too many attempts with reset links. Please wait 15 minutes and try again.',
  },
  // Verification links are limited like reset links: asking for them fills an inbox, using them is guessing.
  verifyRequestPerAddress: {
    name: 'verify-request',
    max: 5,
    windowMs: 15 * 60 * 1000,
    message: 'Too many links asked for from here. Please wait 15 minutes and try again.',
  },
  verifyRequestPerEmail: {
    name: 'verify-request-email',
    max: 3,
    windowMs: HOUR_MS,
    message: 'Too many links asked for this e-mail. Please check your inbox, or try again in an hour.',
  },
  verifyUse: {
    name: 'verify-use',
    max: 20,
    windowMs: 15 * 60 * 1000,
    message: 'Too many attempts with verification links. Please wait 15 minutes and try again.',
  },
} as const

/**
 * Google's round trip: the state, nonce and PKCE verifier wait here, HttpOnly, for 10 minutes, with the
 * page to go back to afterwards (base64url, as a cookie value may not hold every character a path can).
 */
const GOOGLE_COOKIE = 'google_sign_in'
const GOOGLE_COOKIE_PATH = '/auth/google'
const GOOGLE_COOKIE_MAX_AGE = 10 * 60

interface GoogleTrip {
  checks: SignInChecks
  /** A same-site path, or null for the account page. */
  next: string | null
}

function tripCookieValue({ checks, next }: GoogleTrip): string {
  const parts = [checks.state, checks.nonce, checks.codeVerifier]
  if (next) parts.push(Buffer.from(next).toString('base64url'))
  return parts.join('.')
}

function readTrip(jar: CookieJar): GoogleTrip | null {
  const value = jar[GOOGLE_COOKIE]?.value
  if (typeof value !== 'string') return null
  const [state, nonce, codeVerifier, next, ...rest] = value.split('.')
  if (!state || !nonce || !codeVerifier || rest.length > 0) return null
  // Checked again on the way back: the cookie is the shop's own, but nothing read from a request is trusted.
  const path = next ? sameSitePath(Buffer.from(next, 'base64url').toString()) : null
  return { checks: { state, nonce, codeVerifier }, next: path }
}

/** The sign-in page after a failed trip, still knowing where the visitor was going. */
function loginAgain(reason: 'failed' | 'unverified', next: string | null): string {
  const query = new URLSearchParams({ google: reason })
  if (next) query.set('next', next)
  return `/login?${query}`
}

export function authRoutes(
  {
    auth,
    accounts,
    sharedRateCounter,
  }: { auth: AuthService; accounts: AccountService; sharedRateCounter: RateCounter },
  limits: RateLimitPlugin,
  { config, clock }: { config: Config; clock: Clock },
) {
  const policy = auth.cookiePolicy

  /**
   * Puts the new session in this browser's cookies. A session the browser held before is deleted: one
   * browser, one live session, and a token someone planted or copied earlier stops working.
   */
  async function startSession(jar: CookieJar, signedIn: SignedIn) {
    const previous = sessionToken(jar)
    if (previous) await auth.signOut(previous)
    setSessionCookies(jar, signedIn.token, signedIn.session.expiresAt, clock.now(), policy)
  }

  async function signedInAnswer(jar: CookieJar, signedIn: SignedIn, message: string) {
    await startSession(jar, signedIn)
    return { authenticated: true as const, message, user: accounts.toPublic(signedIn.user) }
  }

  function clearGoogleCookie(jar: CookieJar) {
    jar[GOOGLE_COOKIE]?.set({
      value: '',
      path: GOOGLE_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: policy.secure,
      maxAge: 0,
      expires: new Date(0),
    })
  }

  return (
    new Elysia()
      // For `clientAddress`, worked out once per request; these limits count in the database instead.
      .use(limits)
      .use(sessionAuth(auth, clock))
      // Answers about who is signed in are personal: never stored by a browser or proxy cache.
      .onAfterHandle(({ set }) => {
        set.headers['cache-control'] = 'no-store'
      })
      .get('/api/auth/user', ({ user }) => accounts.toPublic(user), {
        detail: { summary: 'The signed-in customer', tags: ['Account'] },
        signedIn: true,
        response: { 200: publicUserSchema },
      })
      .post(
        '/api/auth/logout',
        async ({ cookie }) => {
          await auth.signOut(sessionToken(cookie))
          clearSessionCookies(cookie, policy)
          return { message: 'You have been signed out.' }
        },
        {
          detail: { summary: 'Sign out this browser', tags: ['Account'] },
          response: { 200: messageResponse },
        },
      )
      .post(
        '/auth/register',
        async ({ body, cookie, clientAddress }) => {
          await sharedRateCounter(clientAddress, LIMITS.register)
          // Counted by inbox too (a +tag reaches the same one), from any number of addresses.
          await sharedRateCounter(customerKey(body.email), LIMITS.registerPerInbox)
          return signedInAnswer(cookie, await auth.register(body), MESSAGES.registered)
        },
        {
          detail: { summary: 'Create an account with e-mail and password, and sign in', tags: ['Account'] },
          body: registerBody,
          parse: 'json',
          response: { 200: authenticatedResponse },
        },
      )
      .post(
        '/api/auth/login',
        async ({ body, cookie, clientAddress }) =>
          signedInAnswer(cookie, await auth.signIn(body, clientAddress), MESSAGES.signedIn),
        {
          detail: { summary: 'Sign in with e-mail and password', tags: ['Account'] },
          body: loginBody,
          parse: 'json',
          response: { 200: authenticatedResponse },
        },
      )
      .post(
        '/api/auth/forgot-password',
        async ({ body, clientAddress }) => {
          const email = body.email.trim().toLowerCase()
          await sharedRateCounter(clientAddress, LIMITS.resetPerAddress)
          // Counted by e-mail too, so one inbox is not flooded from many addresses.
          await sharedRateCounter(email, LIMITS.resetPerEmail)
          await auth.requestPasswordReset(email)
          return { message: MESSAGES.resetRequested }
        },
        {
          detail: {
            summary: 'E-mail a password reset link (the same answer for any address)',
            tags: ['Account'],
          },
          body: forgotPasswordBody,
          parse: 'json',
          response: { 200: messageResponse },
        },
      )
      .post(
        '/api/auth/validate-reset-token',
        async ({ body, clientAddress }) => {
          await sharedRateCounter(clientAddress, LIMITS.resetUse)
          if (!(await auth.isResetTokenValid(body.token))) throw invalid(MESSAGES.badResetLink)
          return { message: 'This reset link is valid.' }
        },
        {
          detail: { summary: 'Check a password reset link', tags: ['Account'] },
          body: resetTokenBody,
          parse: 'json',
          response: { 200: messageResponse },
        },
      )
      .post(
        '/api/auth/reset-password',
        async ({ body, cookie, clientAddress }) => {
          await sharedRateCounter(clientAddress, LIMITS.resetUse)
          await auth.resetPassword(body)
          // Every session of the account is gone; this browser's cookies go too.
          clearSessionCookies(cookie, policy)
          return { message: MESSAGES.passwordUpdated }
        },
        {
          detail: {
            summary: 'Set a new password with a reset link; signs out every browser',
            tags: ['Account'],
          },
          body: resetPasswordBody,
          parse: 'json',
          response: { 200: messageResponse },
        },
      )
      .post(
        '/api/auth/verify-email',
        async ({ body, clientAddress }) => {
          await sharedRateCounter(clientAddress, LIMITS.verifyUse)
          await auth.verification.verify(body.token)
          return { message: VERIFICATION_MESSAGES.verified }
        },
        {
          detail: {
            summary: 'Prove the e-mail address with the e-mailed link (one use, 24 hours)',
            description:
              'A used link is a 409, an expired or unknown one a 422; `reason` says which (used, expired, invalid).',
            tags: ['Account'],
          },
          body: verifyEmailBody,
          parse: 'json',
          response: { 200: messageResponse },
        },
      )
      .post(
        '/api/auth/resend-verification',
        async ({ user, clientAddress }) => {
          if (user.emailVerifiedAt !== null) {
            return { message: VERIFICATION_MESSAGES.alreadyVerified, emailVerified: true }
          }
          await sharedRateCounter(clientAddress, LIMITS.verifyRequestPerAddress)
          await sharedRateCounter(user.email, LIMITS.verifyRequestPerEmail)
          await auth.verification.request(user.id)
          return { message: VERIFICATION_MESSAGES.sent, emailVerified: false }
        },
        {
          detail: { summary: 'E-mail a new verification link to the signed-in account', tags: ['Account'] },
          signedIn: true,
          response: { 200: resendVerificationResponse },
        },
      )
      .get(
        '/auth/google',
        async ({ cookie, query, set }) => {
          if (!auth.googleConfigured) return googleUnavailablePage('not-configured')
          let start: Awaited<ReturnType<AuthService['startGoogleSignIn']>>
          try {
            start = await auth.startGoogleSignIn()
          } catch (error) {
            if (!(error instanceof IdentityProviderError)) throw error
            log.error('google sign-in could not start', { error: errorMessage(error) })
            return googleUnavailablePage('unreachable')
          }
          const next = sameSitePath(typeof query.next === 'string' ? query.next : null)
          cookie[GOOGLE_COOKIE]?.set({
            value: tripCookieValue({ checks: start.checks, next }),
            path: GOOGLE_COOKIE_PATH,
            httpOnly: true,
            // Lax: the cookie comes back on Google's top-level redirect to the callback.
            sameSite: 'lax',
            secure: policy.secure,
            maxAge: GOOGLE_COOKIE_MAX_AGE,
          })
          set.status = 302
          set.headers.location = start.url
          return ''
        },
        { detail: { summary: 'Start Google sign-in (a redirect to Google)', tags: ['Account'] } },
      )
      .get(
        '/auth/google/callback',
        async ({ cookie, request, set }) => {
          const trip = readTrip(cookie)
          clearGoogleCookie(cookie)
          set.status = 302
          if (!auth.googleConfigured) {
            set.headers.location = '/auth/google'
            return ''
          }
          if (!trip) {
            set.headers.location = loginAgain('failed', null)
            return ''
          }
          // The URL Google redirected to, as the shop published it (not as a proxy may have rewritten it).
          const callbackUrl = new URL(
            `${config.publicUrl}/auth/google/callback${new URL(request.url).search}`,
          )
          try {
            await startSession(cookie, await auth.finishGoogleSignIn(callbackUrl, trip.checks))
            // docs/product.md#sign-in: the browser is signed in by the cookie; no credential travels in this URL.
            set.headers.location = trip.next ?? DEFAULT_AFTER_SIGN_IN
          } catch (error) {
            if (!(error instanceof IdentityProviderError)) throw error
            log.warn('google sign-in refused', { error: errorMessage(error) })
            const reason = error.message === MESSAGES.googleUnverified ? 'unverified' : 'failed'
            set.headers.location = loginAgain(reason, trip.next)
          }
          return ''
        },
        {
          detail: {
            summary: "Google's redirect back: signs in and redirects to /account",
            tags: ['Account'],
          },
        },
      )
  )
}
