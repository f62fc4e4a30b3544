import type { sessionStatusResponse } from '@core/contracts/checkout'
import { useEffect, useState } from 'react'
import { ApiError, apiRequest } from '../../lib/api'
import { clearCart } from '../cart/checkout-store'
import { forgetCheckout } from './draft'
import { STATUS_POLL_DELAYS_MS, shortOrderId } from './session'

type StatusAnswer = typeof sessionStatusResponse.static

type OrderState =
  | { kind: 'none' }
  | { kind: 'waiting'; sessionId: string }
  | { kind: 'found'; sessionId: string; orderNumber: string }
  | { kind: 'unknown'; sessionId: string }

const SESSION_ID = /^cs_(live|test)_[A-Za-z0-9_]{1,250}$/

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = window.setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      window.clearTimeout(timer)
      resolve()
    })
  })
}

/**
 * The dynamic part of /success: the Order ID from `session_id`, the order number once the payment
 * provider has confirmed the order, and emptying the cart and the applied discount (docs/product.md#success).
 */
export default function OrderConfirmation() {
  const [state, setState] = useState<OrderState>({ kind: 'none' })

  useEffect(() => {
    const sessionId = new URLSearchParams(window.location.search).get('session_id')?.trim() ?? ''
    if (sessionId === '') return
    // Arriving here with a session means the payment went through: the cart has become an order.
    clearCart()
    forgetCheckout()
    if (!SESSION_ID.test(sessionId)) {
      setState({ kind: 'unknown', sessionId })
      return
    }
    setState({ kind: 'waiting', sessionId })
    const controller = new AbortController()
    void (async () => {
      for (const delay of STATUS_POLL_DELAYS_MS) {
        await wait(delay, controller.signal)
        if (controller.signal.aborted) return
        try {
          const answer = await apiRequest<StatusAnswer>(
            'GET',
            `/api/checkout/session/${encodeURIComponent(sessionId)}/status`,
            undefined,
            { signal: controller.signal },
          )
          if (answer.orderNumber) {
            setState({ kind: 'found', sessionId, orderNumber: answer.orderNumber })
            return
          }
          if (answer.status === 'expired') break
        } catch (error) {
          if (controller.signal.aborted) return
          // An unknown session will not become known by asking again; a network blip might.
          if (error instanceof ApiError && error.status === 404) break
        }
      }
      if (!controller.signal.aborted) setState({ kind: 'unknown', sessionId })
    })()
    return () => controller.abort()
  }, [])

  if (state.kind === 'none') return null
  return (
    <div className="mx-auto mt-6 grid max-w-md gap-2 rounded-lg border border-line bg-bg p-4 text-left">
      <p>
        <span className="font-semibold">Order ID:</span>{' '}
        <span className="break-all font-mono">{shortOrderId(state.sessionId)}</span>
      </p>
      <p role="status" className="text-sm">
        {state.kind === 'found' && (
          <span className="text-base font-bold">Order number #{state.orderNumber}</span>
        )}
        {state.kind === 'waiting' && <span className="text-muted">Confirming your order…</span>}
        {state.kind === 'unknown' && (
          <span className="text-muted">Your order number will be in your confirmation e-mail.</span>
        )}
      </p>
    </div>
  )
}
