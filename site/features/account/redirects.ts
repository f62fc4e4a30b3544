/** Where the account pages send the visitor, from the URL they arrived with. Pure. */

/** /login?checkout=true is the 'Checkout Options' variant of the sign-in page (spec §2). */
export function isCheckoutLogin(search: string): boolean {
  return new URLSearchParams(search).get('checkout') === 'true'
}

/**
 * After signing in: back into checkout, or to the account. Checkout starts at /shipping in this shop
 * (/checkout needs a payment session made there), so that is where a signed-in shopper continues.
 */
export function afterSignIn(search: string): string {
  return isCheckoutLogin(search) ? '/shipping' : '/account'
}

/**
 * Spec §2: a `token` in the URL fragment of /login is kept in localStorage under 'token'. The server never
 * puts one there (it signs in by cookie, DESIGN decision 7); this only honours links made elsewhere.
 */
export function tokenFromFragment(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token')
  return token && token.length <= 4096 ? token : null
}
