/**
 * Pages that need a signed-in visitor, and where they send one who is not. Apart from session-hint.ts,
 * which every page loads, so these few bytes reach only the pages that use them.
 */
import { HINT } from './session-hint'

/** Where a page sends a visitor to sign in first and come back after (/login?next=…). */
export function loginUrlFor(path: string): string {
  return `/login?next=${encodeURIComponent(path)}`
}

/**
 * The <head> guard of a signed-in page (see SIGNED_IN_GUARD_SCRIPT), sending a visitor without the hint to
 * `loginUrl` instead of plain /login.
 */
export function signedInGuardScript(loginUrl: string): string {
  return `(function(){if(!${HINT.toString()}.test(document.cookie)){document.documentElement.setAttribute('data-leaving','');location.replace(${JSON.stringify(loginUrl)})}})()`
}
