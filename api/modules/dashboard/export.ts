import { centsToDollars } from '@core/rules/money'
import { formatOrderNumber } from '@core/rules/order-status'
import { csvRow, UTF8_BOM } from '../../lib/csv'
import { errorMessage, log } from '../../lib/log'
import { isoInTimeZone } from '../../lib/time-zone'
import type { OrderSearch, OrderSearchCriteria } from '../orders/search'
import type { OrderRow } from '../orders/service'

/** The export's columns, in order (docs/product.md#staff-calls). */
export const EXPORT_COLUMNS = [
  'number',
  'date',
  'customer',
  'e-mail',
  'items',
  'subtotal',
  'discount',
  'shipping',
  'total',
  'refunded',
  'status',
] as const

/** Orders read per step: a page of the search, so memory holds this many rows whatever the shop's size. */
export const EXPORT_PAGE_SIZE = 500

function exportRow(order: OrderRow, refundedCents: number, timeZone: string): string {
  return csvRow([
    formatOrderNumber(order.id),
    isoInTimeZone(order.createdAt, timeZone),
    order.customerName,
    order.email,
    order.itemCount,
    centsToDollars(order.subtotalCents),
    centsToDollars(order.discountCents),
    centsToDollars(order.shippingCents),
    centsToDollars(order.totalCents),
    centsToDollars(refundedCents),
    order.status,
  ])
}

/**
 * The orders matching `criteria` as CSV for the accountant, newest first, read a page at a time as the
 * client takes the bytes (a pull stream: a slow download reads no further ahead than one page). Each page
 * continues below the last order of the one before, as the orders list pages, so orders paid during the
 * download never shift a row into or out of it.
 */
export function ordersCsv(
  search: Pick<OrderSearch, 'page' | 'refundedCents'>,
  criteria: OrderSearchCriteria,
  timeZone: string,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let before: number | undefined
  let started = false
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true
          controller.enqueue(encoder.encode(UTF8_BOM + csvRow(EXPORT_COLUMNS)))
          return
        }
        try {
          const rows = await search.page(criteria, { limit: EXPORT_PAGE_SIZE, before })
          if (rows.length > 0) {
            const refunded = await search.refundedCents(rows.map((row) => row.id))
            const text = rows.map((row) => exportRow(row, refunded.get(row.id) ?? 0, timeZone)).join('')
            controller.enqueue(encoder.encode(text))
            before = rows[rows.length - 1]?.id
          }
          if (rows.length < EXPORT_PAGE_SIZE) controller.close()
        } catch (error) {
          // The answer has begun: the download ends broken, which the browser shows as failed.
          log.error('order export failed', { error: errorMessage(error) })
          controller.error(error)
        }
      },
    },
    // One page in hand at a time: the next is read when the client has taken this one.
    { highWaterMark: 0 },
  )
}
