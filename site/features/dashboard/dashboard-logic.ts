/** Pure helpers of the dashboard island: what the fields accept, what the messages say. */

import { parsePackageItemCount } from '@core/rules/package'
import { parseProductWeight } from '@core/rules/product-weight'
import { ApiError } from '../../lib/api'

/** docs/product.md#packages: the calculator's field falls back to 1 on anything but a whole number from 1 to 20. */
export function calculatorCount(raw: string): number {
  return parsePackageItemCount(raw) ?? 1
}

/** A weight typed by staff, in ounces with one decimal, or null when the server would refuse it. */
export function weightFromField(raw: string): number | null {
  const tenths = parseProductWeight(raw)
  return tenths === null ? null : tenths / 10
}

/** The server's message when it sent one, else the fallback text (docs/product.md#dashboard). */
export function serverMessageOr(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status > 0 && error.data && typeof error.data === 'object') {
    const message = (error.data as { error?: unknown }).error
    if (typeof message === 'string' && message.trim() !== '') return message
  }
  return fallback
}

export const RETRY_FAILED_FALLBACK = 'Failed to retry order processing.'

/** '3 Mar 2026, 9:05 AM' in the viewer's time zone; the raw text if it is not a date. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })
}

/** '2.5 oz' */
export function formatOunces(ounces: number): string {
  return `${ounces.toFixed(1)} oz`
}

/** '4.25 × 7 × 1 in' */
export function formatDimensions(dimensions: { width: number; length: number; height: number }): string {
  return `${dimensions.width} × ${dimensions.length} × ${dimensions.height} in`
}

const PACKAGE_NAMES = { small: 'Small mailer', medium: 'Medium mailer', large: 'Large mailer' } as const

export function packageName(type: keyof typeof PACKAGE_NAMES): string {
  return PACKAGE_NAMES[type]
}
