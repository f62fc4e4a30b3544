import { formatCurrency } from '@core/rules/money'
import { useId, useRef, useState } from 'react'
import { useFocusAfterSwap } from '../../lib/use-focus-after-swap'
import { cancelOrder, type OrderDetail } from './api'

/**
 * Cancel, for an order that has not shipped: a confirmation that says what will happen (a refund of what
 * is left, the label voided, every unit back on the shelf) with an optional reason, then the server's answer.
 * Escape leaves the question (the reason typed stays for the next time it is asked), not the order's dialog,
 * as in RefundForm.
 */
export function CancelOrder({ order, onDone }: { order: OrderDetail; onDone: (message: string) => void }) {
  const [confirming, setConfirming] = useState(false)
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const reasonId = useId()
  // Opening and closing the question swaps what is on screen: focus goes to what replaced the button pressed.
  const cancelButton = useRef<HTMLButtonElement>(null)
  const reasonInput = useRef<HTMLInputElement>(null)
  const swap = useFocusAfterSwap(confirming, (open) => (open ? reasonInput : cancelButton).current)
  if (!order.cancellable) return null

  function ask(open: boolean) {
    swap(() => setConfirming(open))
  }

  async function confirm() {
    if (busy) return
    setBusy(true)
    setError(null)
    try {
      const answer = await cancelOrder(order.id, reason.trim())
      setConfirming(false)
      onDone(answer.message)
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The order could not be cancelled.')
    } finally {
      setBusy(false)
    }
  }

  const waiting = busy ? 'opacity-60' : ''
  if (!confirming) {
    return (
      <button
        ref={cancelButton}
        type="button"
        className="btn-outline !px-3 !py-1.5 text-xs"
        onClick={() => ask(true)}
      >
        Cancel Order
      </button>
    )
  }
  return (
    <fieldset
      className="grid w-full gap-2 rounded-md border border-line p-3 text-sm"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return
        // Not the dialog's Escape: the question is left first, and a second Escape closes the dialog.
        event.preventDefault()
        if (!busy) ask(false)
      }}
    >
      <legend className="sr-only">Cancel this order</legend>
      <p>
        Cancel this order? {formatCurrency(order.refundable)} is refunded to the customer's card, the label is
        voided, and the customer gets an e-mail. This cannot be undone.
      </p>
      <label htmlFor={reasonId} className="font-semibold">
        Reason (optional)
      </label>
      <input
        ref={reasonInput}
        id={reasonId}
        className="field"
        maxLength={500}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      {error && (
        <p role="alert" className="font-semibold text-danger">
          {error}
        </p>
      )}
      {/* While the cancel is sent its buttons wait (aria-disabled, not disabled, which would drop the focus
          to the page's start and let an Escape reach the dialog), as RefundForm's do. */}
      <div className="flex gap-2">
        <button
          type="button"
          className={`btn-primary !px-3 !py-1.5 text-xs ${waiting}`}
          aria-disabled={busy}
          onClick={confirm}
        >
          {busy ? 'Cancelling…' : 'Yes, Cancel Order'}
        </button>
        <button
          type="button"
          className={`btn-outline !px-3 !py-1.5 text-xs ${waiting}`}
          aria-disabled={busy}
          onClick={() => busy || ask(false)}
        >
          Keep Order
        </button>
      </div>
    </fieldset>
  )
}
