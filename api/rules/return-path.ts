/**
 * Where a visitor goes back to after signing in (`next`), shared by the sign-in page and Google's round
 * trip. Only a path on this site counts: '/…' but not '//…' or '/\…' (which browsers read as another host),
 * no scheme, no control characters. Anything else is null, so a crafted sign-in link can never send
 * someone to another site.
 */
export function sameSitePath(next: string | null | undefined): string | null {
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

/** Where a signed-in visitor lands when no (acceptable) `next` came with them. */
export const DEFAULT_AFTER_SIGN_IN = '/account'
