import { formatCents, formatCurrency } from '@core/rules/money'
import { formatWeight } from '@core/rules/shipping'
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react'
import { FIELD, TextField } from '../../components/form/fields'
import { useHydratedStore } from '../../components/shell/use-hydrated-store'
import { apiRequest } from '../../lib/api'
import { isPublicUser } from '../account/api'
import { loadUser } from '../account/auth-store'
import { type CartLine, cartLines, discountApplied } from '../cart/store'
import { showToast } from '../toasts/store'
import { CheckoutAddress } from './CheckoutAddress'
import { loadSavedCheckout, type SavedRates, saveCheckout } from './draft'
import {
  type AddressKey,
  type CheckoutDraft,
  emptyDraft,
  type FieldErrors,
  type FieldKey,
  firstField,
  type Problem,
  paymentProblem,
  ratesProblem,
} from './form'
import { isStaleQuote, ORDER_TOO_LOW, ratesErrorToast, SESSION_FAILED, sessionErrorToast } from './messages'
import { prefillFromAccount } from './prefill'
import {
  cartWeightOunces,
  goodsTotals,
  isBelowMinimumCharge,
  lineCents,
  quoteBinding,
  type Rate,
  ratesRequest,
  type SessionAnswer,
  sessionRequest,
} from './requests'

type Busy = 'rates' | 'session' | null

/** What the static HTML was rendered with; one constant so hydration sees a stable value. */
const NO_LINES: CartLine[] = []

