import { lineLabel } from '@core/rules/catalog'
import { dollarsToCents, formatCents, formatCurrency } from '@core/rules/money'
import { unitsRefundCents } from '@core/rules/refunds'
import { useId, useRef, useState } from 'react'
import { useFocusAfterSwap } from '../../lib/use-focus-after-swap'
import { type OrderDetail, type RefundBody, refundOrder } from './api'

type Mode = 'lines' | 'amount'

/** A fresh Idempotency-Key for each refund staff set up: pressing again after a lost answer is the same refund. */
const newKey = () => `dash-${crypto.randomUUID()}`

/** What the form asks for, or a message saying what is missing. */
function bodyOf(mode: Mode, units: Record<number, number>, amount: string, restock: boolean, reason: string) {
  const why = reason.trim() ? { reason: reason.trim() } : {}
  if (mode === 'amount') {
    if (!/^\d+(\.\d{1,2})?$/.test(amount.trim())) return 'Enter an amount such as 12.50.'
    return { amount: amount.trim(), restock: false, ...why } satisfies RefundBody
  }
  const lines = Object.entries(units)
    .filter(([, quantity]) => quantity > 0)
    .map(([lineId, quantity]) => ({ lineId: Number(lineId), quantity }))
  if (lines.length === 0) return 'Choose at least one item to refund.'
  return { lines, restock, ...why } satisfies RefundBody
}

/**
 * What the server will refund for the units of `body`, to the cent: each line's paid amount split as the
 * server splits it (core/rules/refunds.ts), after the units already refunded.
 */
function linesCents(order: OrderDetail, body: RefundBody): number {
  return (body.lines ?? []).reduce((sum, { lineId, quantity }) => {
    const line = order.lines.find((each) => each.id === lineId)
    if (!line || !Number.isInteger(quantity) || quantity < 1) return sum
    if (line.refundedQuantity + quantity > line.quantity) return sum
    const paid = Math.round(line.paid * 100)
    const refunded = Math.round(line.refunded * 100)
    return sum + unitsRefundCents(paid, line.quantity, line.refundedQuantity, quantity, refunded)
  }, 0)
}

/**
 * Refund by items (units of each line, with a choice to put them back on the shelf) or by an amount (a
 * damaged jar, shipping), with a reason; a confirmation with the amount, then the server's answer.
 */
