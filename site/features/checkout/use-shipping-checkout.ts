import { codeThatCounts } from '@core/rules/discounts'
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react'
import { useHydratedStore } from '../../components/shell/use-hydrated-store'
import { apiRequest } from '../../lib/api'
import { isPublicUser } from '../account/api'
import { loadUser } from '../account/auth-store'
import { fitCartToCatalogue } from '../cart/catalogue-now'
import { discountApplied } from '../cart/checkout-store'
import { openSessionField, rememberOpenSession } from '../cart/open-session'
import { type CartLine, cartLines } from '../cart/store'
import { cartTotals } from '../cart/totals'
import { liveCatalog } from '../catalog/stock'
import { dismissToast, showToast } from '../toasts/store'
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
  withAddressField,
  withoutError,
  withTypedFields,
} from './form'
import { isStaleQuote, ORDER_TOO_LOW, ratesErrorToast, SESSION_FAILED, sessionErrorToast } from './messages'
import { prefillFromAccount } from './prefill'
import {
  isBelowMinimumCharge,
  quoteBinding,
  type Rate,
  ratesRequest,
  type SessionAnswer,
  sessionRequest,
} from './requests'

export type Busy = 'rates' | 'session' | null

/** What the static HTML was rendered with; one constant so hydration sees a stable value. */
const NO_LINES: CartLine[] = []

/**
 * The /shipping page's state (docs/product.md#shipping): the draft kept in this tab, its field errors, the
 * rates quoted for it, and the two calls, rates and the checkout session. The views only render it.
 */
