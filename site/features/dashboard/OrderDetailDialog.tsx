import { useEffect, useRef, useState } from 'react'
import { $toasts } from '../toasts/store'
import { fetchOrder, type OrderDetail } from './api'
import { CancelOrder } from './CancelOrder'
import { formatDimensions, formatOunces, packageName } from './dashboard-logic'
import { OrderActionButtons } from './OrderActionButtons'
import { AddressLines, OrderHistoryList, OrderLinesTable } from './OrderDetailParts'
import { OrderRefunds } from './OrderRefunds'
import type { OrderActions } from './order-actions'
import { RefundForm } from './RefundForm'
import { ShopTime } from './ShopTime'
import { StatusBadge } from './StatusBadge'
import { RETRY_AFTER_FAILURE_MS } from './use-polling'

/**
 * One order in a modal dialog: lines, addresses, totals, label and actions, and its history (who moved it,
 * when and why). The browser's modal dialog keeps focus inside and closes on Escape (the cancel question and
 * the refund form take an Escape inside them for themselves). `version` changes when an action elsewhere may
 * have moved the order, so the view loads again; a cancel or refund made here has the lists behind it load
 * again too (`onChanged`), so no row keeps offering what no longer applies.
 */
export function OrderDetailDialog(props: {
  orderId: number
  version: number
  actions: OrderActions
  onClose: () => void
  /** A cancel or refund was made here: the lists behind the dialog load again. */
  onChanged: () => void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  // Where the focus goes when an action button it was on goes (the order shipped, say).
  const heading = useRef<HTMLHeadingElement>(null)
  const [order, setOrder] = useState<OrderDetail | null>(null)
  const [error, setError] = useState<string | null>(null)
  // What the dialog's status line last said of an action made here: a cancel's or refund's answer, or a
  // toast's (below). `count` counts the cancels and refunds, after each of which the order loads again.
  const [done, setDone] = useState<{ message: string; count: number }>({ message: '', count: 0 })
  const { onClose, onChanged } = props
  const changed = (message: string) => {
    setDone((before) => ({ message, count: before.count + 1 }))
    onChanged()
  }

  useEffect(() => {
    const element = dialog.current
    if (element && !element.open) element.showModal()
    const closed = () => onClose()
    element?.addEventListener('close', closed)
    return () => element?.removeEventListener('close', closed)
  }, [onClose])

  // A cancel or refund made here swaps its form out from under the button pressed: the focus goes to what
  // the dialog says of it.
  const doneMessage = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    if (done.count > 0) doneMessage.current?.focus()
  }, [done.count])

  // Behind a modal dialog the page's toasts are neither seen nor heard (the browser makes all but the dialog
  // inert), so what Mark Shipped or Retry pressed here answers is said in the dialog's status line too.
  useEffect(
    () =>
      $toasts.listen(([latest]) => {
        if (!latest) return
        const message = [latest.title, latest.description].filter(Boolean).join('. ')
        setDone((before) => ({ ...before, message }))
      }),
    [],
  )

  // A failed load is tried again soon (as the sections behind the dialog are), or at once with 'Try Again'.
  const [tries, setTries] = useState(0)
  useEffect(() => {
    const controller = new AbortController()
    let again: ReturnType<typeof setTimeout> | undefined
    // A new version means an action elsewhere may have moved the order: load it again.
    void props.version
    void done.count
    void tries
    fetchOrder(props.orderId, controller.signal).then(
      (answer) => {
        setOrder(answer)
        setError(null)
      },
      (caught: unknown) => {
        if (controller.signal.aborted) return
        setError(caught instanceof Error ? caught.message : 'The order could not be loaded.')
        again = setTimeout(() => setTries((count) => count + 1), RETRY_AFTER_FAILURE_MS)
      },
    )
    return () => {
      controller.abort()
      clearTimeout(again)
    }
  }, [props.orderId, props.version, done.count, tries])

  const number = String(props.orderId).padStart(6, '0')
  return (
    <dialog ref={dialog} className="dashboard-dialog" aria-labelledby="order-detail-heading">
      <div className="flex items-center justify-between gap-3 border-b border-line p-4">
        <h2 ref={heading} id="order-detail-heading" className="text-xl font-bold uppercase" tabIndex={-1}>
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
      <div className="dashboard-dialog-body grid gap-5 overflow-y-auto p-4">
        {error && (
          <p role="alert" className="flex flex-wrap items-center gap-3 font-semibold text-danger">
            {error}
            <button
              type="button"
              className="btn-outline !px-3 !py-1.5 text-xs"
              onClick={() => setTries((count) => count + 1)}
            >
              Try Again
            </button>
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
              <span className="text-sm text-muted">
                Placed <ShopTime at={order.createdAt} />
              </span>
              <OrderActionButtons
                order={order}
                actions={props.actions}
                busy={props.actions.busy.has(order.id)}
                home={() => heading.current}
              />
            </div>
            <p ref={doneMessage} role="status" tabIndex={-1} className="text-sm font-semibold">
              {done.message}
            </p>
            <div className="flex flex-wrap items-start gap-3">
              <CancelOrder key={`cancel-${done.count}`} order={order} onDone={changed} />
              <RefundForm key={`refund-${done.count}`} order={order} onDone={changed} />
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
            {order.stockWarning && (
              <p className="text-sm text-danger">
                <strong>Paid for more than was left:</strong> {order.stockWarning}
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
            <OrderLinesTable order={order} number={number} />
            <OrderRefunds order={order} number={number} />
            <OrderHistoryList order={order} number={number} />
          </>
        )}
      </div>
    </dialog>
  )
}
