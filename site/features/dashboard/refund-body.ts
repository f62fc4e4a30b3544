/**
 * What the refund form asks the server for (docs/product.md#dashboard), worked out from its fields: the body
 * of POST /api/orders/{id}/refunds, or the message saying what to fix. Pure, so the rules are tested
 * without a page; the server stays the judge (409 when less is left by the time it is asked).
 */
import { dollarsToCents, formatCents } from '@core/rules/money'
import { unitsRefundCents } from '@core/rules/refunds'
import type { OrderDetail, RefundBody } from './api'

export type RefundMode = 'lines' | 'amount'

/** What is left to refund of the order, in cents: the figure the form's heading shows. */
export const leftCents = (order: Pick<OrderDetail, 'refundable'>) => Math.round(order.refundable * 100)

/** A message on the form, `amount` when it is about the amount field (marked invalid, focused). */
export interface RefundProblem {
  message: string
  onAmount: boolean
}

/**
 * What the form asks for, or what is missing: by amount, a sum in dollars of at most `left` cents; by
 * items, at least one unit.
 */
export function refundBodyOf(
  mode: RefundMode,
  fields: { units: Record<number, number>; amount: string; restock: boolean; reason: string },
  left: number,
): RefundBody | RefundProblem {
  const why = fields.reason.trim() ? { reason: fields.reason.trim() } : {}
  if (mode === 'amount') {
    const amount = fields.amount.trim()
    const cents = /^\d+(\.\d{1,2})?$/.test(amount) ? dollarsToCents(amount) : null
    if (cents === null) return { message: 'Enter an amount such as 12.50.', onAmount: true }
    if (cents > left) {
      return {
        message: `Only ${formatCents(left)} is left to refund: ${formatCents(cents)} is more.`,
        onAmount: true,
      }
    }
    return { amount, restock: false, ...why } satisfies RefundBody
  }
  const lines = Object.entries(fields.units)
    .filter(([, quantity]) => quantity > 0)
    .map(([lineId, quantity]) => ({ lineId: Number(lineId), quantity }))
  if (lines.length === 0) return { message: 'Choose at least one item to refund.', onAmount: false }
  return { lines, restock: fields.restock, ...why } satisfies RefundBody
}

export const isProblem = (body: RefundBody | RefundProblem): body is RefundProblem => 'message' in body

/**
 * What the server will refund for the units of `body`, to the cent: each line's paid amount split as the
 * server splits it (core/rules/refunds.ts), after the units already refunded.
 */
export function linesCents(order: OrderDetail, body: RefundBody): number {
  return (body.lines ?? []).reduce((sum, { lineId, quantity }) => {
    const line = order.lines.find((each) => each.id === lineId)
    if (!line || !Number.isInteger(quantity) || quantity < 1) return sum
    if (line.refundedQuantity + quantity > line.quantity) return sum
    const paid = Math.round(line.paid * 100)
    const refunded = Math.round(line.refunded * 100)
    return sum + unitsRefundCents(paid, line.quantity, line.refundedQuantity, quantity, refunded)
  }, 0)
}
