/** Where the account pages send the visitor, from the URL they arrived with. Pure. */
import { DEFAULT_AFTER_SIGN_IN, sameSitePath } from '@core/rules/return-path'

/** /login?checkout=true is the 'Checkout Options' variant of the sign-in page (docs/product.md#sign-in). */
export function isCheckoutLogin(search: string): boolean {
  return new URLSearchParams(search).get('checkout') === 'true'
}

/** The `next` page of /login?next=/dashboard when it is a path on this site (see sameSitePath), else null. */
export function safeNextPath(search: string): string | null {
  return sameSitePath(new URLSearchParams(search).get('next'))
}

/**
 * After signing in: back into checkout, back to the page that sent the visitor here (?next=), or to the
 * account. Checkout starts at /shipping in this shop (/checkout needs a payment session made there), so
 * that is where a signed-in shopper continues.
 */
export function afterSignIn(search: string): string {
  if (isCheckoutLogin(search)) return '/shipping'
  return safeNextPath(search) ?? DEFAULT_AFTER_SIGN_IN
}

/**
 * The 'Sign in with Google' link: it carries where to go afterwards through Google's round trip, which
 * checks it again on the server (api/modules/auth).
 */
export function googleSignInHref(search: string): string {
  const next = afterSignIn(search)
  return next === DEFAULT_AFTER_SIGN_IN
    ? '/google-sign-in'
    : `/google-sign-in?next=${encodeURIComponent(next)}`
}

/**
 * docs/product.md#sign-in: a `token` in the URL fragment of /login is kept in localStorage under 'token'. The server never
 * puts one there (it signs in by cookie, docs/product.md#sign-in); this only honours links made elsewhere.
 */
export function tokenFromFragment(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token')
  return token && token.length <= 4096 ? token : null
}

/** How long a sign-in's or sign-up's welcome shows before the page moves on. */
export const SUCCESS_PAUSE_MS = 600
