/** Where the account pages send the visitor, from the URL they arrived with. Pure. */

/** /login?checkout=true is the 'Checkout Options' variant of the sign-in page (spec §2). */
export function isCheckoutLogin(search: string): boolean {
  return new URLSearchParams(search).get('checkout') === 'true'
}

/**
 * The `next` page of /login?next=/dashboard, when it is a path on this site: '/…' but not '//…' or '/\…'
 * (which browsers read as another host), no scheme, no control characters. Anything else is null, so a
 * crafted sign-in link can never send someone to another site.
 */
export function safeNextPath(search: string): string | null {
  const next = new URLSearchParams(search).get('next')
  if (!next || next.length > 512 || !next.startsWith('/') || /^\/[/\\]/.test(next)) return null
  if ([...next].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return null
  const base = 'https://shop.invalid'
  let url: URL
  try {
    url = new URL(next, base)
  } catch {
    return null
  }
  if (url.origin !== base) return null
  return `${url.pathname}${url.search}${url.hash}`
}

/**
 * After signing in: back into checkout, back to the page that sent the visitor here (?next=), or to the
 * account. Checkout starts at /shipping in this shop (/checkout needs a payment session made there), so
 * that is where a signed-in shopper continues.
 */
export function afterSignIn(search: string): string {
  if (isCheckoutLogin(search)) return '/shipping'
  return safeNextPath(search) ?? '/account'
}

/**
 * Spec §2: a `token` in the URL fragment of /login is kept in localStorage under 'token'. The server never
 * puts one there (it signs in by cookie, DESIGN decision 7); this only honours links made elsewhere.
 */
export function tokenFromFragment(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token')
  return token && token.length <= 4096 ? token : null
}
