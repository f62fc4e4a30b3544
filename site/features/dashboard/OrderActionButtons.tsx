import type { DashboardOrder } from './api'
import type { OrderActions } from './order-actions'

/** Retry on a failed order; the label and Mark Shipped once it has a label. */
export function OrderActionButtons(props: { order: DashboardOrder; actions: OrderActions; busy: boolean }) {
  const { order, actions, busy } = props
  return (
    <div className="flex flex-wrap gap-2">
      {order.status === 'failed' && (
        <button
          type="button"
          className="btn-primary !px-3 !py-1.5 text-xs"
          disabled={busy}
          onClick={() => void actions.retry(order)}
          aria-label={`Retry order ${order.number}`}
        >
          {busy ? 'Retrying...' : 'Retry'}
        </button>
      )}
      {order.labelUrl && (
        <a
          href={order.labelUrl}
          target="_blank"
          rel="noopener"
          className="btn-outline !px-3 !py-1.5 text-xs"
          aria-label={`Label of order ${order.number} (PDF, opens in a new tab)`}
        >
          Label
        </a>
      )}
      {order.status === 'label_created' && (
        <button
          type="button"
          className="btn-primary !px-3 !py-1.5 text-xs"
          disabled={busy}
          onClick={() => void actions.ship(order)}
          aria-label={`Mark Shipped: order ${order.number}`}
        >
          {busy ? 'Saving...' : 'Mark Shipped'}
        </button>
      )}
    </div>
  )
}
