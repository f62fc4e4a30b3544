// Whether a page asks search engines to leave it out of their index. Cart, checkout, account and staff pages
// do so on purpose (docs/architecture.md#performance-budgets), so Lighthouse's SEO score, which counts being indexable, is not their target.

/** The attributes of one HTML start tag, names lower-cased. */
function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const match of tag.matchAll(/([^\s=/<>"']+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/g)) {
    const [, name = '', double, single, bare] = match
    found.set(name.toLowerCase(), double ?? single ?? bare ?? '')
  }
  return found
}

/** True for a robots directive list holding `noindex` or `none` (noindex plus nofollow). */
function forbidsIndexing(directives: string): boolean {
  return directives
    .toLowerCase()
    .split(',')
    .map((directive) => directive.trim())
    .some((directive) => directive === 'noindex' || directive === 'none')
}

/**
 * Reads `<meta name="robots" content="noindex">` (any attribute order or quoting) and the X-Robots-Tag
 * header, the two ways a page says it.
 */
export function isNoindex(html: string, robotsHeader: string | null = null): boolean {
  if (robotsHeader && forbidsIndexing(robotsHeader)) return true
  for (const [tag] of html.matchAll(/<meta\b[^>]*>/gi)) {
    const attrs = attributes(tag)
    if (attrs.get('name')?.toLowerCase() === 'robots' && forbidsIndexing(attrs.get('content') ?? ''))
      return true
  }
  return false
}
