import { lineLabel } from '@core/rules/catalog'
import { dollarsToCents, formatCents } from '@core/rules/money'
import { useEffect, useId, useRef, useState } from 'react'
import { ApiError } from '../../lib/api'
import { useFocusAfterSwap } from '../../lib/use-focus-after-swap'
import { type OrderDetail, type RefundBody, refundOrder } from './api'
import {
  isProblem,
  leftCents,
  linesCents,
  type RefundMode,
  type RefundProblem,
  refundBodyOf,
} from './refund-body'

/** A fresh Idempotency-Key for each refund staff set up: pressing again after a lost answer is the same refund. */
const newKey = () => `dash-${crypto.randomUUID()}`

/**
 * Refund by items (units of each line, with a choice to put them back on the shelf) or by an amount (a
 * damaged jar, shipping), with a reason; a confirmation with the amount, then the server's answer. Escape
 * leaves the form (what was typed stays for the next time it is opened), not the order's dialog.
 */
export function RefundForm({ order, onDone }: { order: OrderDetail; onDone: (message: string) => void }) {
  const [open, setOpen] = useState(false)
  const [mode, setMode] = useState<RefundMode>('lines')
  const [units, setUnits] = useState<Record<number, number>>({})
  const [amount, setAmount] = useState('')
  const [restock, setRestock] = useState(true)
  const [reason, setReason] = useState('')
  const [confirming, setConfirming] = useState<RefundBody | null>(null)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<RefundProblem | null>(null)
  const [key, setKey] = useState(newKey)
  const id = useId()
  const problemId = `${id}-problem`
  // Each step swaps what is on screen: focus goes to what replaced the button pressed (the form's first
  // choice, the question's answer, the button that opened it; after a refusal, the amount it is about or
  // the message).
  const root = useRef<HTMLFieldSetElement>(null)
  const refundButton = useRef<HTMLButtonElement>(null)
  const amountField = useRef<HTMLInputElement>(null)
  const problemLine = useRef<HTMLParagraphElement>(null)
  const step = open ? (confirming ? 'confirming' : 'choosing') : 'closed'
  const swap = useFocusAfterSwap(step, (now) => {
    if (now === 'closed') return refundButton.current
    if (now === 'confirming') return root.current?.querySelector<HTMLElement>('[data-confirm]')
    if (problem) return problem.onAmount ? amountField.current : problemLine.current
    return root.current?.querySelector<HTMLElement>('input:not(:disabled)')
  })
  // A problem with the amount (at the review, or the server's refusal) puts the focus on the field, marked.
  useEffect(() => {
    if (problem?.onAmount) amountField.current?.focus()
  }, [problem])
  if (order.refundable <= 0) return null
  const left = leftCents(order)

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

  const leave = () =>
    swap(() => {
      setOpen(false)
      setConfirming(null)
      setProblem(null)
    })

  function review() {
    const body = refundBodyOf(mode, { units, amount, restock, reason }, left)
    if (isProblem(body)) return setProblem(body)
    setProblem(null)
    swap(() => setConfirming(body))
  }

  async function send(body: RefundBody) {
    if (busy) return
    setBusy(true)
    setProblem(null)
    try {
      const answer = await refundOrder(order.id, body, key)
      setOpen(false)
      setConfirming(null)
      setUnits({})
      setAmount('')
      setKey(newKey())
      onDone(answer.message)
    } catch (caught) {
      // A refusal of an amount (409: less is left by now) is the amount's to fix.
      const refused = caught instanceof ApiError && (caught.status === 409 || caught.status === 422)
      const message = caught instanceof Error ? caught.message : 'The refund could not be made.'
      swap(() => {
        setConfirming(null)
        setProblem({ message, onAmount: refused && body.amount !== undefined })
      })
    } finally {
      setBusy(false)
    }
  }

  const problemText = problem && (
    <p id={problemId} ref={problemLine} role="alert" tabIndex={-1} className="font-semibold text-danger">
      {problem.message}
    </p>
  )
  // What is asked about is what will be sent: the choices stay as they were reviewed until 'Back'. While
  // the refund is on its way its buttons wait, without `disabled`, which would drop the focus.
  const locked = confirming !== null
  const waiting = busy ? 'opacity-60' : ''
  return (
    <fieldset
      ref={root}
      className="grid w-full gap-2 rounded-md border border-line p-3 text-sm"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return
        // Not the dialog's Escape: the form is left first, and a second Escape closes the dialog.
        event.preventDefault()
        if (!busy) leave()
      }}
    >
      <legend className="px-1 font-bold uppercase">Refund (up to {formatCents(left)})</legend>
      {/* Each label's hit area (.tap-area) is 44 px tall: the margin keeps it off the fields below. */}
      <div className="mb-1 flex gap-4">
        {(['lines', 'amount'] as const).map((value) => (
          <label key={value} className="tap-area flex items-center gap-1">
            <input
              type="radio"
              name={`${id}-mode`}
              checked={mode === value}
              disabled={locked}
              onChange={() => {
                setMode(value)
                setProblem(null)
              }}
            />
            {value === 'lines' ? 'By items' : 'By amount'}
          </label>
        ))}
      </div>
      {mode === 'lines' ? (
        <RefundLines
          order={order}
          units={units}
          restock={restock}
          locked={locked}
          onUnits={setUnits}
          onRestock={setRestock}
        />
      ) : (
        <>
          <label className="grid gap-1">
            Amount in dollars
            <input
              ref={amountField}
              className="field"
              inputMode="decimal"
              value={amount}
              placeholder="12.50"
              disabled={locked}
              aria-invalid={problem?.onAmount || undefined}
              aria-describedby={problem?.onAmount ? problemId : undefined}
              onChange={(e) => {
                setAmount(e.target.value)
                if (problem?.onAmount) setProblem(null)
              }}
            />
          </label>
          {problem?.onAmount && problemText}
        </>
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
      {problem && !problem.onAmount && problemText}
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
              className={`btn-primary !px-3 !py-1.5 text-xs ${waiting}`}
              aria-disabled={busy}
              data-confirm
              onClick={() => send(confirming)}
            >
              {busy ? 'Refunding…' : 'Yes, Refund'}
            </button>
            <button
              type="button"
              className={`btn-outline !px-3 !py-1.5 text-xs ${waiting}`}
              aria-disabled={busy}
              onClick={() => busy || swap(() => setConfirming(null))}
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
          <button type="button" className="btn-outline !px-3 !py-1.5 text-xs" onClick={leave}>
            Close
          </button>
        </div>
      )}
    </fieldset>
  )
}

/** By items: the units of each line to refund (whole, at most what is left of it), and the restock choice. */
function RefundLines(props: {
  order: OrderDetail
  units: Record<number, number>
  restock: boolean
  locked: boolean
  onUnits: (units: Record<number, number>) => void
  onRestock: (restock: boolean) => void
}) {
  const { order, units, locked } = props
  return (
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
                props.onUnits({
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
          checked={props.restock}
          disabled={locked}
          onChange={(e) => props.onRestock(e.target.checked)}
        />
        Put the refunded units back on the shelf
      </label>
    </>
  )
}
