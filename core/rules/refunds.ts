/**
 * Refund rules shared by the API and the dashboard (docs/product.md#refunds): what a line's units are
 * worth when refunded, what a refund request may ask, and how a refund's status moves.
 */
import { dollarsToCents } from './money'

/**
 * Where a refund stands. `requested`: the shop recorded it and has not yet heard the provider make it (its
 * call runs as a job); `pending` and `succeeded` as the provider says; `failed` and `canceled` returned
 * nothing, and their amount may be refunded again.
 */
export const REFUND_STATUSES = ['requested', 'pending', 'succeeded', 'failed', 'canceled'] as const
export type RefundStatus = (typeof REFUND_STATUSES)[number]

/** What made a refund: staff's Refund, staff's Cancel, or someone in the payment provider's dashboard. */
export const REFUND_ORIGINS = ['refund', 'cancel', 'provider'] as const
export type RefundOrigin = (typeof REFUND_ORIGINS)[number]

/** The statuses whose amount is no longer the shop's to refund: asked for, under way or done. */
export const COUNTED_REFUND_STATUSES = ['requested', 'pending', 'succeeded'] as const satisfies RefundStatus[]

export function countsAsRefunded(status: string): boolean {
  return (COUNTED_REFUND_STATUSES as readonly string[]).includes(status)
}

/** A line's refunds so far: the units counted as refunded (asked, pending or made) and the cents they return. */
export interface LineRefunded {
  units: number
  cents: number
}

/**
 * Each order line's `LineRefunded`, by line id, from the order's refunds: what the next units of a line are
 * valued by (lineRefundCents) and what staff are shown of it. A line no refund counts is absent.
 */
export function refundedByLine(
  refunds: readonly {
    status: string
    lines: readonly { lineId: number; quantity: number; amountCents: number }[]
  }[],
): Map<number, LineRefunded> {
  const byLine = new Map<number, LineRefunded>()
  for (const refund of refunds) {
    if (!countsAsRefunded(refund.status)) continue
    for (const line of refund.lines) {
      const before = byLine.get(line.lineId) ?? { units: 0, cents: 0 }
      byLine.set(line.lineId, { units: before.units + line.quantity, cents: before.cents + line.amountCents })
    }
  }
  return byLine
}

export function isRefundStatus(value: unknown): value is RefundStatus {
  return (REFUND_STATUSES as readonly unknown[]).includes(value)
}

/**
 * How far along a status is: news moves a refund forward only. A provider's events arrive twice and out of
 * order (`refund.failed` before `refund.created`), so late news of an earlier stage changes nothing, and
 * failed and canceled are final.
 */
const RANK: Readonly<Record<RefundStatus, number>> = {
  requested: 0,
  pending: 1,
  succeeded: 2,
  failed: 3,
  canceled: 3,
}

export function refundStatusRank(status: RefundStatus): number {
  return RANK[status]
}

/** The status after news of `news`, or null when the news changes nothing. */
export function refundStatusAfter(current: RefundStatus, news: RefundStatus): RefundStatus | null {
  return RANK[news] > RANK[current] ? news : null
}

/** Staff's reason is kept with the refund at the provider too, whose metadata stops at 500 characters. */
export const REFUND_REASON_MAX = 500
/** More lines than any order has: a bigger list is not a refund. */
export const REFUND_LINES_MAX = 100

export interface RefundLineAsked {
  lineId: number
  quantity: number
}

/** A refund request read from staff's body: exactly one of `lines` and `amountCents` is set. */
export interface RefundAsked {
  lines: RefundLineAsked[] | null
  amountCents: number | null
  restock: boolean
  reason: string | null
}

export type ParsedRefund = { ok: true; request: RefundAsked } | { ok: false; message: string }

const refused = (message: string): ParsedRefund => ({ ok: false, message })

const isId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0

function parseLines(raw: unknown): RefundLineAsked[] | string {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > REFUND_LINES_MAX) {
    return `lines must list at least one line of the order (at most ${REFUND_LINES_MAX}), each { lineId, quantity }.`
  }
  const lines: RefundLineAsked[] = []
  for (const entry of raw) {
    const { lineId, quantity } = (entry ?? {}) as { lineId?: unknown; quantity?: unknown }
    if (!isId(lineId)) return 'Each line needs the lineId of a line of the order.'
    if (!isId(quantity)) return `The quantity of line ${lineId} must be a whole number of at least 1.`
    if (lines.some((line) => line.lineId === lineId)) return `Line ${lineId} is listed more than once.`
    lines.push({ lineId, quantity })
  }
  return lines
}

