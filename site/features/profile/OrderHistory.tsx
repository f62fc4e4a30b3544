import { formatCurrency } from '@core/rules/money'
import { statusLabel } from '@core/rules/order-status'
import { useEffect, useState } from 'react'
import { fetchOrders, type UserOrder } from './api'
import { orderDate } from './profile-form'

type State = { kind: 'loading' } | { kind: 'loaded'; orders: UserOrder[]; failed: boolean }

/** The Orders tab: 'Order History', 'Loading orders...' while fetching, 'No Orders Yet' when empty. */
export function OrderHistory() {
  const [state, setState] = useState<State>({ kind: 'loading' })

  useEffect(() => {
    const controller = new AbortController()
    fetchOrders(controller.signal).then(
      (orders) => setState({ kind: 'loaded', orders, failed: false }),
      (error: unknown) => {
        if (controller.signal.aborted) return
        // docs/product.md#account-page: a failure shows an empty list; the note says why it is empty.
        console.warn('Could not load orders', error)
        setState({ kind: 'loaded', orders: [], failed: true })
      },
    )
    return () => controller.abort()
  }, [])

  return (
    <section aria-labelledby="orders-heading" className="rounded-lg border border-line bg-surface p-4 sm:p-6">
      <h2 id="orders-heading" className="text-2xl font-bold uppercase">
        Order History
      </h2>
      {state.kind === 'loading' ? (
        <p role="status" className="mt-4 text-muted">
          Loading orders...
        </p>
      ) : state.orders.length === 0 ? (
        <div className="mt-6 grid justify-items-start gap-3">
          <h3 className="text-lg font-bold uppercase">No Orders Yet</h3>
          <p className="text-muted">
            {state.failed
              ? 'We could not load your orders just now. Please try again later.'
              : 'Orders you place while signed in will show up here.'}
          </p>
          <a href="/shop" className="btn-primary">
            Start Shopping
          </a>
        </div>
      ) : (
        <ul className="mt-6 grid gap-4">
          {state.orders.map((order) => (
            <li key={order._id} className="rounded-md border border-line p-4">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h3 className="text-lg font-bold">Order #{order.number}</h3>
                <span className="rounded-full border border-line px-2 py-0.5 text-xs font-bold tracking-wide">
                  {statusLabel(order.status)}
                </span>
              </div>
              <p className="text-sm text-muted">
                Placed {orderDate(order.createdAt)} · {formatCurrency(order.totalAmount)}
                {order.cancelledAt && ` · Cancelled ${orderDate(order.cancelledAt)}`}
                {order.refunded > 0 && ` · Refunded ${formatCurrency(order.refunded)}`}
              </p>
              <ul className="mt-2 text-sm">
                {order.items.map((item) => (
                  <li key={`${item.productName}:${item.quantity}`}>
                    {item.productName} × {item.quantity}
                  </li>
                ))}
              </ul>
              {order.trackingNumber && (
                <p className="mt-2 text-sm">
                  Tracking: <span className="font-mono">{order.trackingNumber}</span>
                </p>
              )}
              <a
                href={`/account/orders?number=${order.number}`}
                className="btn-outline mt-3 !px-3 !py-1.5 text-sm"
                aria-label={`View details of order ${order.number}`}
              >
                View Details
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
