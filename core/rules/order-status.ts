/**
 * Order status moves (docs/product.md#order-statuses, docs/product.md#money). Each move is applied as one conditional UPDATE
 * (`WHERE status IN statusesThatCanMoveTo(to)`), so two Retry clicks or two workers cannot both win.
 */

export const ORDER_STATUSES = [
  'pending',
  'processing',
  'label_created',
  'shipped',
  'failed',
  'cancelled',
  'refunded',
] as const

export type OrderStatus = (typeof ORDER_STATUSES)[number]

/**
 * Cancel takes any order that has not shipped (the server also checks that a refunded one never did);
 * `refunded` is reached once nothing is left to refund, by any order not cancelled; a refund that fails
 * later gives a refunded order back the status it had (docs/product.md#order-statuses).
 */
const MOVES: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ['processing', 'cancelled', 'refunded'],
  processing: ['label_created', 'failed', 'cancelled', 'refunded'],
  label_created: ['shipped', 'failed', 'cancelled', 'refunded'],
  shipped: ['refunded'],
  failed: ['processing', 'cancelled', 'refunded'], // Retry: reprocess and buy the label again
  cancelled: [],
  refunded: ['pending', 'processing', 'label_created', 'shipped', 'failed', 'cancelled'],
}

export function isOrderStatus(value: unknown): value is OrderStatus {
  return (ORDER_STATUSES as readonly unknown[]).includes(value)
}

/** Display text: upper case with the first underscore as a space ('label_created' → 'LABEL CREATED'). */
export function statusLabel(status: string): string {
  return status.toUpperCase().replace('_', ' ')
}

/**
 * The colour family of a status badge (docs/product.md#order-statuses: completed, processing, shipped and other; a failure gets
 * its own so staff see it first). Webhook event statuses use the same badges.
 */
export type BadgeTone = 'completed' | 'processing' | 'shipped' | 'failed' | 'other'

const TONES: Readonly<Record<string, BadgeTone>> = {
  label_created: 'completed',
  processed: 'completed',
  pending: 'processing',
  processing: 'processing',
  received: 'processing',
  shipped: 'shipped',
  failed: 'failed',
  // Over: no action waits on them.
  cancelled: 'other',
  refunded: 'other',
}

export function badgeTone(status: string): BadgeTone {
  return TONES[status] ?? 'other'
}

export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return MOVES[from].includes(to)
}

/** The statuses an order may be in for a move to `to` to be allowed. */
export function statusesThatCanMoveTo(to: OrderStatus): OrderStatus[] {
  return ORDER_STATUSES.filter((from) => canMove(from, to))
}

/**
 * A cancelled order never ships (only an order that never shipped can be cancelled): its label is voided at
 * the carrier, so the label is not to be printed and its tracking number tracks nothing.
 */
export function labelVoided(status: string): boolean {
  return status === 'cancelled'
}

/**
 * The tracking number a customer is shown (order pages, order list, data export): none for a cancelled order,
 * whose number belongs to a voided label and would track nothing.
 */
export function trackingNumberShown(order: {
  status: string
  shippoTrackingNumber: string | null
}): string | null {
  return labelVoided(order.status) ? null : order.shippoTrackingNumber
}

/**
 * Order numbers are sequential and shown padded to this many digits. The one transaction that makes an
 * order writes its number in SQL too (api/modules/orders/number.ts), from this same width.
 */
export const ORDER_NUMBER_DIGITS = 6

/** An order's number as customers see it: 42 → '000042'. */
export function formatOrderNumber(orderNumber: number): string {
  if (!Number.isSafeInteger(orderNumber) || orderNumber < 0) {
    throw new RangeError(`order number must be a non-negative integer (got ${orderNumber})`)
  }
  return String(orderNumber).padStart(ORDER_NUMBER_DIGITS, '0')
}
