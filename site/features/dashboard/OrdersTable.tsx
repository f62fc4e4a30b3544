import { formatCurrency } from '@core/rules/money'
import { useEffect, useRef } from 'react'
import { type DashboardOrder, LIST_SIZE, type OrdersView } from './api'
import { formatDimensions, formatOunces, isFiltered, packageName } from './dashboard-logic'
import { focusIsLost, focusPlace, type ListPlace, placeOf } from './list-place'
import { OrderActionButtons } from './OrderActionButtons'
import { OrderFilters } from './OrderFilters'
import type { OrderActions } from './order-actions'
import { ScrollRegion } from './ScrollRegion'
import { Section } from './Section'
import { ShopTime } from './ShopTime'
import { StatusBadge } from './StatusBadge'
import type { Polled } from './use-polling'

/** The most rows the table asks for (the API's page limit). */
const MAX_ROWS = 100

/**
 * docs/product.md#dashboard: the newest 10 orders, refreshed every 15 s, with what staff can do to each. The search and
 * filters find any order however old it is (OrderFilters), and 'Show 10 more' reaches further back.
 */
export function OrdersTable(props: {
  state: Polled<DashboardOrder[]>
  actions: OrderActions
  view: OrdersView
  onViewChange: (view: OrdersView) => void
}) {
  const { state, actions, view, onViewChange } = props
  const orders = state.data ?? []
  return (
    <Section
      id="orders"
      title="Recent Orders"
      loading={state.loading}
      error={state.error}
      hasData={state.data !== null}
      loadingText="Loading orders..."
      toolbar={<OrderFilters view={view} onViewChange={onViewChange} />}
    >
      {orders.length === 0 ? (
        <p className="text-muted" role="status">
          {isFiltered(view)
            ? 'No orders match. Try fewer letters, another status or a wider range of days.'
            : 'No orders yet. Paid orders appear here within seconds.'}
        </p>
      ) : (
        // Status and actions come first; the rest scrolls sideways on a narrow screen, which a phone is told.
        <>
          <p className="mb-2 text-xs text-muted sm:hidden">
            The table scrolls sideways: swipe it for the status, actions, totals and tracking.
          </p>
          <ScrollRegion label="Orders table">
            <table className="dashboard-table w-full min-w-[50rem] border-collapse text-sm">
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Status</th>
                  <th scope="col">Actions</th>
                  <th scope="col">Items</th>
                  <th scope="col">Package</th>
                  <th scope="col">Total</th>
                  <th scope="col">Tracking</th>
                </tr>
              </thead>
              <tbody>
                {orders.map((order) => (
                  <OrderRow key={order.id} order={order} actions={actions} />
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </>
      )}
      {orders.length >= view.limit && view.limit < MAX_ROWS && (
        <button
          type="button"
          className="btn-outline mt-3 !px-4 !py-2 text-xs"
          onClick={() => onViewChange({ ...view, limit: Math.min(view.limit + LIST_SIZE, MAX_ROWS) })}
        >
          Show {LIST_SIZE} more
        </button>
      )}
    </Section>
  )
}

function OrderRow({ order, actions }: { order: DashboardOrder; actions: OrderActions }) {
  const busy = actions.busy.has(order.id)
  // Where the focus goes when the action button it was on goes (the order shipped, say).
  const number = useRef<HTMLButtonElement>(null)
  // The row may leave the list with the focus in it (the order shipped with 'Ready to ship' shown): where
  // the focused control sat, so the focus lands in the row that takes its place. Forgotten when the focus
  // leaves the row for something else, so a row that goes later pulls no focus back.
  const focused = useRef<ListPlace | null>(null)
  useEffect(
    () => () => {
      if (focused.current && focusIsLost()) focusPlace(focused.current)
    },
    [],
  )
  return (
    <tr
      data-order={order.number}
      onFocus={(event) => {
        focused.current = placeOf(event.target)
      }}
      onBlur={(event) => {
        if (event.target.isConnected) focused.current = null
      }}
    >
      <th scope="row">
        <button
          ref={number}
          type="button"
          data-control="details"
          className="tap-area font-mono font-bold text-brand underline underline-offset-4"
          onClick={(event) => actions.open(order, event.currentTarget)}
        >
          #{order.number}
          <span className="sr-only"> details</span>
        </button>
        <div className="text-xs text-muted">
          <ShopTime at={order.createdAt} />
        </div>
      </th>
      <td>
        <div className="font-semibold">{order.customerName}</div>
        <div className="text-xs text-muted break-all">{order.customerEmail}</div>
      </td>
      <td>
        <StatusBadge status={order.status} />
        {order.failureReason && (
          <div className="mt-1 max-w-[14rem] text-xs text-danger">{order.failureReason}</div>
        )}
        {order.discountWarning && (
          <div className="mt-1 max-w-[14rem] text-xs text-danger">{order.discountWarning}</div>
        )}
        {order.stockWarning && (
          <div className="mt-1 max-w-[14rem] text-xs text-danger">{order.stockWarning}</div>
        )}
      </td>
      <td>
        <OrderActionButtons order={order} actions={actions} busy={busy} home={() => number.current} />
      </td>
      <td>
        {order.itemCount} · {formatOunces(order.totalWeight)}
      </td>
      <td>
        {packageName(order.packageType)}
        <div className="text-xs text-muted">{formatDimensions(order.packageDimensions)}</div>
      </td>
      <td>{formatCurrency(order.totalAmount)}</td>
      <td className="font-mono text-xs break-all">{order.shippoTrackingNumber ?? '—'}</td>
    </tr>
  )
}
