/** An order number from a URL segment: digits only, else null (answered as not found). */
export function orderIdFrom(segment: string): number | null {
  return /^\d{1,9}$/.test(segment) && Number(segment) > 0 ? Number(segment) : null
}
