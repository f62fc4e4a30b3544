import { formatCurrency } from '@core/rules/money'
import { statusLabel } from '@core/rules/order-status'
import { postalAddressLines } from '@core/rules/postal-address'
import type { OrderDetail } from './api'
import { formatOunces } from './dashboard-logic'
import { ScrollRegion } from './ScrollRegion'
import { ShopTime } from './ShopTime'

type Address = OrderDetail['shippingAddress']

/** An order's shipping or billing address, a line each. */
export function AddressLines({ address }: { address: Address }) {
  return (
    <address className="not-italic">
      {postalAddressLines(address).map((line) => (
        <div key={line}>{line}</div>
      ))}
    </address>
  )
}

/** What the order holds: a row per line, then the subtotal, discount, shipping and total. */
export function OrderLinesTable({ order, number }: { order: OrderDetail; number: string }) {
  return (
    <>
      {/* On a phone the table scrolls on its own, and the dialog around it stays the screen's width. */}
      <ScrollRegion label={`Items in order ${number}`}>
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
              <tr key={line.id}>
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
      </ScrollRegion>
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
    </>
  )
}

/** Every status move of the order: from and to, when, by whom, and why. */
export function OrderHistoryList({ order, number }: { order: OrderDetail; number: string }) {
  return (
    <div>
      <h3 className="text-sm font-bold uppercase text-muted">History</h3>
      <ol className="mt-2 grid gap-2 text-sm" aria-label={`History of order ${number}`}>
        {order.history.map((entry, index) => (
          // Notes (a refund, a void) share a moment and a status: their place in the history tells them apart.
          // biome-ignore lint/suspicious/noArrayIndexKey: the history only grows at its end
          <li key={`${index}:${entry.at}`} className="border-l-2 border-line pl-3">
            <div>
              <strong>
                {entry.from && entry.from !== entry.to ? `${statusLabel(entry.from)} → ` : ''}
                {statusLabel(entry.to)}
              </strong>
              <span className="text-muted">
                {' '}
                · <ShopTime at={entry.at} /> · by {entry.actorName}
              </span>
            </div>
            <div className="text-muted">{entry.reason}</div>
          </li>
        ))}
      </ol>
    </div>
  )
}
