import { type DiscountTerms, describeDiscount } from '@core/rules/discounts'
import { type FormEvent, useState } from 'react'
import { showToast } from '../toasts/store'
import { discountApplied, removeDiscount } from './checkout-store'
import { checkDiscount } from './discount'

const INVALID_FALLBACK = 'Please check your code and try again.'

/** The cart's discount code (docs/product.md#cart): the form to apply one, or the applied code and Remove. */
export function DiscountCode({
  discount,
  subtotalCents,
}: {
  discount: DiscountTerms | null
  subtotalCents: number
}) {
  const [code, setCode] = useState('')
  const [checking, setChecking] = useState(false)

  async function applyDiscount(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const wanted = code.trim()
    if (!wanted || checking) return
    setChecking(true)
    const result = await checkDiscount(wanted, subtotalCents)
    setChecking(false)
    if (result.kind === 'valid') {
      discountApplied.set(result.terms)
      setCode('')
      showToast({ title: 'Discount Applied!', description: describeDiscount(result.terms) })
    } else if (result.kind === 'invalid') {
      showToast({
        title: 'Invalid Discount Code',
        description: result.message ?? INVALID_FALLBACK,
        variant: 'error',
      })
    } else {
      showToast({
        title: 'Error',
        description: 'Failed to validate discount code. Please try again.',
        variant: 'error',
      })
    }
  }

  if (discount) {
    return (
      <div className="mt-4 flex items-center justify-between gap-3 rounded-md border border-success p-3 text-sm">
        <span>
          Code <strong>{discount.code}</strong> applied
        </span>
        <button type="button" className="font-bold underline" onClick={removeDiscount}>
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
          id="discount-code"
          className="field"
          value={code}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          onChange={(event) => setCode(event.target.value)}
        />
        <button type="submit" className="btn-outline !px-4 !py-2" disabled={checking}>
          {checking ? 'Checking…' : 'Apply'}
        </button>
      </div>
    </form>
  )
}
