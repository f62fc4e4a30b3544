/**
 * Stripe.js, loaded only on /checkout and only when the shop runs with real Stripe keys. Just the two
 * calls we use are typed, so no Stripe package is bundled.
 */

/**
 * Stripe.js is versioned with the API: this release train matches the server SDK's API version
 * (2026-10-28.endive), which creates sessions with ui_mode 'embedded_page'.
 */
export const STRIPE_JS_URL = 'https://js.stripe.com/endive/stripe.js'

export interface EmbeddedCheckout {
  mount(target: string | HTMLElement): void
  destroy(): void
}

type EmbeddedCheckoutFactory = (options: {
  fetchClientSecret: () => Promise<string>
}) => Promise<EmbeddedCheckout>

export interface StripeClient {
  /** The current name of the call on versioned Stripe.js. */
  createEmbeddedCheckoutPage?: EmbeddedCheckoutFactory
  /** The name older Stripe.js releases use for the same call. */
  initEmbeddedCheckout?: EmbeddedCheckoutFactory
}

/** Starts embedded checkout with whichever name this Stripe.js release provides. */
export function createEmbeddedCheckout(
  stripe: StripeClient,
  fetchClientSecret: () => Promise<string>,
): Promise<EmbeddedCheckout> {
  const create = stripe.createEmbeddedCheckoutPage ?? stripe.initEmbeddedCheckout
  if (!create) return Promise.reject(new Error(SCRIPT_NOT_LOADED))
  return create.call(stripe, { fetchClientSecret })
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
