/**
 * Stripe.js, loaded only on /checkout and only when the shop runs with real Stripe keys. Just the two
 * calls we use are typed, so no Stripe package is bundled.
 */

export const STRIPE_JS_URL = 'https://js.stripe.com/v3'

export interface EmbeddedCheckout {
  mount(target: string | HTMLElement): void
  destroy(): void
}

export interface StripeClient {
  initEmbeddedCheckout(options: { fetchClientSecret: () => Promise<string> }): Promise<EmbeddedCheckout>
}

type StripeFactory = (publishableKey: string) => StripeClient

declare global {
  interface Window {
    Stripe?: StripeFactory
  }
}

export const SCRIPT_LOAD_FAILED = 'Failed to load the payment script'
export const SCRIPT_NOT_LOADED = 'Payment script not loaded'

let loading: Promise<StripeFactory> | null = null

export function loadStripe(): Promise<StripeFactory> {
  if (window.Stripe) return Promise.resolve(window.Stripe)
  loading ??= new Promise<StripeFactory>((resolve, reject) => {
    const script = document.createElement('script')
    script.src = STRIPE_JS_URL
    script.async = true
    script.onload = () => (window.Stripe ? resolve(window.Stripe) : reject(new Error(SCRIPT_NOT_LOADED)))
    script.onerror = () => {
      loading = null
      script.remove()
      reject(new Error(SCRIPT_LOAD_FAILED))
    }
    document.head.append(script)
  })
  return loading
}
