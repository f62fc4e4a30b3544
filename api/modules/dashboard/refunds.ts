/**
 * Staff's Cancel and Refund on an order, its refunds as the order view shows them, and the refunds the
 * provider failed or never confirmed (docs/product.md#refunds). The work itself is the fulfilment
 * service's; this reads staff's requests and says what came of them.
 */
import type {
  OrderActionResponse,
  RefundAnswer,
  RefundResponse,
  UnsettledRefund,
} from '@core/contracts/dashboard'
import { formatCents } from '@core/rules/money'
import { formatOrderNumber } from '@core/rules/order-status'
import { countsAsRefunded, parseRefundRequest, REFUND_REASON_MAX, refundedByLine } from '@core/rules/refunds'
import { invalid, notFound } from '../../lib/domain-errors'
import type { FulfilmentService } from '../fulfilment/service'
import type { Order, OrderHistoryEntry, OrdersService, Refund } from '../orders/service'
import { orderIdFrom } from './order-id'
import { requestKeyOf } from './request-key'

const dollars = (cents: number) => Math.round(cents) / 100

/** How many unsettled refunds the dashboard lists: more means something is wrong with the provider. */
export const UNSETTLED_SHOWN = 50

export type ActorNames = (actors: readonly string[]) => Promise<Map<string, string>>

export function refundAnswer(refund: Refund, names: Map<string, string>): RefundAnswer {
  return {
    id: refund.id,
    orderId: refund.orderId,
    number: formatOrderNumber(refund.orderId),
    origin: refund.origin,
    status: refund.status,
    amount: dollars(refund.amountCents),
    reason: refund.reason,
    restock: refund.restock,
    restocked: refund.restockedAt !== null,
    failureReason: refund.failureReason,
    lines: refund.lines.map((line) => ({
      lineId: line.lineId,
      name: line.name,
      variant: line.variant && line.variant !== line.name ? line.variant : null,
      quantity: line.quantity,
      amount: dollars(line.amountCents),
    })),
    actorName: names.get(refund.actor) ?? refund.actor,
    createdAt: refund.createdAt.toISOString(),
    updatedAt: refund.updatedAt.toISOString(),
  }
}

/** What a refund's outcome is, in a sentence for the staff member who asked. */
function refundMessage(refund: Refund): string {
  const amount = formatCents(refund.amountCents)
  const number = formatOrderNumber(refund.orderId)
  switch (refund.status) {
    case 'succeeded':
      return `Refunded ${amount} of order ${number} to the customer's card. The customer gets an e-mail.`
    case 'pending':
      return `The payment provider is making the refund of ${amount} of order ${number}. The customer gets an e-mail.`
    case 'requested':
      return `The refund of ${amount} of order ${number} is recorded; the payment provider has not answered yet, so it is asked again shortly.`
    default:
      return `The payment provider refused the refund of ${amount} of order ${number}: ${refund.failureReason ?? 'no reason given'}. Nothing was refunded.`
  }
}

/** An order's refunds in the order view: each refund, the units refunded per line, what is left. */
export function orderRefundFigures(
  order: Order,
  refunds: readonly Refund[],
  history: readonly OrderHistoryEntry[],
) {
  const counted = refunds.filter((refund) => countsAsRefunded(refund.status))
  const refundedCents = counted.reduce((sum, refund) => sum + refund.amountCents, 0)
  const byLine = refundedByLine(refunds)
  const everShipped = history.some((entry) => entry.toStatus === 'shipped')
  return {
    refundedQuantity: (lineId: number) => byLine.get(lineId)?.units ?? 0,
    /** What those units' refunds return, in dollars (core/rules/refunds.ts values the next units by it). */
    lineRefunded: (lineId: number) => dollars(byLine.get(lineId)?.cents ?? 0),
    refunded: dollars(refundedCents),
    refundable: dollars(Math.max(0, order.totalCents - refundedCents)),
    cancellable: order.status !== 'cancelled' && order.status !== 'shipped' && !everShipped,
  }
}

/**
 * What became of a cancel's refund, as staff should tell the customer: refunded only once the provider
 * said so; one it has not answered yet is asked again shortly (the Refunds list shows how it ends).
 */
