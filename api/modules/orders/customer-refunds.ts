/** An order's refunds as its customer sees them: on their order page, in their list and in their data export. */
import type { CustomerRefund } from '@core/contracts/account'
import { lineLabel } from '@core/rules/catalog'
import { countsAsRefunded } from '@core/rules/refunds'
import type { Refund } from './model'

const dollars = (cents: number) => Math.round(cents) / 100

/** The refunds that return money (asked, pending or made), oldest first; failed ones returned nothing. */
export function customerRefunds(refunds: readonly Refund[]): CustomerRefund[] {
  return refunds
    .filter((refund) => countsAsRefunded(refund.status))
    .map((refund) => ({
      amount: dollars(refund.amountCents),
      status: refund.status === 'succeeded' ? 'refunded' : 'pending',
      createdAt: refund.createdAt.toISOString(),
      items: refund.lines.map((line) => ({ productName: lineLabel(line), quantity: line.quantity })),
      cancellation: refund.origin === 'cancel',
    }))
}

/** Dollars refunded of an order so far (pending or made). */
export function customerRefunded(refunds: readonly Refund[]): number {
  return dollars(
    refunds
      .filter((refund) => countsAsRefunded(refund.status))
      .reduce((sum, refund) => sum + refund.amountCents, 0),
  )
}
