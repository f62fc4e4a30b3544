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

/**
 * The server's message when it refused what a save sent (422, or 409 for units received under a key
 * another save used), which the form shows on the field it was about; null for any other failure.
 */
export function refusedValue(error: unknown): string | null {
  if (!(error instanceof ApiError) || (error.status !== 422 && error.status !== 409)) return null
  const message = serverMessageOr(error, '')
  return message === '' ? null : message
}

export const RETRY_FAILED_FALLBACK = 'Failed to retry order processing.'

const TIME_PARTS: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
}

/** One formatter per zone: a table of 100 orders formats 100 times with the same one. */
const timeFormats = new Map<string, Intl.DateTimeFormat>()

function timeFormat(timeZone: string): Intl.DateTimeFormat {
  let format = timeFormats.get(timeZone)
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', { ...TIME_PARTS, timeZone })
    } catch {
      // A browser whose zone data lacks the server's name: UTC, which the text then names, rather than
      // the browser's own zone passed off as the shop's.
      format = new Intl.DateTimeFormat('en-US', { ...TIME_PARTS, timeZone: 'UTC' })
    }
    timeFormats.set(timeZone, format)
  }
  return format
}

/**
 * 'Nov 27, 2026, 6:05 PM CST': the moment on the shop's clock (`timeZone`, SHOP_TIME_ZONE as the stats name
 * it), with the zone's short name; never the browser's zone. The dashboard's days ('From', 'To', 'Orders
 * Today', the chart, the CSV) are the shop's, and a time read on a laptop in another zone must agree with
 * them. The raw text if it is not a date.
 */
export function formatDateTime(iso: string, timeZone: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  // Some ICU versions put a narrow no-break space before 'PM': one plain space whatever the engine.
  return timeFormat(timeZone).format(date).replace(/\s/g, ' ')
}

/**
 * The zone the day filters count in, as staff say it all year ('CT' for America/Chicago, not CST in winter
 * and CDT in summer: a range of days may cross the change); 'UTC' for a zone the browser does not know, as
 * `formatDateTime` falls back to.
 */
export function dayZoneName(timeZone: string): string {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'shortGeneric' }).formatToParts(
      new Date(),
    )
    return parts.find((part) => part.type === 'timeZoneName')?.value ?? timeZone
  } catch {
    return 'UTC'
  }
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

/** What the orders table asks for: search text, statuses ('' for all, or comma-separated), days, how many. */
export interface OrdersView {
  q: string
  status: string
  /** 'YYYY-MM-DD' or ''. */
  from: string
  to: string
  limit: number
}

/** The filters a view carries, in the order they appear in an address. */
const FILTER_KEYS = ['q', 'status', 'from', 'to'] as const

/** Whether the view narrows the orders at all (else the table reads 'No orders yet'). */
export function isFiltered(view: OrdersView): boolean {
  return FILTER_KEYS.some((key) => view[key].trim() !== '')
}

/** The view's filters as a query string, without the empty ones: '' when there are none. */
export function filtersQuery(view: OrdersView): string {
  const query = new URLSearchParams()
  for (const key of FILTER_KEYS) {
    const value = view[key].trim()
    if (value) query.set(key, value)
  }
  return query.toString()
}

/** The orders call for a view: its filters and its page size. */
export function ordersPath(view: OrdersView): string {
  const filters = filtersQuery(view)
  return `/api/orders?${filters ? `${filters}&` : ''}limit=${view.limit}`
}

/** The export with the same filters as the table. */
export function exportPath(view: OrdersView): string {
  const filters = filtersQuery(view)
  return `/api/orders/export.csv${filters ? `?${filters}` : ''}`
}

/**
 * The filters from the dashboard's own address (`/dashboard?q=…&status=…`), so a reload or a shared link
 * shows the same orders; anything else in it is ignored. The server checks every value again.
 */
export function viewFromAddress(search: string, limit: number): OrdersView {
  const query = new URLSearchParams(search)
  const value = (key: (typeof FILTER_KEYS)[number]) => (query.get(key) ?? '').slice(0, 200)
  return { q: value('q'), status: value('status'), from: value('from'), to: value('to'), limit }
}

/** The dashboard's address for a view: `/dashboard?q=…`, or `/dashboard` without filters. */
export function addressFor(pathname: string, view: OrdersView): string {
  const filters = filtersQuery(view)
  return filters ? `${pathname}?${filters}` : pathname
}

/** '$1,234.50' for the chart's table and caption. */
export function chartMoney(dollars: number): string {
  return dollars.toLocaleString('en-US', { style: 'currency', currency: 'USD' })
}

/** 'Mar 8' for a 'YYYY-MM-DD' day, read as a calendar date (no time zone can move it). */
export function shortDay(date: string): string {
  const [year, month, day] = date.split('-').map(Number)
  if (!year || !month || !day) return date
  return new Date(Date.UTC(year, month - 1, day)).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  })
}

/** Bar heights for a chart `height` units tall: each value's share of the largest, a non-zero one at least 1. */
export function barHeights(values: readonly number[], height: number): number[] {
  const largest = Math.max(0, ...values)
  if (largest <= 0) return values.map(() => 0)
  return values.map((value) => (value <= 0 ? 0 : Math.max(1, (value / largest) * height)))
}
