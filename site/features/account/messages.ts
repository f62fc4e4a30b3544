/** The texts of docs/product.md#sign-in and #password-reset for failed account calls, chosen from what the API client threw. Pure. */
import { ApiError } from '../../lib/api'

export interface ToastText {
  title: string
  description: string
}

export const LOGIN_FAILED = 'Failed to sign in. Please check your credentials.'
export const USE_GOOGLE = 'This email is registered with Google. Please use Google Sign In.'
export const SOMETHING_WRONG = 'Something went wrong. Please try again.'

function serverSaid(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status > 0
}

/** Whether the server's answer carries `flag: true` (the Google hint, a staff password to renew). */
function flagged(error: unknown, flag: 'useGoogle' | 'newPasswordNeeded'): boolean {
  const data = error instanceof ApiError ? error.data : null
  return typeof data === 'object' && data !== null && (data as Record<string, unknown>)[flag] === true
}

/**
 * docs/product.md#sign-in: the Google hint, a staff password shorter than the staff rule (the server's
 * words, which say what to do), or one generic text; a 429 keeps the server's wait time, which the user needs.
 */
export function loginError(error: unknown): ToastText {
  if (flagged(error, 'useGoogle')) return { title: 'Use Google Sign In', description: USE_GOOGLE }
  if (serverSaid(error) && error.status === 403 && flagged(error, 'newPasswordNeeded'))
    return { title: 'New Password Needed', description: error.message }
  if (serverSaid(error) && error.status === 429)
    return { title: 'Too Many Attempts', description: error.message }
  return { title: 'Sign In Failed', description: LOGIN_FAILED }
}

/** docs/product.md#sign-in: 'Registration failed' or the server message; a network failure has its own text. */
export function registrationError(error: unknown): ToastText {
  if (serverSaid(error))
    return { title: 'Registration failed', description: error.message || 'Registration failed' }
  return { title: 'Registration failed', description: 'Registration failed. Please try again.' }
}

/** docs/product.md#password-reset: 'Error' with the server message or the fallback; a network failure says something went wrong. */
export function forgotPasswordError(error: unknown): ToastText {
  if (serverSaid(error)) {
    return { title: 'Error', description: error.message || 'Failed to send reset email. Please try again.' }
  }
  return { title: 'Error', description: SOMETHING_WRONG }
}

/** docs/product.md#password-reset: 'Reset Failed' with the server message or the fallback; network failure 'Error'. */
export function resetPasswordError(error: unknown): ToastText {
  if (serverSaid(error)) {
    return {
      title: 'Reset Failed',
      description: error.message || 'Failed to reset password. Please try again.',
    }
  }
  return { title: 'Error', description: SOMETHING_WRONG }
}

/** Where Google sent the visitor back with `?google=…` on the sign-in page. */
export function googleReturnMessage(reason: string | null): ToastText | null {
  if (reason === 'unverified') {
    return {
      title: 'Google Sign In Failed',
      description: 'Your Google account has no verified e-mail address, so we cannot sign you in with it.',
    }
  }
  if (reason === 'failed') {
    return {
      title: 'Google Sign In Failed',
      description: 'Google sign-in did not complete. Please try again.',
    }
  }
  return null
}
