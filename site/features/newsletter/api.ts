import type { SubscribeBody } from '../../../api/modules/newsletter/model'

export type NewsletterSource = NonNullable<SubscribeBody['source']>

export type SubscribeResult = { ok: true; alreadySubscribed: boolean } | { ok: false; error: string }

const FALLBACK_ERROR = 'Something went wrong. Please try again.'

/** POST /api/newsletter: 201 new, 200 already on the list, 4xx `{ error }` shown to the visitor as is. */
export async function subscribe(email: string, source: NewsletterSource): Promise<SubscribeResult> {
  let response: Response
  try {
    response = await fetch('/api/newsletter', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email, source }),
    })
  } catch {
    return { ok: false, error: 'Could not reach the shop. Check your connection and try again.' }
  }
  if (response.ok) return { ok: true, alreadySubscribed: response.status === 200 }
  const body: unknown = await response.json().catch(() => null)
  const error =
    typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string'
      ? (body as { error: string }).error
      : FALLBACK_ERROR
  return { ok: false, error }
}

/** Spec §5: the home and shop capture only go ahead when the value contains '@'. */
export function looksLikeEmail(value: string): boolean {
  return value.includes('@')
}

/** The first-order code the 'Welcome to the Crew' dialog hands out (10% off, first paid order only). */
export const CREW_DISCOUNT_CODE = 'CREW10'