function cancelRefundSentence(refund: Refund | undefined): string {
  if (refund === undefined) return 'Nothing was left to refund.'
  const amount = formatCents(refund.amountCents)
  switch (refund.status) {
    case 'succeeded':
      return `${amount} is refunded to the customer's card.`
    case 'pending':
      return `The payment provider is making the refund of ${amount}.`
    case 'requested':
      return `The refund of ${amount} is recorded; the payment provider has not answered yet, so it is asked again shortly.`
    default:
      return `The payment provider refused the refund of ${amount}: refund it again or contact the customer.`
  }
}

function cancelReason(body: unknown): string | null {
  if (body === undefined || body === null) return null
  if (typeof body !== 'object' || Array.isArray(body))
    throw invalid('The cancel must be a JSON object: { reason }.')
  const reason = (body as { reason?: unknown }).reason
  if (reason === undefined || reason === null) return null
  if (typeof reason !== 'string') throw invalid('reason must be text.')
  if (reason.trim().length > REFUND_REASON_MAX)
    throw invalid(`reason must be at most ${REFUND_REASON_MAX} characters.`)
  return reason.trim() || null
}

export function createDashboardRefunds(deps: {
  fulfilment: Pick<FulfilmentService, 'refund' | 'cancel'>
  orders: Pick<OrdersService, 'get' | 'refunds' | 'unsettled'>
  names: ActorNames
  /** The order as the dashboard's lists show it. */
  summary: (order: Order) => OrderActionResponse['order']
}) {
  const { fulfilment, orders, names } = deps

  return {
    /**
     * Staff's refund: 201 with what became of it; 422 for a body or key the shop does not take, or lines
     * not on the order; 409 for more than is left; 404 for no such order.
     */
    async refund(
      segment: string,
      body: unknown,
      staffId: string,
      requestKey: string | null,
    ): Promise<RefundResponse> {
      const id = orderIdFrom(segment)
      if (id === null) throw notFound('Order not found.')
      requestKeyOf(requestKey)
      const parsed = parseRefundRequest(body)
      if (!parsed.ok) throw invalid(parsed.message)
      const refund = await fulfilment.refund(id, parsed.request, { actor: staffId, requestKey })
      return { message: refundMessage(refund), refund: refundAnswer(refund, await names([refund.actor])) }
    },

    /** Staff's cancel: 200 with the order; 409 with the reason for a shipped or cancelled order. */
    async cancel(segment: string, body: unknown, staffId: string): Promise<OrderActionResponse> {
      const id = orderIdFrom(segment)
      if (id === null) throw notFound('Order not found.')
      const reason = cancelReason(body)
      const order = await fulfilment.cancel(id, staffId, reason)
      const refunds = await orders.refunds(order.id)
      const refund = refunds.find((candidate) => candidate.origin === 'cancel')
      const number = formatOrderNumber(order.id)
      return {
        message: `Order ${number} is cancelled. ${cancelRefundSentence(refund)} The customer gets an e-mail.`,
        order: deps.summary(order),
      }
    },

    /** Refunds failed, refused or never confirmed, whose order still has money to refund: staff decide. */
    async unsettled(): Promise<UnsettledRefund[]> {
      const rows = await orders.unsettled(UNSETTLED_SHOWN)
      const actors = await names(rows.map((row) => row.actor))
      const answers: UnsettledRefund[] = []
      for (const row of rows) {
        const order = await orders.get(row.orderId)
        const refund = (await orders.refunds(row.orderId)).find((candidate) => candidate.id === row.id)
        if (!order || !refund) continue
        const counted = (await orders.refunds(row.orderId)).filter((other) => countsAsRefunded(other.status))
        answers.push({
          refund: refundAnswer(refund, actors),
          customerName: order.customerName,
          customerEmail: order.email,
          refundable: dollars(order.totalCents - counted.reduce((sum, other) => sum + other.amountCents, 0)),
        })
      }
      return answers
    },
  }
}

export type DashboardRefunds = ReturnType<typeof createDashboardRefunds>
