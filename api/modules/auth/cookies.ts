/**
 * The two cookies of a signed-in browser. `session` carries the secret token (HttpOnly: page scripts
 * never see it). `signed_in=1` is a harmless hint that page scripts may read, so a page asks the server
 * who is signed in only when someone may be, and an anonymous visitor never gets a 401.
 *
 * In production the session cookie is `__Host-session`: browsers take a cookie of that name only from this
 * host over https, Secure, for the whole site and with no Domain, so another host under the same domain (or
 * a plain-http answer) cannot plant a session of its own in a customer's browser (docs/decisions/011).
 */
import type { Cookie } from 'elysia'

export const SESSION_COOKIE = 'session'
export const SIGNED_IN_COOKIE = 'signed_in'
/** `__Host-` asks the browser to take the cookie only as Secure, Path=/ and without a Domain. */
export const HOST_ONLY_PREFIX = '__Host-'

export type CookieJar = Record<string, Cookie<unknown>>

export interface CookiePolicy {
  /** Secure in production (https); plain http on a developer's machine would drop a Secure cookie. */
  secure: boolean
}

/** A cookie's name under the policy: host-only (`__Host-`) wherever it is Secure. */
export function cookieName(name: string, policy: CookiePolicy): string {
  return policy.secure ? `${HOST_ONLY_PREFIX}${name}` : name
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

/**
 * In production, the plain `session` cookie a browser kept from before the session cookie became
 * `__Host-session`: never read, and cleared whenever the session cookies are set or cleared, so no old
 * token stays in the browser until it expires.
 */
function clearPlainSession(jar: CookieJar, policy: CookiePolicy) {
  if (!policy.secure || jar[SESSION_COOKIE]?.value === undefined) return
  jar[SESSION_COOKIE].set({ value: '', httpOnly: true, ...attributes(policy, 0) })
}

export function setSessionCookies(
  jar: CookieJar,
  token: string,
  expiresAt: Date,
  now: Date,
  policy: CookiePolicy,
) {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000))
  jar[cookieName(SESSION_COOKIE, policy)]?.set({
    value: token,
    httpOnly: true,
    ...attributes(policy, maxAge),
  })
  jar[SIGNED_IN_COOKIE]?.set({ value: '1', httpOnly: false, ...attributes(policy, maxAge) })
  clearPlainSession(jar, policy)
}

export function clearSessionCookies(jar: CookieJar, policy: CookiePolicy) {
  jar[cookieName(SESSION_COOKIE, policy)]?.set({ value: '', httpOnly: true, ...attributes(policy, 0) })
  jar[SIGNED_IN_COOKIE]?.set({ value: '', httpOnly: false, ...attributes(policy, 0) })
  clearPlainSession(jar, policy)
}

/** The session token the browser sent, if it sent one: only under the policy's name. */
export function sessionToken(jar: CookieJar, policy: CookiePolicy): string | null {
  const value = jar[cookieName(SESSION_COOKIE, policy)]?.value
  return typeof value === 'string' && value !== '' ? value : null
}

/** Whether the browser holds either cookie, i.e. whether there is anything to clear. */
export function hasSessionCookies(jar: CookieJar, policy: CookiePolicy): boolean {
  return (
    jar[cookieName(SESSION_COOKIE, policy)]?.value !== undefined ||
    jar[SIGNED_IN_COOKIE]?.value !== undefined ||
    (policy.secure && jar[SESSION_COOKIE]?.value !== undefined)
  )
}
