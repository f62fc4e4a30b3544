/** Where a search goes: /shop?search=… for a query that is not blank once trimmed, otherwise nowhere. */
export function searchHref(query: string): string | null {
  const trimmed = query.trim()
  return trimmed ? `/shop?search=${encodeURIComponent(trimmed)}` : null
}
