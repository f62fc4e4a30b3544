/**
 * The two cookies of a signed-in browser. `session` carries the secret token (HttpOnly: page scripts
 * never see it). `signed_in=1` is a harmless hint that page scripts may read, so a page asks the server
 * who is signed in only when someone may be, and an anonymous visitor never gets a 401.
 */
import type { Cookie } from 'elysia'

export const SESSION_COOKIE = 'session'
export const SIGNED_IN_COOKIE = 'signed_in'

export type CookieJar = Record<string, Cookie<unknown>>

export interface CookiePolicy {
  /** Secure in production (https); plain http on a developer's machine would drop a Secure cookie. */
  secure: boolean
}

function attributes(policy: CookiePolicy, maxAgeSeconds: number) {
  return {
    path: '/',
    sameSite: 'lax' as const,
    secure: policy.secure,
    maxAge: maxAgeSeconds,
    ...(maxAgeSeconds === 0 ? { expires: new Date(0) } : {}),
  }
}

export function setSessionCookies(
  jar: CookieJar,
  token: string,
  expiresAt: Date,
  now: Date,
  policy: CookiePolicy,
) {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000))
  jar[SESSION_COOKIE]?.set({ value: token, httpOnly: true, ...attributes(policy, maxAge) })
  jar[SIGNED_IN_COOKIE]?.set({ value: '1', httpOnly: false, ...attributes(policy, maxAge) })
}

export function clearSessionCookies(jar: CookieJar, policy: CookiePolicy) {
  jar[SESSION_COOKIE]?.set({ value: '', httpOnly: true, ...attributes(policy, 0) })
  jar[SIGNED_IN_COOKIE]?.set({ value: '', httpOnly: false, ...attributes(policy, 0) })
}

/** The session token the browser sent, if it sent one. */
export function sessionToken(jar: CookieJar): string | null {
  const value = jar[SESSION_COOKIE]?.value
  return typeof value === 'string' && value !== '' ? value : null
}

/** Whether the browser holds either cookie, i.e. whether there is anything to clear. */
export function hasSessionCookies(jar: CookieJar): boolean {
  return jar[SESSION_COOKIE]?.value !== undefined || jar[SIGNED_IN_COOKIE]?.value !== undefined
}