/** Checkout step 1 (docs/product.md#shipping): address, optional billing address, shipping method. */
export default function ShippingCheckout() {
  const lines = useHydratedStore(cartLines, NO_LINES)
  const discount = useHydratedStore(discountApplied, null)
  const discountCode = discount?.code ?? null

  const [loaded, setLoaded] = useState(false)
  const [draft, setDraft] = useState<CheckoutDraft>(emptyDraft)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [saved, setSaved] = useState<SavedRates | null>(null)
  const [busy, setBusy] = useState<Busy>(null)
  const [status, setStatus] = useState('')
  // A fresh object per request, so asking to focus the same field twice still moves focus.
  const [focusTarget, setFocusTarget] = useState<{ id: FieldKey } | null>(null)
  const ratesHeading = useRef<HTMLHeadingElement>(null)

  // Restore what was typed in this tab; an empty cart has nothing to ship (docs/product.md#shipping).
  useEffect(() => {
    if (cartLines.get().length === 0) {
      window.location.replace('/cart')
      return
    }
    const restored = loadSavedCheckout()
    setDraft(restored.draft)
    setSaved(restored.rates)
    setLoaded(true)
    // A signed-in customer starts with their e-mail and saved address (loadUser asks the server only when
    // the signed_in cookie says someone may be signed in).
    loadUser().then((user) => {
      if (isPublicUser(user)) setDraft((current) => prefillFromAccount(current, user))
    })
  }, [])

  useEffect(() => {
    if (loaded && lines.length === 0) window.location.replace('/cart')
  }, [loaded, lines.length])

  const binding = useMemo(() => quoteBinding(draft, lines, discountCode), [draft, lines, discountCode])
  // Rates belong to the address and cart they were quoted for: any change there and they are gone.
  const rates = saved && saved.binding === binding ? saved : null
  const selected = rates?.rates.find((rate) => rate.id === rates.selectedId) ?? null

  useEffect(() => {
    if (!loaded) return
    saveCheckout({ draft, rates })
  }, [loaded, draft, rates])

  useEffect(() => {
    if (saved && !rates) setSaved(null)
  }, [saved, rates])

  useEffect(() => {
    if (focusTarget) document.getElementById(focusTarget.id)?.focus()
  }, [focusTarget])

  function clearError(key: FieldKey) {
    setErrors((current) => {
      if (current[key] === undefined) return current
      const { [key]: _cleared, ...rest } = current
      return rest
    })
  }

  function setEmail(value: string) {
    setDraft((current) => ({ ...current, email: value }))
    clearError('email')
  }

  function setAddressField(kind: 'shipping' | 'billing', key: AddressKey, value: string) {
    setDraft((current) => {
      const address = { ...current[kind], [key]: value }
      // A US state code means nothing in another country, and the reverse.
      if (key === 'country' && value !== current[kind].country) address.state = ''
      return { ...current, [kind]: address }
    })
    clearError(`${kind}.${key}`)
  }

  function report(problem: Exclude<Problem, { kind: 'none' }>) {
    setErrors(problem.fields)
    const first = firstField(problem.fields)
    if (first) setFocusTarget({ id: first })
    showToast({ title: problem.title, description: problem.description, variant: 'error' })
  }

  async function getRates(event: FormEvent) {
    event.preventDefault()
    if (busy) return
    const problem = ratesProblem(draft)
    if (problem.kind !== 'none') return report(problem)
    setErrors({})
    setBusy('rates')
    setStatus('Calculating shipping rates…')
    const requestBinding = binding
    try {
      const answer = await apiRequest<{ rates: Rate[] }>(
        'POST',
        '/api/shipping/rates',
        ratesRequest(draft, lines, discountCode),
      )
      const fresh = answer.rates
      setSaved({ binding: requestBinding, savedAt: Date.now(), rates: fresh, selectedId: null })
      setStatus(
        `${fresh.length} shipping ${fresh.length === 1 ? 'method' : 'methods'} available. Select one below.`,
      )
      requestAnimationFrame(() =>
        ratesHeading.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }),
      )
    } catch (error) {
      setStatus('')
      const toast = ratesErrorToast(error)
      showToast({ ...toast, variant: 'error' })
    } finally {
      setBusy(null)
    }
  }

  function chooseRate(id: string) {
    setSaved((current) => (current ? { ...current, selectedId: id } : current))
  }

  async function continueToPayment() {
    if (busy) return
    const problem = paymentProblem(draft)
    if (problem.kind !== 'none') return report(problem)
    if (!selected) {
      showToast({
        title: 'Missing Information',
        description: 'Please fill in all required shipping fields',
        variant: 'error',
      })
      return
    }
    if (isBelowMinimumCharge(lines, discount)) {
      showToast({ ...ORDER_TOO_LOW, variant: 'error' })
      return
    }
    setErrors({})
    setBusy('session')
    try {
      const answer = await apiRequest<SessionAnswer>(
        'POST',
        '/api/create-checkout-session',
        sessionRequest(draft, lines, selected, discountCode),
      )
      if (!answer?.url) throw new Error(SESSION_FAILED)
      window.location.assign(answer.url)
      // Stay busy: the page is leaving, a second click must not start a second session.
    } catch (error) {
      if (isStaleQuote(error)) setSaved(null)
      showToast({ ...sessionErrorToast(error), variant: 'error' })
      setBusy(null)
    }
  }

  const totals = goodsTotals(lines, discount)
  const shippingCents = selected ? Math.round(selected.price * 100) : null

  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] lg:items-start">
      <div className="grid gap-6">
        <form
          // Never a GET: should it be sent before its script runs, the address stays out of the URL.
          method="post"
          noValidate
          onSubmit={getRates}
          className="grid gap-6"
          aria-labelledby="shipping-address-heading"
        >
          <section className="rounded-lg border border-line bg-surface p-4 sm:p-6">
            <h2 id="shipping-address-heading" className="mb-4 text-xl font-bold uppercase">
              Shipping Address
            </h2>
            <div className="grid gap-4">
              <TextField
                {...FIELD.email}
                id="email"
                label="E-mail"
                value={draft.email}
                onChange={setEmail}
                error={errors.email}
                hint="We send your order confirmation here."
              />
              <CheckoutAddress
                kind="shipping"
                address={draft.shipping}
                errors={errors}
                onChange={(key, value) => setAddressField('shipping', key, value)}
              />
            </div>
          </section>

          <section
            className="rounded-lg border border-line bg-surface p-4 sm:p-6"
            aria-labelledby="billing-heading"
          >
            <h2 id="billing-heading" className="mb-4 text-xl font-bold uppercase">
              Billing Address
            </h2>
            <label className="flex cursor-pointer items-center gap-3 font-semibold">
              <input
                type="checkbox"
                className="h-5 w-5 accent-[var(--c-brand)]"
                checked={draft.separateBilling}
                aria-controls="billing-fields"
                onChange={(event) =>
                  setDraft((current) => ({ ...current, separateBilling: event.target.checked }))
                }
              />
              Use a different billing address
            </label>
            <div id="billing-fields" className="mt-4" hidden={!draft.separateBilling}>
              {draft.separateBilling && (
                <CheckoutAddress
                  kind="billing"
                  address={draft.billing}
                  errors={errors}
                  onChange={(key, value) => setAddressField('billing', key, value)}
                />
              )}
            </div>
          </section>

          {/* Disabled in the static HTML and until the saved draft is restored: a form sent before then
              would be a GET with the address in the URL (docs/decisions/009-forms-before-hydration.md). A disabled default button
              also stops Enter in a field from sending the form. */}
          <button
            type="submit"
            className="btn-primary w-full sm:w-auto sm:justify-self-start"
            disabled={!loaded || busy !== null}
          >
            {busy === 'rates' ? 'Calculating Rates...' : 'Get Shipping Rates'}
          </button>
        </form>

        <p role="status" className="sr-only">
          {status}
        </p>

        {rates && (
          <section className="rounded-lg border border-line bg-surface p-4 sm:p-6">
            <fieldset>
              <legend className="w-full">
                <h2 ref={ratesHeading} className="mb-4 text-xl font-bold uppercase">
                  Select Shipping Method
                </h2>
              </legend>
              <div className="grid gap-3">
                {rates.rates.map((rate) => {
                  const checked = rate.id === rates.selectedId
                  return (
                    <label
                      key={rate.id}
                      className={`flex cursor-pointer items-center gap-3 rounded-md border-2 p-4 transition-colors ${
                        checked ? 'border-brand bg-bg' : 'border-line hover:border-muted'
                      }`}
                    >
                      <input
                        type="radio"
                        name="shipping-rate"
                        value={rate.id}
                        checked={checked}
                        onChange={() => chooseRate(rate.id)}
                        className="h-5 w-5 shrink-0 accent-[var(--c-brand)]"
                      />
                      <span className="grid flex-1 gap-0.5">
                        <span className="font-semibold">{rate.serviceName}</span>
                        <span className="text-sm text-muted">
                          Estimated delivery: {rate.estimatedDays} business{' '}
                          {rate.estimatedDays === 1 ? 'day' : 'days'}
                        </span>
                        {rate.free && (
                          <span className="text-sm font-semibold text-success">Free shipping</span>
                        )}
                      </span>
                      <span className="font-bold">{formatCurrency(rate.price)}</span>
                    </label>
                  )
                })}
              </div>
            </fieldset>
          </section>
        )}
      </div>

      <aside
        className="rounded-lg border border-line bg-surface p-4 sm:p-6 lg:sticky lg:top-[calc(var(--header-h)+1rem)]"
        aria-labelledby="summary-heading"
      >
        <h2 id="summary-heading" className="mb-4 text-xl font-bold uppercase">
          Order Summary
        </h2>
        <ul className="grid gap-2 text-sm">
          {lines.map((line) => (
            <li
              key={`${line.product.id}:${line.selectedVariant ?? ''}`}
              className="flex justify-between gap-4"
            >
              <span>
                {line.product.name}
                {line.selectedVariant ? ` (${line.selectedVariant})` : ''} × {line.quantity}
              </span>
              <span>{formatCents(lineCents(line))}</span>
            </li>
          ))}
        </ul>
        <dl className="mt-4 grid gap-2 border-t border-line pt-4 text-sm">
          <div className="flex justify-between">
            <dt>Subtotal</dt>
            <dd>{formatCents(totals.subtotalCents)}</dd>
          </div>
          {discount && totals.discountCents > 0 && (
            <div className="flex justify-between text-success">
              <dt>Discount ({discount.code})</dt>
              <dd>−{formatCents(totals.discountCents)}</dd>
            </div>
          )}
          <div className="flex justify-between">
            <dt>Shipping</dt>
            <dd>{shippingCents === null ? 'Select a method' : formatCents(shippingCents)}</dd>
          </div>
          <div className="flex justify-between text-muted">
            <dt>Total weight</dt>
            <dd>{formatWeight(cartWeightOunces(lines))}</dd>
          </div>
          <div className="flex justify-between border-t border-line pt-2 text-base font-bold">
            <dt>Total</dt>
            <dd>{formatCents(totals.totalCents + (shippingCents ?? 0))}</dd>
          </div>
        </dl>
        <button
          type="button"
          className="btn-primary mt-6 w-full"
          disabled={!selected || busy !== null}
          onClick={continueToPayment}
        >
          {busy === 'session' ? 'Processing...' : 'Continue to Payment'}
        </button>
        {!selected && (
          <p className="mt-2 text-center text-xs text-muted">
            Get shipping rates and choose a method to continue.
          </p>
        )}
      </aside>
    </div>
  )
}
