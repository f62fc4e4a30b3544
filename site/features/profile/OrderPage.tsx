import { lineLabel } from '@core/rules/catalog'
import { formatCurrency } from '@core/rules/money'
import { statusLabel } from '@core/rules/order-status'
import { postalAddressLines } from '@core/rules/postal-address'
import { useEffect, useState } from 'react'
import { ApiError } from '../../lib/api'
import { fetchOrder, type UserOrderDetail } from './api'
import OrderRefunds from './OrderRefunds'
import { orderDate, orderNumberFrom } from './profile-form'
import { useSignedInUser } from './use-signed-in-user'

type State =
  | { kind: 'loading' }
  | { kind: 'loaded'; order: UserOrderDetail }
  | { kind: 'missing' }
  | { kind: 'failed' }

const BACK = (
  <a href="/account#orders" className="btn-outline !px-3 !py-2 text-sm">
    <span aria-hidden="true">←</span> Back to Order History
  </a>
)

/** /account/orders?number=000042: one of the signed-in customer's orders, from 'View Details'. */
export default function OrderPage() {
  const [user] = useSignedInUser()
  const [state, setState] = useState<State>({ kind: 'loading' })

  useEffect(() => {
    if (!user) return
    const number = orderNumberFrom(window.location.search)
    if (!number) return setState({ kind: 'missing' })
    const controller = new AbortController()
    fetchOrder(number, controller.signal).then(
      (order) => setState({ kind: 'loaded', order }),
      (error: unknown) => {
        if (controller.signal.aborted) return
        setState(error instanceof ApiError && error.status === 404 ? { kind: 'missing' } : { kind: 'failed' })
      },
    )
    return () => controller.abort()
  }, [user])

  if (state.kind === 'loading') {
    return (
      <>
        <h1 className="font-display text-3xl font-bold uppercase sm:text-4xl">Order Details</h1>
        <p role="status" className="mt-4 text-muted">
          Loading order...
        </p>
      </>
    )
  }

  if (state.kind !== 'loaded') {
    return (
      <>
        {BACK}
        <h1 className="mt-6 font-display text-3xl font-bold uppercase sm:text-4xl">
          {state.kind === 'missing' ? 'Order not found' : 'Could not load the order'}
        </h1>
        <p className="mt-3 text-muted">
          {state.kind === 'missing'
            ? 'There is no order with that number in your account.'
            : 'Please try again in a moment.'}
        </p>
      </>
    )
  }

  const { order } = state
  const address = order.shippingAddress
  return (
    <>
      {BACK}
      <h1 className="mt-6 font-display text-3xl font-bold uppercase sm:text-4xl">Order #{order.number}</h1>
      <p className="mt-1 text-muted">Placed {orderDate(order.createdAt)}</p>
      <div className="mt-8 grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] lg:items-start">
        <section
          aria-labelledby="items-heading"
          className="rounded-lg border border-line bg-surface p-4 sm:p-6"
        >
          <h2 id="items-heading" className="text-xl font-bold uppercase">
            Items
          </h2>
          {/* The number columns keep room on their left: on a phone 'Price' and 'Qty' never run together. */}
          <table className="mt-4 w-full text-sm">
            <thead>
              <tr className="border-b border-line text-left text-muted">
                <th scope="col" className="py-2 font-semibold">
                  Product
                </th>
                <th scope="col" className="py-2 pl-3 text-right font-semibold">
                  Price
                </th>
                <th scope="col" className="py-2 pl-3 text-right font-semibold">
                  Qty
                </th>
                <th scope="col" className="py-2 pl-3 text-right font-semibold">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {order.items.map((item) => (
                <tr key={`${item.productName}:${item.variant ?? ''}`} className="border-b border-line">
                  <td className="py-2">{lineLabel({ name: item.productName, variant: item.variant })}</td>
                  <td className="py-2 pl-3 text-right">{formatCurrency(item.unitAmount)}</td>
                  <td className="py-2 pl-3 text-right">{item.quantity}</td>
                  <td className="py-2 pl-3 text-right">{formatCurrency(item.lineTotal)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <dl className="mt-4 grid gap-2 text-sm">
            <div className="flex justify-between">
              <dt>Subtotal</dt>
              <dd>{formatCurrency(order.subtotal)}</dd>
            </div>
            {order.discount > 0 && (
              <div className="flex justify-between text-success">
                <dt>Discount{order.discountCode ? ` (${order.discountCode})` : ''}</dt>
                <dd>−{formatCurrency(order.discount)}</dd>
              </div>
            )}
            <div className="flex justify-between">
              <dt>Shipping ({order.shippingService})</dt>
              <dd>{order.shipping === 0 ? 'Free' : formatCurrency(order.shipping)}</dd>
            </div>
            <div className="flex justify-between border-t border-line pt-2 text-base font-bold">
              <dt>Total</dt>
              <dd>{formatCurrency(order.totalAmount)}</dd>
            </div>
          </dl>
        </section>
        <div className="grid gap-6">
          <section
            aria-labelledby="status-heading"
            className="rounded-lg border border-line bg-surface p-4 sm:p-6"
          >
            <h2 id="status-heading" className="text-xl font-bold uppercase">
              Status
            </h2>
            <p className="mt-2 font-bold tracking-wide">{statusLabel(order.status)}</p>
            {order.cancelledAt && (
              <p className="mt-2 text-sm">Cancelled on {orderDate(order.cancelledAt)}.</p>
            )}
            <p className="mt-2 text-sm">
              {order.cancelledAt ? (
                'Nothing will be sent.'
              ) : order.trackingNumber ? (
                <>
                  Tracking number ({order.carrier}): <span className="font-mono">{order.trackingNumber}</span>
                </>
              ) : order.status === 'refunded' ? (
                // Refunded in full before it shipped: its label, if it had one, was voided.
                'Refunded in full before it shipped: nothing will be sent.'
              ) : (
                'A tracking number appears here once the label is printed.'
              )}
            </p>
          </section>
          <OrderRefunds order={order} />
          <section
            aria-labelledby="ship-to-heading"
            className="rounded-lg border border-line bg-surface p-4 sm:p-6"
          >
            <h2 id="ship-to-heading" className="text-xl font-bold uppercase">
              Ship To
            </h2>
            <address className="mt-2 not-italic">
              {postalAddressLines(address).map((line) => (
                <span key={line} className="block">
                  {line}
                </span>
              ))}
            </address>
          </section>
        </div>
      </div>
    </>
  )
}
