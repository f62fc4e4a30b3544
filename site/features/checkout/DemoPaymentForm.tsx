import type { DemoSessionSummary, demoPayResponse } from '@core/contracts/payments'
import { formatCents } from '@core/rules/money'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import { TextField, type TextFieldSpec } from '../../components/form/fields'
import { ApiError, apiRequest } from '../../lib/api'
import {
  CARD_FIELDS,
  type CardErrors,
  type CardField,
  type CardInput,
  cardErrors,
  fieldForCardMessage,
  formatCardNumber,
  formatCvc,
  formatExpiry,
} from './card'
import { DemoOrderSummary } from './DemoOrderSummary'
import { isSuccessUrl } from './session'

export type DemoSummary = DemoSessionSummary
type PayAnswer = typeof demoPayResponse.static

/** The test card's fields, in form order (CARD_FIELDS). */
const CARD_INPUTS: Record<CardField, TextFieldSpec> = {
  cardNumber: {
    label: 'Card number',
    autoComplete: 'cc-number',
    inputMode: 'numeric',
    maxLength: 23,
    placeholder: '1234 1234 1234 1234',
    className: 'col-span-2',
  },
  expiry: {
    label: 'Expiry (MM/YY)',
    autoComplete: 'cc-exp',
    inputMode: 'numeric',
    maxLength: 5,
    placeholder: 'MM/YY',
  },
  cvc: { label: 'CVC', autoComplete: 'cc-csc', inputMode: 'numeric', maxLength: 4, placeholder: '123' },
  name: { label: 'Name on card', autoComplete: 'cc-name', maxLength: 100, className: 'col-span-2' },
}

const EMPTY_CARD: CardInput = { cardNumber: '', expiry: '', cvc: '', name: '' }
const PAY_FAILED = 'The payment could not be completed. Please try again.'

/**
 * The built-in demo provider's payment form (docs/architecture.md#outside-services): plainly marked as a test, it takes only the test
 * cards and never charges anything. Card details live in this component's state only.
 */
export function DemoPaymentForm({ sessionId, summary }: { sessionId: string; summary: DemoSummary }) {
  const [card, setCard] = useState<CardInput>(EMPTY_CARD)
  const [errors, setErrors] = useState<CardErrors>({})
  const [formError, setFormError] = useState('')
  // The session ended or is unknown (409, 404): paying again here cannot work, the cart can start anew.
  const [sessionGone, setSessionGone] = useState(false)
  const [paying, setPaying] = useState(false)
  // A fresh object per request, focused once the render it asked for is on the page (an animation frame may
  // come first on a busy phone): a card field, or the message for the whole form.
  const [focusTarget, setFocusTarget] = useState<{ field: CardField | 'alert' } | null>(null)
  const alertRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!focusTarget) return
    if (focusTarget.field === 'alert') alertRef.current?.focus()
    else document.getElementById(`card-${focusTarget.field}`)?.focus()
  }, [focusTarget])

  function update(field: CardField, value: string) {
    setCard((current) => {
      const next =
        field === 'cardNumber'
          ? formatCardNumber(value)
          : field === 'expiry'
            ? formatExpiry(value, current.expiry)
            : field === 'cvc'
              ? formatCvc(value)
              : value
      return { ...current, [field]: next }
    })
    setErrors((current) => ({ ...current, [field]: undefined }))
  }

  async function pay(event: FormEvent) {
    event.preventDefault()
    if (paying) return
    setFormError('')
    const missing = cardErrors(card)
    const first = CARD_FIELDS.find((field) => missing[field])
    if (first) {
      setErrors(missing)
      setFocusTarget({ field: first })
      return
    }
    setErrors({})
    setPaying(true)
    try {
      const answer = await apiRequest<PayAnswer>(
        'POST',
        `/api/demo-payments/${encodeURIComponent(sessionId)}/pay`,
        card,
      )
      const target = isSuccessUrl(answer.returnUrl)
        ? answer.returnUrl
        : `/success?session_id=${encodeURIComponent(sessionId)}`
      window.location.assign(target)
    } catch (error) {
      const message = error instanceof ApiError || error instanceof Error ? error.message : PAY_FAILED
      const field = fieldForCardMessage(message)
      if (field) {
        setErrors({ [field]: message })
        setFocusTarget({ field })
      } else {
        setSessionGone(error instanceof ApiError && (error.status === 409 || error.status === 404))
        setFormError(message || PAY_FAILED)
        setFocusTarget({ field: 'alert' })
      }
      setPaying(false)
    }
  }

  return (
    <div className="grid gap-6 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] md:items-start">
      <form
        // Never a GET: card details must not reach a URL, whatever happens to the script.
        method="post"
        noValidate
        onSubmit={pay}
        className="rounded-lg border-2 border-dashed border-accent bg-surface p-4 sm:p-6"
        aria-labelledby="demo-payment-heading"
        aria-describedby="demo-payment-note"
      >
        <p className="mb-2 inline-block rounded bg-accent px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-bg">
          Test mode
        </p>
        <h2 id="demo-payment-heading" className="text-xl font-bold">
          Demo payment — no real card is charged
        </h2>
        <p id="demo-payment-note" className="mt-2 text-sm text-muted">
          Pay with the test card <strong className="text-ink">4242 4242 4242 4242</strong>, any future expiry
          date and any 3-digit CVC. The card <strong className="text-ink">4000 0000 0000 0002</strong> shows a
          decline.
        </p>

        <div className="mt-4 grid grid-cols-2 gap-4">
          {CARD_FIELDS.map((field) => (
            <TextField
              key={field}
              {...CARD_INPUTS[field]}
              id={`card-${field}`}
              required
              value={card[field]}
              onChange={(value) => update(field, value)}
              error={errors[field]}
            />
          ))}
        </div>

        <div
          ref={alertRef}
          tabIndex={-1}
          role="alert"
          className={
            formError ? 'mt-4 rounded-md border-2 border-danger p-3 font-semibold text-danger' : 'sr-only'
          }
        >
          {formError}
          {formError && sessionGone ? (
            <a href="/cart" className="btn-outline mt-3 block text-center">
              Return to Cart
            </a>
          ) : null}
        </div>

        <button type="submit" className="btn-primary mt-6 w-full" disabled={paying}>
          {paying ? 'Processing...' : `Pay ${formatCents(summary.amountTotal)}`}
        </button>
      </form>

      <DemoOrderSummary summary={summary} />
    </div>
  )
}
