import { formatCurrency } from '@core/rules/money'
import { statusLabel } from '@core/rules/order-status'
import { useEffect, useRef, useState } from 'react'
import { fetchOrder, type OrderDetail } from './api'
import { formatDateTime, formatDimensions, formatOunces, packageName } from './dashboard-logic'
import { OrderActionButtons } from './OrderActionButtons'
import type { OrderActions } from './order-actions'
import { StatusBadge } from './StatusBadge'

type Address = OrderDetail['shippingAddress']

function AddressLines({ address }: { address: Address }) {
  return (
    <address className="not-italic">
      {[
        address.name,
        address.street1,
        address.street2,
        `${address.city}, ${address.state} ${address.zip}`,
        address.country,
      ]
        .filter(Boolean)
        .map((line) => (
          <div key={line}>{line}</div>
        ))}
    </address>
  )
}

/**
 * One order in a modal dialog: lines, addresses, totals, label and actions, and its history (who moved it,
 * when and why). The browser's modal dialog keeps focus inside and closes on Escape. `version` changes
 * when an action elsewhere may have moved the order, so the view loads again.
 */
export function OrderDetailDialog(props: {
  orderId: number
  version: number
  actions: OrderActions
  onClose: () => void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const [order, setOrder] = useState<OrderDetail | null>(null)
  const [error, setError] = useState<string | null>(null)
  const { onClose } = props

  useEffect(() => {
    const element = dialog.current
    if (element && !element.open) element.showModal()
    const closed = () => onClose()
    element?.addEventListener('close', closed)
    return () => element?.removeEventListener('close', closed)
  }, [onClose])

  useEffect(() => {
    const controller = new AbortController()
    // A new version means an action elsewhere may have moved the order: load it again.
    void props.version
    fetchOrder(props.orderId, controller.signal).then(
      (answer) => {
        setOrder(answer)
        setError(null)
      },
      (caught: unknown) => {
        if (controller.signal.aborted) return
        setError(caught instanceof Error ? caught.message : 'The order could not be loaded.')
      },
    )
    return () => controller.abort()
  }, [props.orderId, props.version])

  const number = String(props.orderId).padStart(6, '0')
  return (
    <dialog ref={dialog} className="dashboard-dialog" aria-labelledby="order-detail-heading">
      <div className="flex items-center justify-between gap-3 border-b border-line p-4">
        <h2 id="order-detail-heading" className="text-xl font-bold uppercase">
          Order #{number}
        </h2>
        <button
          type="button"
          className="btn-outline !px-3 !py-1.5 text-xs"
          onClick={() => dialog.current?.close()}
        >
          Close
        </button>
      </div>
      <div className="grid gap-5 overflow-y-auto p-4">
        {error && (
          <p role="alert" className="font-semibold text-danger">
            {error}
          </p>
        )}
        {!order && !error && (
          <p role="status" className="text-muted">
            Loading order...
          </p>
        )}
        {order && (
          <>
            <div className="flex flex-wrap items-center gap-3">
              <StatusBadge status={order.status} />
              <span className="text-sm text-muted">Placed {formatDateTime(order.createdAt)}</span>
              <OrderActionButtons
                order={order}
                actions={props.actions}
                busy={props.actions.busy.has(order.id)}
              />
            </div>
            {order.failureReason && (
              <p className="text-sm text-danger">
                <strong>Why the label failed:</strong> {order.failureReason}
              </p>
            )}
            {order.discountWarning && (
              <p className="text-sm text-danger">
                <strong>Discount paid against its rules:</strong> {order.discountWarning} The money was taken
                at this price: ask the customer for the difference, refund, or let it stand.
              </p>
            )}
            <div className="grid gap-4 sm:grid-cols-3">
              <div>
                <h3 className="text-sm font-bold uppercase text-muted">Customer</h3>
                <div className="font-semibold">{order.customerName}</div>
                <div className="text-sm break-all">{order.customerEmail}</div>
              </div>
              <div>
                <h3 className="text-sm font-bold uppercase text-muted">Ship to</h3>
                <AddressLines address={order.shippingAddress} />
              </div>
              <div>
                <h3 className="text-sm font-bold uppercase text-muted">Bill to</h3>
                <AddressLines address={order.billingAddress} />
              </div>
            </div>
            <div>
              <h3 className="text-sm font-bold uppercase text-muted">Shipping</h3>
              <p className="text-sm">
                {order.shippingService} · {packageName(order.packageType)} (
                {formatDimensions(order.packageDimensions)}) · {formatOunces(order.totalWeight)}
                {order.shippoTrackingNumber && (
                  <>
                    {' '}
                    · Tracking <span className="font-mono">{order.shippoTrackingNumber}</span>
                  </>
                )}
              </p>
            </div>
            <table className="dashboard-table w-full border-collapse text-sm">
              <caption className="sr-only">Items in order {number}</caption>
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col">Qty</th>
                  <th scope="col">Weight</th>
                  <th scope="col">Price</th>
                  <th scope="col">Line total</th>
                </tr>
              </thead>
              <tbody>
                {order.lines.map((line) => (
                  <tr key={`${line.productId}:${line.variant ?? ''}`}>
                    <td>
                      {line.name}
                      {line.variant && line.variant !== line.name && (
                        <span className="text-muted"> ({line.variant})</span>
                      )}
                    </td>
                    <td>{line.quantity}</td>
                    <td>{formatOunces(line.weight)}</td>
                    <td>{formatCurrency(line.unitAmount)}</td>
                    <td>{formatCurrency(line.lineTotal)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <dl className="grid max-w-xs grid-cols-2 gap-1 text-sm">
              <dt>Subtotal</dt>
              <dd className="text-right">{formatCurrency(order.subtotal)}</dd>
              {order.discount > 0 && (
                <>
                  <dt>Discount{order.discountCode ? ` (${order.discountCode})` : ''}</dt>
                  <dd className="text-right">−{formatCurrency(order.discount)}</dd>
                </>
              )}
              <dt>Shipping</dt>
              <dd className="text-right">{order.shipping === 0 ? 'Free' : formatCurrency(order.shipping)}</dd>
              <dt className="font-bold">Total</dt>
              <dd className="text-right font-bold">{formatCurrency(order.totalAmount)}</dd>
            </dl>
            <div>
              <h3 className="text-sm font-bold uppercase text-muted">History</h3>
              <ol className="mt-2 grid gap-2 text-sm" aria-label={`History of order ${number}`}>
                {order.history.map((entry) => (
                  <li
                    key={`${entry.at}:${entry.to}:${entry.from ?? ''}`}
                    className="border-l-2 border-line pl-3"
                  >
                    <div>
                      <strong>
                        {entry.from ? `${statusLabel(entry.from)} → ` : ''}
                        {statusLabel(entry.to)}
                      </strong>
                      <span className="text-muted">
                        {' '}
                        · {formatDateTime(entry.at)} · by {entry.actorName}
                      </span>
                    </div>
                    <div className="text-muted">{entry.reason}</div>
                  </li>
                ))}
              </ol>
            </div>
          </>
        )}
      </div>
    </dialog>
  )
}
