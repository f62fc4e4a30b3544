/** Asking the server about a discount code, in the cart's terms (fixed amounts in cents). */
import type { DiscountTerms } from '@core/rules/discounts'
import { centsToDollars, dollarsToCents } from '@core/rules/money'
import { ApiError, apiRequest } from '../../lib/api'
import { openSessionField } from './open-session'

interface ValidateDiscountAnswer {
  code: string
  type: 'percentage' | 'fixed'
  /** A percent, or dollars for a fixed discount. */
  amount: number
  discountCents: number
  /** The subtotal the code needs, in dollars (0: none). */
  minSubtotal?: number
}

export type DiscountCheck =
  | { kind: 'valid'; terms: DiscountTerms }
  /**
   * The server refused the code; `message` is its `{ error }` when it gave one. `minSubtotalCents`: the
   * refusal was only the code's minimum, which it names (the code itself still applies).
   */
  | { kind: 'invalid'; message: string | null; minSubtotalCents?: number }
  /**
   * No usable answer: the code may still be good, so an applied one is kept. `message`: the server's, when it
   * asked to be asked later (429: too many checks from this address, which a whole office may share).
   */
  | { kind: 'unreachable'; message?: string }

/** The API's answer as DiscountTerms, or null when it is not one (docs/product.md#cart: success needs a code). */
export function termsFromAnswer(answer: unknown): DiscountTerms | null {
  if (typeof answer !== 'object' || answer === null) return null
  const { code, type, amount } = answer as Partial<ValidateDiscountAnswer>
  if (typeof code !== 'string' || code === '' || typeof amount !== 'number') return null
  // A minimum the answer does not state (or states oddly) is none: checkout asks the server again anyway.
  const minimumCents = statedMinimumCents(answer)
  const minimum = minimumCents === null ? {} : { minSubtotalCents: minimumCents }
  if (type === 'percentage')
    return Number.isInteger(amount) && amount > 0 ? { code, type, amount, ...minimum } : null
  if (type !== 'fixed') return null
  const cents = dollarsToCents(amount)
  return cents ? { code, type, amount: cents, ...minimum } : null
}

export async function checkDiscount(code: string, subtotalCents: number): Promise<DiscountCheck> {
  try {
    const answer = await apiRequest<unknown>('POST', '/api/validate-discount', {
      code,
      amount: centsToDollars(subtotalCents),
      // A use the cart's own open session holds is not counted against it (docs/decisions/032).
      ...openSessionField(),
    })
    const terms = termsFromAnswer(answer)
    return terms ? { kind: 'valid', terms } : { kind: 'invalid', message: null }
  } catch (error) {
    if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500)
      return { kind: 'unreachable' }
    const data = error.data as { error?: unknown } | undefined
    const message = typeof data?.error === 'string' && data.error ? data.error : null
    if (error.status === 429) return message ? { kind: 'unreachable', message } : { kind: 'unreachable' }
    const minimum = statedMinimumCents(error.data)
    return minimum === null
      ? { kind: 'invalid', message }
      : { kind: 'invalid', message, minSubtotalCents: minimum }
  }
}

/**
 * The minimum an answer or a refusal states (`minSubtotal`, in dollars), in cents; null when it states none
 * (0, or anything that is not an amount).
 */
export function statedMinimumCents(data: unknown): number | null {
  const minimum = (data as { minSubtotal?: unknown } | null | undefined)?.minSubtotal
  if (typeof minimum !== 'number') return null
  const cents = dollarsToCents(minimum)
  return cents !== null && cents > 0 ? cents : null
}
