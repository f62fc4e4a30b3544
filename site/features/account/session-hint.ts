/**
 * The `signed_in=1` cookie the server sets beside the HttpOnly session cookie. It proves nothing (the
 * server decides who is signed in from the session alone); it only tells a page that someone may be, so
 * anonymous visitors are never asked "who are you?" and get no 401.
 */

export const SIGNED_IN_COOKIE = 'signed_in'

export const HINT = /(?:^|;\s*)signed_in=1(?:;|$)/

export function hasSessionHint(
  cookies: string = typeof document === 'undefined' ? '' : document.cookie,
): boolean {
  return HINT.test(cookies)
}

/**
 * Runs in <head> of the account pages before anything paints: without the hint the visitor cannot be signed
 * in, so they go to /login and never see the page flash. Inline and ES5 on purpose; the page adds its hash
 * to the CSP. `data-leaving` hides the body (see account.css) while the browser moves on.
 */
export const SIGNED_IN_GUARD_SCRIPT = `(function(){if(!${HINT.toString()}.test(document.cookie)){document.documentElement.setAttribute('data-leaving','');location.replace('/login')}})()`
