/**
 * What staff type in the dashboard's order search, read the same way by the API and the dashboard
 * (docs/product.md#staff-calls): an order number, an e-mail or a name. Each kind is answered from an index
 * (docs/decisions/025-staff-order-search.md).
 */

/** Longer text is refused: no e-mail or name the shop keeps is longer, and it would only cost work. */
export const ORDER_QUERY_MAX_LENGTH = 100

export type OrderQuery =
  /** '42', '000042' or '#000042': that order. */
  | { kind: 'number'; number: number }
  /**
   * Text with an '@': the start of an e-mail, or a whole one, compared as customer keys
   * (core/rules/customer.ts), so 'Dana@Example.com' finds 'dana+shop@example.com'.
   */
  | { kind: 'email'; text: string }
  /** Anything else: the start of the customer's name, or of their e-mail, whatever the case. */
  | { kind: 'name'; text: string }

/** Whitespace runs become one space, so 'Dana  Cole ' finds 'Dana Cole'. */
function tidy(raw: string): string {
  return raw.trim().replace(/\s+/g, ' ')
}

/** The search staff typed, or null when there is none (empty or blank). Call orderQueryProblem first. */
export function parseOrderQuery(raw: string): OrderQuery | null {
  const text = tidy(raw)
  if (text === '') return null
  const number = /^#?\s*(\d{1,9})$/.exec(text)
  if (number?.[1]) return { kind: 'number', number: Number(number[1]) }
  return text.includes('@') ? { kind: 'email', text } : { kind: 'name', text }
}

/** Why the search text is refused, or null when it is fine. */
export function orderQueryProblem(raw: string): string | null {
  return tidy(raw).length > ORDER_QUERY_MAX_LENGTH
    ? `q must be at most ${ORDER_QUERY_MAX_LENGTH} characters: an order number, an e-mail or a name.`
    : null
}

/** A calendar day as the date field sends it: 'YYYY-MM-DD', a real date (no 31 April). */
export function parseCalendarDate(raw: string): { year: number; month: number; day: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw)
  if (!match) return null
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (year < 2000 || year > 9999) return null
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null
  return { year, month, day }
}

/** What the date filters must look like, said in the 422's message. */
export function dateProblem(field: 'from' | 'to'): string {
  return `${field} must be a date like 2026-03-01.`
}

export const DATE_ORDER_PROBLEM = 'from must be on or before to.'
