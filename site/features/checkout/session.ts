/** Pure rules for /checkout and /success: the client secret, the demo session behind it, the Order ID. */

export const MISSING_SESSION = 'Missing checkout session'
export const INVALID_SECRET = 'Invalid client secret format'

export type SecretCheck = { ok: true; secret: string } | { ok: false; message: string }

/** docs/product.md#checkout: a client secret starts with cs_live_ or cs_test_. */
export function checkClientSecret(raw: string | null): SecretCheck {
  const secret = raw?.trim() ?? ''
  if (secret === '') return { ok: false, message: MISSING_SESSION }
  if (!/^cs_(live|test)_/.test(secret)) return { ok: false, message: INVALID_SECRET }
  return { ok: true, secret }
}

/** The API's pattern for demo session ids (core/contracts/payments.ts). */
const DEMO_SESSION_ID = /^cs_test_demo_[A-Za-z0-9]{1,64}$/

/**
 * The demo provider's client secret is `<session id>_secret_<random>`, as Stripe's is; the session id is
 * what the pay call addresses. Null when the secret does not belong to a demo session.
 */
export function demoSessionId(secret: string): string | null {
  const index = secret.indexOf('_secret_')
  if (index <= 0) return null
  const id = secret.slice(0, index)
  return DEMO_SESSION_ID.test(id) ? id : null
}

/** docs/product.md#success: the first 20 characters and an ellipsis. */
export function shortOrderId(sessionId: string): string {
  return `${sessionId.slice(0, 20)}...`
}

/**
 * Waits before each status check on /success: quick at first (the demo and most webhooks are done in
 * a second), then backing off, about 30 s in all, so a slow webhook still shows its order number.
 */
export const STATUS_POLL_DELAYS_MS: readonly number[] = [0, 1000, 2000, 3000, 4000, 5000, 6000, 9000]

/** Only our own success page may be the target of the demo's return URL. */
export function isSuccessUrl(url: string): boolean {
  return /^\/success\?session_id=[A-Za-z0-9_%]+$/.test(url)
}
