/**
 * Where a visitor goes back to after signing in (`next`), shared by the sign-in page and Google's round
 * trip. Only a path on this site counts: '/…' but not '//…' or '/\…' (which browsers read as another host),
 * no scheme, no control characters. Anything else is null, so a crafted sign-in link can never send
 * someone to another site.
 *
 * The value is checked twice: as sent, and as a browser reads it once the URL parser has taken out its dot
 * segments and turned backslashes into slashes. `/.//evil.example` passes the first look, then becomes
 * `//evil.example`, a protocol-relative address of another host; what is returned is that normalised form,
 * so it must pass the same rule again.
 */
export function sameSitePath(next: string | null | undefined): string | null {
  if (!isPlainPath(next)) return null
  const base = 'https://shop.invalid'
  let url: URL
  try {
    url = new URL(next, base)
  } catch {
    return null
  }
  if (url.origin !== base) return null
  const path = `${url.pathname}${url.search}${url.hash}`
  return isPlainPath(path) ? path : null
}

/** At most 512 characters, one leading slash not followed by another or a backslash, no control characters. */
function isPlainPath(value: string | null | undefined): value is string {
  if (!value || value.length > 512 || !value.startsWith('/') || /^\/[/\\]/.test(value)) return false
  return ![...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)
}

/** Where a signed-in visitor lands when no (acceptable) `next` came with them. */
export const DEFAULT_AFTER_SIGN_IN = '/account'
