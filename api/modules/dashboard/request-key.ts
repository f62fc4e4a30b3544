/** The Idempotency-Key header staff's calls take (a refund, units received): printable ASCII, as Stripe takes it. */
import { invalid } from '../../lib/domain-errors'

const REQUEST_KEY = /^[\x21-\x7e]{1,255}$/

/** The header's key, or null when none was sent; a 422 for one the shop does not take. */
export function requestKeyOf(header: string | null | undefined): string | null {
  if (header === null || header === undefined) return null
  if (!REQUEST_KEY.test(header)) {
    throw invalid('The Idempotency-Key header must be 1 to 255 printable characters without spaces.')
  }
  return header
}
