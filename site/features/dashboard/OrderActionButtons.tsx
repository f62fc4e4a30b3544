import { type MouseEvent, useEffect, useRef } from 'react'
import type { DashboardOrder } from './api'
import type { OrderActions } from './order-actions'

/**
 * Retry on a failed order; the label and Mark Shipped once it has a label. A button whose action went
 * through goes once the order is drawn again (Retry once it is no longer failed, Mark Shipped once shipped):
 * the focus it held moves to `home` (the order's number in its row, the dialog's heading) instead of falling
 * to the page's start. While the action is under way the button waits without `disabled`, which would drop
 * the focus too. A row that leaves the list with its order (no longer the status shown) takes this
 * component with it: OrdersTable's row then puts the focus in the row that takes its place (list-place.ts).
 */
export function OrderActionButtons(props: {
  order: DashboardOrder
  actions: OrderActions
  busy: boolean
  home: () => HTMLElement | null | undefined
}) {
  const { order, actions, busy } = props
  // The button pressed, until its action is refused (it stays) or it has gone with the focus it held.
  const pressed = useRef<HTMLElement | null>(null)
  const home = useRef(props.home)
  home.current = props.home
  useEffect(() => {
    const button = pressed.current
    if (!button || button.isConnected) return
    pressed.current = null
    const focused = document.activeElement
    if (!focused || focused === document.body) home.current()?.focus()
  })

  async function press(
    event: MouseEvent<HTMLButtonElement>,
    action: (order: DashboardOrder) => Promise<boolean>,
  ) {
    if (busy) return
    const button = event.currentTarget
    pressed.current = button
    if (!(await action(order)) && pressed.current === button) pressed.current = null
  }

  const waiting = busy ? 'opacity-60' : ''
  return (
    <div className="flex flex-wrap gap-2">
      {order.status === 'failed' && (
        <button
          type="button"
          className={`btn-primary !px-3 !py-1.5 text-xs ${waiting}`}
          aria-disabled={busy}
          data-control="retry"
          onClick={(event) => void press(event, actions.retry)}
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
          className={`btn-primary !px-3 !py-1.5 text-xs ${waiting}`}
          aria-disabled={busy}
          data-control="ship"
          onClick={(event) => void press(event, actions.ship)}
          aria-label={`Mark Shipped: order ${order.number}`}
        >
          {busy ? 'Saving...' : 'Mark Shipped'}
        </button>
      )}
    </div>
  )
}
