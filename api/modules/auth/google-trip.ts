/**
 * Google's round trip: /auth/google sends the browser to Google, Google sends it back to the callback. The
 * state, nonce and PKCE verifier wait in between in a cookie of their own, HttpOnly, for 10 minutes, with
 * the page to go back to afterwards (base64url, as a cookie value may not hold every character a path can).
 * In production it is host-only (`__Host-`, cookies.ts), so another host cannot plant a trip of its own
 * and sign a customer in to someone else's account; such a cookie is for the whole site, so it goes to
 * every page for those 10 minutes (about 120 bytes).
 */
import { sameSitePath } from '@core/rules/return-path'
import type { SignInChecks } from '../../adapters/types'
import { type CookieJar, type CookiePolicy, cookieName } from './cookies'

const TRIP_COOKIE = 'google_sign_in'
const TRIP_COOKIE_MAX_AGE = 10 * 60

export interface GoogleTrip {
  checks: SignInChecks
  /** A same-site path, or null for the account page. */
  next: string | null
}

function tripCookieValue({ checks, next }: GoogleTrip): string {
  const parts = [checks.state, checks.nonce, checks.codeVerifier]
  if (next) parts.push(Buffer.from(next).toString('base64url'))
  return parts.join('.')
}

export function saveTrip(jar: CookieJar, trip: GoogleTrip, policy: CookiePolicy): void {
  jar[cookieName(TRIP_COOKIE, policy)]?.set({
    value: tripCookieValue(trip),
    path: '/',
    httpOnly: true,
    // Lax: the cookie comes back on Google's top-level redirect to the callback.
    sameSite: 'lax',
    secure: policy.secure,
    maxAge: TRIP_COOKIE_MAX_AGE,
  })
}

/** The trip this browser started, or null when it has none (or a cookie not made here). */
export function readTrip(jar: CookieJar, policy: CookiePolicy): GoogleTrip | null {
  const value = jar[cookieName(TRIP_COOKIE, policy)]?.value
  if (typeof value !== 'string') return null
  const [state, nonce, codeVerifier, next, ...rest] = value.split('.')
  if (!state || !nonce || !codeVerifier || rest.length > 0) return null
  // Checked again on the way back: the cookie is the shop's own, but nothing read from a request is trusted.
  const path = next ? sameSitePath(Buffer.from(next, 'base64url').toString()) : null
  return { checks: { state, nonce, codeVerifier }, next: path }
}

/** A trip is used once: the callback clears it whatever happens. */
export function clearTrip(jar: CookieJar, policy: CookiePolicy): void {
  jar[cookieName(TRIP_COOKIE, policy)]?.set({
    value: '',
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: policy.secure,
    maxAge: 0,
    expires: new Date(0),
  })
}

/** The URL Google redirected to, as the shop published it (not as a proxy may have rewritten it). */
export function callbackUrl(publicUrl: string, requestUrl: string): URL {
  return new URL(`${publicUrl}/auth/google/callback${new URL(requestUrl).search}`)
}

/** The sign-in page after a failed trip, still knowing where the visitor was going. */
export function loginAgain(reason: 'failed' | 'unverified', next: string | null): string {
  const query = new URLSearchParams({ google: reason })
  if (next) query.set('next', next)
  return `/login?${query}`
}
