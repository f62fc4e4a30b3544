import { type DiscountTerms, describeDiscount, discountShortfallCents } from '@core/rules/discounts'
import { formatCents } from '@core/rules/money'
import { type FormEvent, useRef, useState } from 'react'
import { useFocusAfterSwap } from '../../lib/use-focus-after-swap'
import { showToast } from '../toasts/store'
import { discountApplied, removeDiscount } from './checkout-store'
import { checkDiscount } from './discount'

const INVALID_FALLBACK = 'Please check your code and try again.'

/** The cart's discount code (docs/product.md#cart): the form to apply one, or the applied code and Remove. */
export function DiscountCode({
  discount,
  subtotalCents,
  checking,
  setChecking,
}: {
  discount: DiscountTerms | null
  subtotalCents: number
  /** A code is being asked about: the cart's way on to shipping waits for the answer (CartSummary). */
  checking: boolean
  setChecking: (checking: boolean) => void
}) {
  const [code, setCode] = useState('')
  // Why the code typed was refused, under its field as well as in the toast.
  const [refusal, setRefusal] = useState<string | null>(null)
  // Applying or removing swaps the form for the applied code and back: focus follows to what replaced it.
  const removeButton = useRef<HTMLButtonElement>(null)
  const input = useRef<HTMLInputElement>(null)
  const swap = useFocusAfterSwap(discount !== null, (applied) => (applied ? removeButton : input).current)

  async function applyDiscount(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const wanted = code.trim()
    if (!wanted || checking) return
    setChecking(true)
    const result = await checkDiscount(wanted, subtotalCents)
    setChecking(false)
    if (result.kind === 'valid') {
      setRefusal(null)
      swap(() => discountApplied.set(result.terms))
      setCode('')
      showToast({ title: 'Discount Applied!', description: describeDiscount(result.terms) })
    } else if (result.kind === 'invalid') {
      setRefusal(result.message ?? INVALID_FALLBACK)
      input.current?.focus()
      showToast({
        title: 'Invalid Discount Code',
        description: result.message ?? INVALID_FALLBACK,
        variant: 'error',
      })
    } else {
      showToast({
        title: 'Error',
        description: result.message ?? 'Failed to validate discount code. Please try again.',
        variant: 'error',
      })
    }
  }

  if (discount) {
    const shortfall = discountShortfallCents(subtotalCents, discount)
    return (
      <div
        className={`mt-4 flex items-center justify-between gap-3 rounded-md border p-3 text-sm ${shortfall > 0 ? 'border-line' : 'border-success'}`}
      >
        {/* One element whose words change, said as they change: a quantity lowered below the code's minimum
            (or raised back) is heard as well as seen. Kept, not dropped: a shopper who took one jar out and
            puts it back gets the code back as it was. */}
        <span aria-live="polite" data-discount-waiting={shortfall > 0 ? '' : undefined}>
          {shortfall > 0 ? (
            <>
              Code <strong>{discount.code}</strong> needs an order of at least{' '}
              {formatCents(discount.minSubtotalCents ?? 0)}: add {formatCents(shortfall)} to use it.
            </>
          ) : (
            <>
              Code <strong>{discount.code}</strong> applied
            </>
          )}
        </span>
        <button
          ref={removeButton}
          type="button"
          className="tap-area font-bold underline"
          onClick={() => swap(removeDiscount)}
        >
          Remove<span className="sr-only"> discount {discount.code}</span>
        </button>
      </div>
    )
  }
  return (
    <form className="mt-4" onSubmit={applyDiscount}>
      <label htmlFor="discount-code" className="block text-sm font-bold">
        Discount code
      </label>
      <div className="mt-1 flex gap-2">
        <input
          ref={input}
          id="discount-code"
          className="field"
          value={code}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-invalid={refusal ? true : undefined}
          aria-describedby={refusal ? 'discount-code-error' : undefined}
          onChange={(event) => {
            setCode(event.target.value)
            setRefusal(null)
          }}
        />
        {/* Not disabled while checking, which would drop the focus of the one who pressed it: a second press waits. */}
        <button type="submit" className="btn-outline !px-4 !py-2" aria-disabled={checking}>
          {checking ? 'Checking…' : 'Apply'}
        </button>
      </div>
      {refusal && (
        <p id="discount-code-error" className="mt-1 text-sm text-danger">
          {refusal}
        </p>
      )}
    </form>
  )
}
