/**
 * The shop's public origin, from PUBLIC_URL, or http://localhost:PORT when it is not set. The server's
 * links (e-mails, payment return URLs, the origin check) and the site build's absolute URLs (canonical
 * links, sitemap, robots.txt, social cards) are read with this one rule, so they agree whenever both see
 * the same environment, as they do under `npm start`.
 */
export const DEFAULT_PORT = 4321

export class PublicUrlError extends Error {}

export function publicUrlFrom(env: Record<string, string | undefined>): string {
  const port = env.PORT?.trim() || String(DEFAULT_PORT)
  const value = env.PUBLIC_URL?.trim() || `http://localhost:${port}`
  let parsed: URL
  try {
    parsed = new URL(value)
  } catch {
    throw new PublicUrlError(`PUBLIC_URL must be a URL (got "${value}")`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new PublicUrlError(`PUBLIC_URL must start with http: or https: (got "${value}")`)
  }
  return value.replace(/\/$/, '')
}
