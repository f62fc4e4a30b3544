import { lineLabel } from '@core/rules/catalog'
import { formatCurrency } from '@core/rules/money'
import type { OrderDetail, RefundAnswer } from './api'
import { ShopTime } from './ShopTime'

const STATUS_WORDS: Record<RefundAnswer['status'], string> = {
  requested: 'Asked: the payment provider has not answered yet',
  pending: 'Under way at the payment provider',
  succeeded: "Back on the customer's card",
  failed: 'Failed: nothing was refunded. Refund it again or contact the customer.',
  canceled: 'Canceled at the payment provider: nothing was refunded. Refund it again if still owed.',
}

function RefundItem({ refund }: { refund: RefundAnswer }) {
  const trouble = refund.status === 'failed' || refund.status === 'canceled'
  return (
    <li className="border-l-2 border-line pl-3">
      <div>
        <strong>
          {refund.origin === 'cancel'
            ? 'Cancellation refund'
            : refund.origin === 'provider'
              ? 'Refund in the provider'
              : 'Refund'}{' '}
          {formatCurrency(refund.amount)}
        </strong>
        <span className="text-muted">
          {' '}
          · <ShopTime at={refund.createdAt} /> · by {refund.actorName}
        </span>
      </div>
      <div className={trouble ? 'font-semibold text-danger' : 'text-muted'}>
        {STATUS_WORDS[refund.status]}
        {refund.failureReason ? ` (${refund.failureReason})` : ''}
      </div>
      {refund.lines.length > 0 && (
        <div>
          {refund.lines.map((line) => `${line.quantity} × ${lineLabel(line)}`).join(', ')}
          {refund.restock && (refund.restocked ? ' · back on the shelf' : ' · to go back on the shelf')}
        </div>
      )}
      {refund.reason && <div className="text-muted">Reason: {refund.reason}</div>}
    </li>
  )
}

/** What was refunded of an order and what is left, each refund with its state, and a cancel's label void. */
export function OrderRefunds({ order, number }: { order: OrderDetail; number: string }) {
  return (
    <div>
      <h3 className="text-sm font-bold uppercase text-muted">Refunds</h3>
      <p className="mt-1 text-sm">
        Refunded {formatCurrency(order.refunded)} · Left to refund {formatCurrency(order.refundable)}
        {order.cancelledAt && (
          <>
            {' '}
            · Cancelled <ShopTime at={order.cancelledAt} />
          </>
        )}
        {order.labelVoidStatus && <> · Label void: {order.labelVoidStatus}</>}
      </p>
      {order.refunds.length > 0 && (
        <ol className="mt-2 grid gap-2 text-sm" aria-label={`Refunds of order ${number}`}>
          {order.refunds.map((refund) => (
            <RefundItem key={refund.id} refund={refund} />
          ))}
        </ol>
      )}
    </div>
  )
}
