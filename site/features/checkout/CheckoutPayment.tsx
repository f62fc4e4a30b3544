import type { publishableKeyResponse } from '@core/contracts/payments'
import { useEffect, useState } from 'react'
import { ApiError, apiRequest } from '../../lib/api'
import { DemoPaymentForm, type DemoSummary } from './DemoPaymentForm'
import { checkClientSecret, demoSessionId } from './session'
import { createEmbeddedCheckout, type EmbeddedCheckout, loadStripe, SCRIPT_NOT_LOADED } from './stripe'

type PublishableKeyAnswer = typeof publishableKeyResponse.static

type Phase =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'stripe' }
  | { kind: 'demo'; sessionId: string; summary: DemoSummary }

const FETCH_KEY_FAILED = 'Failed to fetch publishable key'
const KEY_NOT_AVAILABLE = 'Publishable key not available'
const SESSION_GONE = 'This checkout session has expired. Please return to your cart and try again.'

class CheckoutError extends Error {}

async function publishableKey(): Promise<PublishableKeyAnswer> {
  try {
    return await apiRequest<PublishableKeyAnswer>('GET', '/api/stripe/publishable-key')
  } catch {
    throw new CheckoutError(FETCH_KEY_FAILED)
  }
}

async function demoSummary(secret: string): Promise<{ sessionId: string; summary: DemoSummary }> {
  const sessionId = demoSessionId(secret)
  if (!sessionId) throw new CheckoutError('Checkout session not found.')
  const summary = await apiRequest<DemoSummary>('GET', `/api/demo-payments/${encodeURIComponent(sessionId)}`)
  return { sessionId, summary }
}

/**
 * Checkout step 2 (docs/product.md#checkout): the provider's payment form for the session in `client_secret`:
 * Stripe's embedded checkout with real keys, the demo test-card form without them.
 */
export default function CheckoutPayment() {
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' })

  useEffect(() => {
    let cancelled = false
    let embedded: EmbeddedCheckout | null = null
    const params = new URLSearchParams(window.location.search)
    const raw = params.get('client_secret')
    // /login's 'Continue as Guest' lands here before any session exists: the guest path starts at the address.
    if (!raw && params.get('guest') === 'true') {
      window.location.replace('/shipping')
      return
    }

    async function start() {
      const check = checkClientSecret(raw)
      if (!check.ok) throw new CheckoutError(check.message)
      const key = await publishableKey()
      if (key.publishableKey === null) {
        if (!('demo' in key && key.demo)) throw new CheckoutError(KEY_NOT_AVAILABLE)
        const demo = await demoSummary(check.secret)
        if (cancelled) return
        if (demo.summary.status === 'complete') {
          window.location.replace(`/success?session_id=${encodeURIComponent(demo.sessionId)}`)
          return
        }
        if (demo.summary.status === 'expired') throw new CheckoutError(SESSION_GONE)
        setPhase({ kind: 'demo', ...demo })
        return
      }
      const Stripe = await loadStripe()
      if (cancelled) return
      if (typeof Stripe !== 'function') throw new CheckoutError(SCRIPT_NOT_LOADED)
      embedded = await createEmbeddedCheckout(Stripe(key.publishableKey), () => Promise.resolve(check.secret))
      if (cancelled) {
        embedded.destroy()
        return
      }
      embedded.mount('#checkout')
      setPhase({ kind: 'stripe' })
    }

    start().catch((error: unknown) => {
      if (cancelled) return
      const message =
        error instanceof CheckoutError || error instanceof ApiError || error instanceof Error
          ? error.message
          : 'Unknown error'
      setPhase({ kind: 'error', message })
    })
    return () => {
      cancelled = true
      embedded?.destroy()
    }
  }, [])

  return (
    <>
      {phase.kind === 'loading' && (
        <p role="status" className="flex items-center justify-center gap-3 py-16 text-muted">
          <span
            className="inline-block h-5 w-5 animate-spin rounded-full border-2 border-line border-t-brand motion-reduce:animate-none"
            aria-hidden="true"
          />
          Loading secure checkout...
        </p>
      )}
      {phase.kind === 'error' && (
        <div role="alert" className="rounded-lg border-2 border-danger bg-surface p-6 text-center">
          <h2 className="text-xl font-bold uppercase text-danger">Checkout Error</h2>
          <p className="mt-2">Failed to initialize checkout: {phase.message}</p>
          <a href="/cart" className="btn-primary mt-6">
            Return to Cart
          </a>
        </div>
      )}
      {phase.kind === 'demo' && <DemoPaymentForm sessionId={phase.sessionId} summary={phase.summary} />}
      {/* Stripe mounts its iframe here; it must exist before mount() is called. */}
      <div id="checkout" hidden={phase.kind !== 'stripe' && phase.kind !== 'loading'} />
    </>
  )
}
