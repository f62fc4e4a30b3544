import { formatCurrency } from '@core/rules/money'
import type { UserOrderDetail } from './api'
import { orderDate } from './profile-form'

/** The order page's refunds: each with its amount, date, items, and whether it is back on the card yet. */
export default function OrderRefunds({ order }: { order: UserOrderDetail }) {
  if (order.refunds.length === 0) return null
  return (
    <section
      aria-labelledby="refunds-heading"
      className="rounded-lg border border-line bg-surface p-4 sm:p-6"
    >
      <h2 id="refunds-heading" className="text-xl font-bold uppercase">
        Refunds
      </h2>
      <ul className="mt-2 grid gap-3 text-sm">
        {order.refunds.map((refund) => (
          <li
            key={`${refund.createdAt}:${refund.amount}`}
            className="border-b border-line pb-2 last:border-0"
          >
            <p className="flex justify-between font-bold">
              <span>{refund.cancellation ? 'Cancellation refund' : 'Refund'}</span>
              <span>{formatCurrency(refund.amount)}</span>
            </p>
            <p className="text-muted">
              {orderDate(refund.createdAt)} ·{' '}
              {refund.status === 'refunded' ? 'Back on your card' : 'On its way to your card'}
            </p>
            {refund.items.length > 0 && (
              <p>{refund.items.map((item) => `${item.quantity} × ${item.productName}`).join(', ')}</p>
            )}
          </li>
        ))}
      </ul>
      <p className="mt-3 flex justify-between border-t border-line pt-2 font-bold">
        <span>Refunded in total</span>
        <span>{formatCurrency(order.refunded)}</span>
      </p>
    </section>
  )
}
