/**
 * /login and /signup, which a signed-in visitor only passes through (use-onward-when-signed-in.ts): the
 * <html> attribute that hides them while they find out, and the <head> script that sets it first.
 */
import { HINT } from './session-hint'

/** Set on <html> while /login or /signup finds out whether its visitor is signed in already (account.css). */
export const SIGNED_IN_CHECK_ATTRIBUTE = 'data-signed-in-check'

/**
 * With the hint, the visitor may be signed in already and about to be sent on, so the page stays hidden
 * until that is known instead of showing a form they do not need. Inline and ES5 like
 * SIGNED_IN_GUARD_SCRIPT; the page adds its hash to the CSP.
 */
export const SIGNED_IN_CHECK_SCRIPT = `(function(){if(${HINT.toString()}.test(document.cookie))document.documentElement.setAttribute('${SIGNED_IN_CHECK_ATTRIBUTE}','')})()`
