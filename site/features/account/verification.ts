/** What /verify-email and the profile's e-mail card show for each answer of the verification calls. Pure. */
import { ApiError, NETWORK_ERROR_MESSAGE } from '../../lib/api'

/** The page's states once the link was checked. */
export type VerifyOutcome =
  | { kind: 'verified' }
  | { kind: 'used' }
  | { kind: 'expired' }
  | { kind: 'invalid' }
  /** Signed out: the link proves the address only to the account it was sent for, signed in. */
  | { kind: 'signIn' }
  /** Signed in as another account. */
  | { kind: 'otherAccount' }
  /** Nothing was decided (no connection, too many attempts, a server fault): the same link may work later. */
  | { kind: 'failed'; message: string }

function reasonOf(error: ApiError): unknown {
  const data = error.data
  return typeof data === 'object' && data !== null ? (data as { reason?: unknown }).reason : undefined
}

/**
 * The refusal of POST /api/auth/verify-email as the page's state: 401 signed out, 403 another account's
 * link, 409 used, 422 expired or invalid.
 */
export function verifyOutcome(error: unknown): VerifyOutcome {
  if (!(error instanceof ApiError) || error.status === 0)
    return { kind: 'failed', message: NETWORK_ERROR_MESSAGE }
  if (error.status === 401) return { kind: 'signIn' }
  // Only the link's own refusal: any other 403 (a request the shop refused as not its own) decided nothing.
  if (error.status === 403 && reasonOf(error) === 'otherAccount') return { kind: 'otherAccount' }
  if (error.status === 409) return { kind: 'used' }
  if (error.status === 422) return reasonOf(error) === 'expired' ? { kind: 'expired' } : { kind: 'invalid' }
  if (error.status === 429) return { kind: 'failed', message: error.message }
  return { kind: 'failed', message: 'Something went wrong. Please try again.' }
}

/**
 * Where /verify-email keeps the token while its visitor signs in (the tab's session storage: gone when the
 * tab closes, never in an address or a request but the verify call's own).
 */
export const PENDING_TOKEN_KEY = 'verify-email-token'

/** The token of /verify-email?token=…, or '' when there is none (or one far too long to be ours). */
export function verificationToken(search: string): string {
  const token = new URLSearchParams(search).get('token') ?? ''
  return token.length <= 64 ? token : ''
}

/** The text the profile's 'Send the link again' shows after a failed request. */
export function resendFailedText(error: unknown): string {
  if (error instanceof ApiError && error.status === 429) return error.message
  if (error instanceof ApiError && error.status === 401)
    return 'Your session has ended. Please sign in again.'
  if (error instanceof ApiError && error.status > 0) return 'The link could not be sent. Please try again.'
  return NETWORK_ERROR_MESSAGE
}