export function useShippingCheckout() {
  const lines = useHydratedStore(cartLines, NO_LINES)
  const discount = useHydratedStore(discountApplied, null)
  // A code the cart has fallen below the minimum of counts for nothing, so it is not sent (docs/product.md#cart).
  const discountCode = codeThatCounts(cartTotals(lines).subtotalCents, discount)
  const form = useDraftForm()
  const { draft, loaded, saved, setSaved } = form
  const [busy, setBusy] = useState<Busy>(null)
  const [status, setStatus] = useState('')
  const ratesHeading = useRef<HTMLHeadingElement>(null)
  // Set when rates arrive (a fresh object each time): the effect below brings the shopper to them once they
  // are on the page. An animation frame asked for with the answer could run before React had rendered them
  // on a busy phone, and the focus then stayed on the disabled button.
  const [ratesArrived, setRatesArrived] = useState<{ fromButton: boolean } | null>(null)

  useEffect(() => {
    if (loaded && lines.length === 0) window.location.replace('/cart')
  }, [loaded, lines.length])

  // A cart opened here without /cart first shows what checkout will charge too (docs/product.md#cart);
  // without the catalogue's answer it shows as saved, and the server prices the payment either way.
  useEffect(() => {
    liveCatalog().then(fitCartToCatalogue, () => undefined)
  }, [])

  const binding = useMemo(() => quoteBinding(draft, lines, discountCode), [draft, lines, discountCode])
  // Rates belong to the address and cart they were quoted for: any change there and they are gone.
  const rates = saved && saved.binding === binding ? saved : null
  const selected = rates?.rates.find((rate) => rate.id === rates.selectedId) ?? null

  useEffect(() => {
    if (!loaded) return
    saveCheckout({ draft, rates })
  }, [loaded, draft, rates])

  useEffect(() => {
    if (!ratesArrived) return
    const heading = ratesHeading.current
    heading?.scrollIntoView({ block: 'nearest', behavior: 'smooth' })
    // The button pressed was disabled while the rates were asked for, which may drop the focus to the
    // page: a keyboard or screen reader carries on from the rates, not from the top.
    if (ratesArrived.fromButton || document.activeElement === document.body) {
      heading?.focus({ preventScroll: true })
    }
  }, [ratesArrived])

  useEffect(() => {
    if (saved && !rates) setSaved(null)
  }, [saved, rates, setSaved])

  async function getRates(event: FormEvent) {
    event.preventDefault()
    if (busy) return
    const problem = ratesProblem(draft)
    if (problem.kind !== 'none') return form.report(problem)
    form.clearProblems()
    // Pressed from the button (not Enter in a field): it is disabled while the rates are asked for.
    const fromButton = document.activeElement instanceof HTMLButtonElement
    setBusy('rates')
    setStatus('Calculating shipping rates…')
    const requestBinding = binding
    try {
      const answer = await apiRequest<{ rates: Rate[] }>(
        'POST',
        '/api/shipping/rates',
        // The cart's open session's use of the code is the cart's own (docs/decisions/032).
        { ...ratesRequest(draft, lines, discountCode), ...openSessionField() },
      )
      const fresh = answer.rates
      setSaved({ binding: requestBinding, savedAt: Date.now(), rates: fresh, selectedId: null })
      setStatus(
        `${fresh.length} shipping ${fresh.length === 1 ? 'method' : 'methods'} available. Select one below.`,
      )
      setRatesArrived({ fromButton })
    } catch (error) {
      setStatus('')
      showToast({ ...ratesErrorToast(error), variant: 'error' })
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
    if (problem.kind !== 'none') return form.report(problem)
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
    form.clearProblems()
    setBusy('session')
    try {
      const answer = await apiRequest<SessionAnswer>(
        'POST',
        '/api/create-checkout-session',
        // The new session ends the cart's earlier one, if still open (docs/decisions/032).
        { ...sessionRequest(draft, lines, selected, discountCode), ...openSessionField() },
      )
      if (!answer?.url) throw new Error(SESSION_FAILED)
      rememberOpenSession(answer.sessionId, lines)
      window.location.assign(answer.url)
      // Stay busy: the page is leaving, a second click must not start a second session.
    } catch (error) {
      if (isStaleQuote(error)) setSaved(null)
      showToast({ ...sessionErrorToast(error), variant: 'error' })
      setBusy(null)
    }
  }

  return {
    draft,
    errors: form.errors,
    loaded,
    setEmail: form.setEmail,
    setAddressField: form.setAddressField,
    setSeparateBilling: form.setSeparateBilling,
    lines,
    discount,
    rates,
    selected,
    busy,
    status,
    ratesHeading,
    getRates,
    chooseRate,
    continueToPayment,
  }
}

/**
 * The draft and its field errors: restored from this tab (or the account's saved address) once the page
 * runs, typed into field by field, and marked where a step finds something missing (docs/product.md#forms).
 */
function useDraftForm() {
  const [loaded, setLoaded] = useState(false)
  const [draft, setDraft] = useState<CheckoutDraft>(emptyDraft)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [saved, setSaved] = useState<SavedRates | null>(null)
  // A fresh object per request, so asking to focus the same field twice still moves focus.
  const [focusTarget, setFocusTarget] = useState<{ id: FieldKey } | null>(null)
  // The toast that named the last problem: taken away once the step goes through, so 'Please enter a valid
  // ZIP code' does not stay on screen over the rates the corrected ZIP brought.
  const problemToast = useRef<number | null>(null)

  // Restore what was typed in this tab; an empty cart has nothing to ship (docs/product.md#shipping).
  useEffect(() => {
    if (cartLines.get().length === 0) {
      window.location.replace('/cart')
      return
    }
    const restored = loadSavedCheckout()
    // On a slow phone the shopper may have typed into the static page's fields before this ran: the
    // fields have handed it to the draft by now, and it stays.
    setDraft((typed) => withTypedFields(restored.draft, typed))
    setSaved(restored.rates)
    setLoaded(true)
    // A signed-in customer starts with their e-mail and saved address (loadUser asks the server only when
    // the signed_in cookie says someone may be signed in).
    loadUser().then((user) => {
      if (isPublicUser(user)) setDraft((current) => prefillFromAccount(current, user))
    })
  }, [])

  useEffect(() => {
    if (focusTarget) document.getElementById(focusTarget.id)?.focus()
  }, [focusTarget])

  return {
    loaded,
    draft,
    errors,
    setErrors,
    saved,
    setSaved,
    setEmail(value: string) {
      setDraft((current) => ({ ...current, email: value }))
      setErrors((current) => withoutError(current, 'email'))
    },
    setAddressField(kind: 'shipping' | 'billing', key: AddressKey, value: string) {
      setDraft((current) => withAddressField(current, kind, key, value))
      setErrors((current) => withoutError(current, `${kind}.${key}`))
    },
    setSeparateBilling(separate: boolean) {
      setDraft((current) => ({ ...current, separateBilling: separate }))
    },
    report(problem: Exclude<Problem, { kind: 'none' }>) {
      setErrors(problem.fields)
      const first = firstField(problem.fields)
      if (first) setFocusTarget({ id: first })
      if (problemToast.current !== null) dismissToast(problemToast.current)
      problemToast.current = showToast({
        title: problem.title,
        description: problem.description,
        variant: 'error',
      })
    },
    /** The step found nothing missing: no field marked, and the toast that named the last problem gone. */
    clearProblems() {
      setErrors({})
      if (problemToast.current !== null) dismissToast(problemToast.current)
      problemToast.current = null
    },
  }
}
