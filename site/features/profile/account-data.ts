/**
 * "Download my data" and "Delete account" as data: the addresses the profile links to, and what the delete
 * dialog says after each answer (docs/decisions/018-account-data.md). Pure, so it is tested without a browser.
 */
import { ApiError, NETWORK_ERROR_MESSAGE } from '../../lib/api'

/** The export: a plain link, so it downloads even before the page's script has run. */
export const EXPORT_HREF = '/api/user/export'

/** Where the profile opens with the delete dialog showing (coming back from Google's round trip). */
export const DELETE_FRAGMENT = '#delete-account'

/** After the account is gone: a page that says so. */
export const DELETED_PAGE = '/account-deleted'

/** Sign in with Google again and come back to the open delete dialog; the server checks `next` again. */
export const GOOGLE_AGAIN_HREF = `/google-sign-in?next=${encodeURIComponent(`/profile${DELETE_FRAGMENT}`)}`

export const DELETE_FAILED = 'We could not delete your account. Please try again.'
export const SESSION_ENDED = 'Your session has ended. Please sign in again to delete your account.'

/** What the server wants as proof: the password, or a fresh Google sign-in. */
export type Reauthenticate = 'password' | 'google'

export function reauthenticateFrom(error: unknown): Reauthenticate | null {
  if (!(error instanceof ApiError) || error.status !== 403) return null
  const wanted = (error.data as { reauthenticate?: unknown } | undefined)?.reauthenticate
  return wanted === 'password' || wanted === 'google' ? wanted : null
}

/**
 * The sentence the dialog shows for a refused deletion: the server's own message for a wrong password (403),
 * a blank one (422), too many tries (429) or an order not shipped yet (409); otherwise a plain retry.
 */
export function deleteErrorText(error: unknown): string {
  if (!(error instanceof ApiError)) return DELETE_FAILED
  if (error.status === 0) return NETWORK_ERROR_MESSAGE
  if (error.status === 401) return SESSION_ENDED
  if ([403, 409, 422, 429].includes(error.status)) return error.message
  return DELETE_FAILED
}
