/** The toasts of docs/product.md#shipping for failed checkout calls, chosen from what the server answered. */
import { ApiError } from '../../lib/api'

export interface ToastText {
  title: string
  description: string
}

export const RATES_FAILED = 'Failed to calculate shipping rates. Please try again.'
export const CHECKOUT_FAILED = 'Failed to start checkout. Please try again.'
export const SESSION_FAILED = 'Failed to create checkout session'
export const MIN_TOTAL_MESSAGE =
  'Order total must be at least $0.50 after discounts. Please add more items or use a smaller discount.'

export const ORDER_TOO_LOW: ToastText = { title: 'Order Total Too Low', description: MIN_TOTAL_MESSAGE }

/**
 * A 4xx with `{ error }` names what to fix (a state, a ZIP, too many requests); anything else — carrier
 * down, server fault, no network — gets the generic text.
 */
export function ratesErrorToast(error: unknown): ToastText {
  const specific =
    error instanceof ApiError && error.status >= 400 && error.status < 500 && hasServerMessage(error)
      ? error.message
      : null
  return { title: 'Shipping Error', description: specific ?? RATES_FAILED }
}

export function sessionErrorToast(error: unknown): ToastText {
  const message = error instanceof Error && error.message.trim() !== '' ? error.message : ''
  if (message === MIN_TOTAL_MESSAGE) return ORDER_TOO_LOW
  return { title: 'Payment Error', description: message || CHECKOUT_FAILED }
}

/** The server refused the quote (expired, or bound to another cart or address): the rates must go. */
export function isStaleQuote(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409
}

function hasServerMessage(error: ApiError): boolean {
  const data = error.data
  return typeof data === 'object' && data !== null && typeof (data as { error?: unknown }).error === 'string'
}
