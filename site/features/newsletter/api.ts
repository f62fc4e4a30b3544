import type { SubscribeBody } from '@core/contracts/newsletter'
import { ApiError, apiRequest, NETWORK_ERROR_MESSAGE } from '../../lib/api'

export type NewsletterSource = NonNullable<SubscribeBody['source']>

export type SubscribeResult = { ok: true } | { ok: false; error: string }

/**
 * POST /api/newsletter through the site's API client. A success is the same 200 whether the address is new or
 * already on the list; a refusal (422/429) carries the server's `{ error }`, shown as it is.
 */
export async function subscribe(email: string, source: NewsletterSource): Promise<SubscribeResult> {
  try {
    await apiRequest('POST', '/api/newsletter', { email, source } satisfies SubscribeBody)
    return { ok: true }
  } catch (error) {
    return { ok: false, error: error instanceof ApiError ? error.message : NETWORK_ERROR_MESSAGE }
  }
}

/** docs/product.md#home: the home and shop capture only go ahead when the value contains '@'. */
export function looksLikeEmail(value: string): boolean {
  return value.includes('@')
}

/** The first-order code the 'Welcome to the Crew' dialog hands out (10% off, first paid order only). */
export const CREW_DISCOUNT_CODE = 'CREW10'
