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
import { IdentityProviderError } from '../../adapters/types'
import type { Config } from '../../env'
import type { Clock } from '../../lib/clock'
import { invalid } from '../../lib/domain-errors'
import { errorMessage, log } from '../../lib/log'
import type { RateCounter } from '../../lib/rate-counters'
import type { RateLimitPlugin } from '../../plugins/rate-limit'
import type { AccountService } from '../account/service'
import { type CookieJar, clearSessionCookies, sessionToken, setSessionCookies } from './cookies'
import { googleUnavailablePage } from './google-page'
import { callbackUrl, clearTrip, loginAgain, readTrip, saveTrip } from './google-trip'
import { sessionAuth } from './guard'
import { AUTH_LIMITS as LIMITS } from './limits'
import { type AuthService, MESSAGES, type SignedIn } from './service'
import { VERIFICATION_MESSAGES } from './verification'

/** What the account routes call. */
interface AuthRouteServices {
  auth: AuthService
  accounts: AccountService
  sharedRateCounter: RateCounter
}

/**
 * The sign-in, password, verification and Google routes (docs/product.md#accounts), each group on
 * its own below.
 */
export function authRoutes(
  services: AuthRouteServices,
  limits: RateLimitPlugin,
  { config, clock }: { config: Config; clock: Clock },
) {
  const sessions = sessionStarter(services, clock)
  return new Elysia()
    .use(sessionRoutes(services, limits, clock, sessions))
    .use(passwordRoutes(services, limits, clock))
    .use(verificationRoutes(services, limits, clock))
    .use(googleRoutes(services.auth, limits, { config, clock }, sessions))
}

/** What every group starts from: who is calling, the client's address, and answers no cache keeps. */
function accountCalls(auth: AuthService, limits: RateLimitPlugin, clock: Clock) {
  return (
    new Elysia()
      // For `clientAddress`, worked out once per request; these limits count in the database instead.
      .use(limits)
      .use(sessionAuth(auth, clock))
      // Answers about who is signed in are personal: never stored by a browser or proxy cache.
      .onAfterHandle(({ set }) => {
        set.headers['cache-control'] = 'no-store'
      })
  )
}

function sessionStarter({ auth, accounts }: AuthRouteServices, clock: Clock) {
  /**
   * Puts the new session in this browser's cookies. A session the browser held before is deleted: one
   * browser, one live session, and a token someone planted or copied earlier stops working.
   */
  async function startSession(jar: CookieJar, signedIn: SignedIn) {
    const previous = sessionToken(jar, auth.cookiePolicy)
    if (previous) await auth.signOut(previous)
    setSessionCookies(jar, signedIn.token, signedIn.session.expiresAt, clock.now(), auth.cookiePolicy)
  }

  async function signedInAnswer(jar: CookieJar, signedIn: SignedIn, message: string) {
    await startSession(jar, signedIn)
    return { authenticated: true as const, message, user: accounts.toPublic(signedIn.user) }
  }

  return { startSession, signedInAnswer }
}

type SessionStarter = ReturnType<typeof sessionStarter>

/** Who is signed in, signing out, signing up and signing in with a password. */
function sessionRoutes(
  { auth, accounts, sharedRateCounter }: AuthRouteServices,
  limits: RateLimitPlugin,
  clock: Clock,
  { signedInAnswer }: SessionStarter,
) {
  return accountCalls(auth, limits, clock)
    .get('/api/auth/user', ({ user }) => accounts.toPublic(user), {
      detail: { summary: 'The signed-in customer', tags: ['Account'] },
      signedIn: true,
      response: { 200: publicUserSchema },
    })
    .post(
      '/api/auth/logout',
      async ({ cookie }) => {
        await auth.signOut(sessionToken(cookie, auth.cookiePolicy))
        clearSessionCookies(cookie, auth.cookiePolicy)
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
}

/** A forgotten password: the e-mailed link, checking it, and setting a new password with it. */
function passwordRoutes(
  { auth, sharedRateCounter }: AuthRouteServices,
  limits: RateLimitPlugin,
  clock: Clock,
) {
  return accountCalls(auth, limits, clock)
    .post(
      '/api/auth/forgot-password',
      async ({ body, clientAddress }) => {
        const email = body.email.trim().toLowerCase()
        await sharedRateCounter(clientAddress, LIMITS.resetPerAddress)
        // Counted by inbox too (`name+tag@` is `name@`), so one inbox is not flooded from many addresses,
        // nor through many accounts of its tags (docs/decisions/020).
        await sharedRateCounter(customerKey(email), LIMITS.resetPerEmail)
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
        clearSessionCookies(cookie, auth.cookiePolicy)
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
}

/** Proving the e-mail address: using the e-mailed link, and asking for a new one. */
function verificationRoutes(
  { auth, sharedRateCounter }: AuthRouteServices,
  limits: RateLimitPlugin,
  clock: Clock,
) {
  return accountCalls(auth, limits, clock)
    .post(
      '/api/auth/verify-email',
      async ({ body, clientAddress, user }) => {
        await sharedRateCounter(clientAddress, LIMITS.verifyUse)
        await auth.verification.verify(body.token, user.id)
        return { message: VERIFICATION_MESSAGES.verified }
      },
      {
        detail: {
          summary: 'Prove the e-mail address with the e-mailed link (one use, 24 hours), signed in',
          description:
            'Signed in as the account the link was sent for (401 signed out, 403 another account). A used link is a 409, an expired or unknown one a 422; `reason` says which (used, expired, invalid, otherAccount).',
          tags: ['Account'],
        },
        signedIn: true,
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
        await sharedRateCounter(customerKey(user.email), LIMITS.verifyRequestPerEmail)
        await auth.verification.request(user.id)
        return { message: VERIFICATION_MESSAGES.sent, emailVerified: false }
      },
      {
        detail: { summary: 'E-mail a new verification link to the signed-in account', tags: ['Account'] },
        signedIn: true,
        response: { 200: resendVerificationResponse },
      },
    )
}

/** Google sign-in: off to Google (google-trip.ts keeps what the way back needs), and back again. */
function googleRoutes(
  auth: AuthService,
  limits: RateLimitPlugin,
  { config, clock }: { config: Config; clock: Clock },
  { startSession }: SessionStarter,
) {
  return accountCalls(auth, limits, clock)
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
        saveTrip(cookie, { checks: start.checks, next }, auth.cookiePolicy)
        set.status = 302
        set.headers.location = start.url
        return ''
      },
      { detail: { summary: 'Start Google sign-in (a redirect to Google)', tags: ['Account'] } },
    )
    .get(
      '/auth/google/callback',
      async ({ cookie, request, set }) => {
        const trip = readTrip(cookie, auth.cookiePolicy)
        clearTrip(cookie, auth.cookiePolicy)
        set.status = 302
        if (!auth.googleConfigured) {
          set.headers.location = '/auth/google'
          return ''
        }
        if (!trip) {
          set.headers.location = loginAgain('failed', null)
          return ''
        }
        try {
          await startSession(
            cookie,
            await auth.finishGoogleSignIn(callbackUrl(config.publicUrl, request.url), trip.checks),
          )
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
}