function parseAmount(raw: unknown): number | string {
  const cents = typeof raw === 'string' || typeof raw === 'number' ? dollarsToCents(raw) : null
  if (cents === null) return 'amount must be a dollar amount such as "12.50".'
  if (cents <= 0) return 'amount must be more than $0.00.'
  return cents
}

/**
 * Reads `{ lines?: [{ lineId, quantity }], amount?: "12.50", restock: boolean, reason?: string }`: lines
 * or an amount, never both or neither. Whether the lines are the order's, and the amount is left to
 * refund, is for the server to say.
 */
export function parseRefundRequest(body: unknown): ParsedRefund {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return refused('The refund must be a JSON object: { lines or amount, restock, reason }.')
  }
  const { lines, amount, restock, reason } = body as Record<string, unknown>
  if ((lines === undefined) === (amount === undefined)) {
    return refused('Refund either lines (with quantities) or an amount, not both and not neither.')
  }
  if (typeof restock !== 'boolean') return refused('restock must be true or false.')
  // An amount names no units, so none could go back on the shelf: said, rather than recorded as restocking.
  if (amount !== undefined && restock) {
    return refused('A refund by amount puts no units back on the shelf: refund by items to restock them.')
  }
  if (reason !== undefined && reason !== null && typeof reason !== 'string') {
    return refused('reason must be text.')
  }
  const why = typeof reason === 'string' ? reason.trim() : ''
  if (why.length > REFUND_REASON_MAX)
    return refused(`reason must be at most ${REFUND_REASON_MAX} characters.`)
  const request: RefundAsked = { lines: null, amountCents: null, restock, reason: why || null }
  if (lines !== undefined) {
    const parsed = parseLines(lines)
    if (typeof parsed === 'string') return refused(parsed)
    request.lines = parsed
  } else {
    const parsed = parseAmount(amount)
    if (typeof parsed === 'string') return refused(parsed)
    request.amountCents = parsed
  }
  return { ok: true, request }
}

/** What an order line cost the customer: its price × quantity less its share of the order's discount. */
export interface PaidLine {
  unitCents: number
  quantity: number
  discountCents: number
}

export function linePaidCents(line: PaidLine): number {
  return line.unitCents * line.quantity - line.discountCents
}

/** What the first `units` of `quantity` units paid `paidCents` in all, rounded half up: any split adds up exactly. */
function paidByFirst(paidCents: number, quantity: number, units: number): number {
  return Math.floor((2 * paidCents * units + quantity) / (2 * quantity))
}

/**
 * What refunding `units` more units of a line returns, when `already` were refunded before: the line's
 * discount spread over its units, so refunds of a line, however split, add up to exactly what it paid.
 * `refundedCents`: what the line's refunds still counted returned; by default the first `already` units'
 * share, which it is unless one refund of the line failed while a later one stood (their shares differ by
 * a cent). The units are valued as the first `already + units` less that, so the last unit always closes the
 * line at exactly what it paid. Shipping is never part of a line: it is refunded by amount or by a cancel.
 */
export function lineRefundCents(
  line: PaidLine,
  already: number,
  units: number,
  refundedCents?: number,
): number {
  return unitsRefundCents(linePaidCents(line), line.quantity, already, units, refundedCents)
}

/**
 * `lineRefundCents` for a line known by what it paid in all (`paidCents` for `quantity` units): the staff
 * page's refund form shows the amount the server will refund before it is asked.
 */
export function unitsRefundCents(
  paidCents: number,
  quantity: number,
  already: number,
  units: number,
  refundedCents: number = paidByFirst(paidCents, quantity, already),
): number {
  if (!Number.isSafeInteger(units) || units < 1 || already < 0 || already + units > quantity) {
    throw new RangeError(`cannot refund ${units} more of ${quantity} units (${already} refunded)`)
  }
  return Math.max(0, paidByFirst(paidCents, quantity, already + units) - refundedCents)
}