export function RefundForm({ order, onDone }: { order: OrderDetail; onDone: (message: string) => void }) {
  const [open, setOpen] = useState(false)
  const [mode, setMode] = useState<Mode>('lines')
  const [units, setUnits] = useState<Record<number, number>>({})
  const [amount, setAmount] = useState('')
  const [restock, setRestock] = useState(true)
  const [reason, setReason] = useState('')
  const [confirming, setConfirming] = useState<RefundBody | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [key, setKey] = useState(newKey)
  const id = useId()
  // Each step swaps what is on screen: focus goes to what replaced the button pressed (the form's first
  // choice, the question's answer, the button that opened it).
  const root = useRef<HTMLFieldSetElement>(null)
  const refundButton = useRef<HTMLButtonElement>(null)
  const step = open ? (confirming ? 'confirming' : 'choosing') : 'closed'
  const swap = useFocusAfterSwap(step, (now) =>
    now === 'closed'
      ? refundButton.current
      : root.current?.querySelector<HTMLElement>(
          now === 'confirming' ? '[data-confirm]' : 'input:not(:disabled)',
        ),
  )
  if (order.refundable <= 0) return null

  if (!open) {
    return (
      <button
        ref={refundButton}
        type="button"
        className="btn-outline !px-3 !py-1.5 text-xs"
        onClick={() => swap(() => setOpen(true))}
      >
        Refund
      </button>
    )
  }

  function review() {
    const body = bodyOf(mode, units, amount, restock, reason)
    if (typeof body === 'string') return setError(body)
    setError(null)
    swap(() => setConfirming(body))
  }

  async function send(body: RefundBody) {
    setBusy(true)
    setError(null)
    try {
      const answer = await refundOrder(order.id, body, key)
      setOpen(false)
      setConfirming(null)
      setUnits({})
      setAmount('')
      setKey(newKey())
      onDone(answer.message)
    } catch (caught) {
      setConfirming(null)
      setError(caught instanceof Error ? caught.message : 'The refund could not be made.')
    } finally {
      setBusy(false)
    }
  }

  // What is asked about is what will be sent: the choices stay as they were reviewed until 'Back'.
  const locked = confirming !== null
  return (
    <fieldset
      ref={root}
      className="grid w-full gap-2 rounded-md border border-line p-3 text-sm"
      disabled={busy}
    >
      <legend className="px-1 font-bold uppercase">Refund (up to {formatCurrency(order.refundable)})</legend>
      <div className="flex gap-4">
        {(['lines', 'amount'] as const).map((value) => (
          <label key={value} className="flex items-center gap-1">
            <input
              type="radio"
              name={`${id}-mode`}
              checked={mode === value}
              disabled={locked}
              onChange={() => setMode(value)}
            />
            {value === 'lines' ? 'By items' : 'By amount'}
          </label>
        ))}
      </div>
      {mode === 'lines' ? (
        <>
          {order.lines.map((line) => {
            const left = line.quantity - line.refundedQuantity
            // Named as the order's lines are, with the scent: one product may be on two lines.
            const name = lineLabel(line)
            return (
              <label key={line.id} className="flex items-center justify-between gap-2">
                <span>
                  {name} ({left} of {line.quantity} left to refund)
                </span>
                <input
                  type="number"
                  className="field w-20"
                  min={0}
                  max={left}
                  step={1}
                  disabled={left === 0 || locked}
                  value={units[line.id] ?? 0}
                  aria-label={`Units of ${name} to refund`}
                  onChange={(e) =>
                    setUnits({
                      ...units,
                      // Whole units: a typed 1.5 is 1 (the confirmation names the amount for it).
                      [line.id]: Math.max(0, Math.min(left, Math.floor(Number(e.target.value) || 0))),
                    })
                  }
                />
              </label>
            )
          })}
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={restock}
              disabled={locked}
              onChange={(e) => setRestock(e.target.checked)}
            />
            Put the refunded units back on the shelf
          </label>
        </>
      ) : (
        <label className="grid gap-1">
          Amount in dollars
          <input
            className="field"
            inputMode="decimal"
            value={amount}
            placeholder="12.50"
            disabled={locked}
            onChange={(e) => setAmount(e.target.value)}
          />
        </label>
      )}
      <label className="grid gap-1">
        Reason (optional)
        <input
          className="field"
          maxLength={500}
          value={reason}
          disabled={locked}
          onChange={(e) => setReason(e.target.value)}
        />
      </label>
      {error && (
        <p role="alert" className="font-semibold text-danger">
          {error}
        </p>
      )}
      {confirming ? (
        <fieldset className="grid gap-2">
          <legend className="sr-only">Confirm the refund</legend>
          <p>
            Refund{' '}
            {confirming.amount
              ? formatCents(dollarsToCents(confirming.amount) ?? 0)
              : formatCents(linesCents(order, confirming))}{' '}
            to the customer's card? The customer gets an e-mail.
          </p>
          <div className="flex gap-2">
            <button
              type="button"
              className="btn-primary !px-3 !py-1.5 text-xs"
              data-confirm
              onClick={() => send(confirming)}
            >
              {busy ? 'Refunding…' : 'Yes, Refund'}
            </button>
            <button
              type="button"
              className="btn-outline !px-3 !py-1.5 text-xs"
              onClick={() => swap(() => setConfirming(null))}
            >
              Back
            </button>
          </div>
        </fieldset>
      ) : (
        <div className="flex gap-2">
          <button type="button" className="btn-primary !px-3 !py-1.5 text-xs" onClick={review}>
            Review Refund
          </button>
          <button
            type="button"
            className="btn-outline !px-3 !py-1.5 text-xs"
            onClick={() => swap(() => setOpen(false))}
          >
            Close
          </button>
        </div>
      )}
    </fieldset>
  )
}
