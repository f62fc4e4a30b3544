import { isIP } from 'node:net'
import { Elysia } from 'elysia'
import { HttpError } from './errors'

export const MAX_JSON_BODY_BYTES = 64 * 1024

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Paths that outside services call directly (signed by them), so they carry no browser origin. */
const SERVER_TO_SERVER = ['/api/stripe/webhook']

const BODY_TOO_LARGE = 'The request body is too large.'

/**
 * Pages opened from an e-mailed link whose address carries a token (a reset or verification link): they
 * send no Referer at all, not even to the shop's own files and calls, so the token stays in the address
 * bar until the page clears it and goes nowhere else.
 */
const TOKEN_PAGES = /^\/(reset-password|verify-email)(\/|\/index\.html)?$/

/**
 * Whether a streamed body stays within `maxBytes`. A copy is read, so the route still gets the whole body
 * from the original; reading stops at the first chunk over the cap, so at most that much is ever held.
 */
async function streamedBodyFits(request: Request, maxBytes: number): Promise<boolean> {
  const reader = request.clone().body?.getReader()
  if (!reader) return true
  let received = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return true
    received += value.byteLength
    if (received > maxBytes) {
      // Not awaited: a tee'd copy's cancel settles only once the original is cancelled too.
      reader.cancel().catch(() => {})
      return false
    }
  }
}

/**
 * Whether a state-changing request was sent by the shop's own pages. Browsers that send Fetch Metadata say
 * so with `Sec-Fetch-Site: same-origin`; `same-site` is not enough (a sibling subdomain, perhaps someone
 * else's, is same-site). Older browsers send no Sec-Fetch-Site, and then the Origin must be the shop's.
 * A request with neither header is refused: browsers that send neither on a cross-site form post exist,
 * and the shop's own clients always send an Origin.
 */
function fromTheShop(request: Request, publicOrigin: string): boolean {
  const origin = request.headers.get('origin')
  const fetchSite = request.headers.get('sec-fetch-site')
  if (fetchSite !== null) {
    return fetchSite === 'same-origin' && (origin === null || isShopOrigin(origin, request, publicOrigin))
  }
  return origin !== null && isShopOrigin(origin, request, publicOrigin)
}

/**
 * The shop's origins: PUBLIC_URL, and the address the request was sent to when that address is an IP
 * literal or `localhost` (the shop opened at http://127.0.0.1:4321, or on a phone at the machine's LAN
 * address). A host name is never taken from the request: DNS rebinding points an attacker's name at this
 * server, and the attacker's page, on that name, is then same-origin with the Host it sends. No DNS
 * answer can make a browser send an IP literal as the Host, and `localhost` never leaves the machine, so
 * a page whose origin is that address and port was served by whatever listens there: the shop.
 */
function isShopOrigin(origin: string, request: Request, publicOrigin: string): boolean {
  if (origin === publicOrigin) return true
  let sender: URL
  try {
    sender = new URL(origin)
  } catch {
    return false
  }
  if (sender.protocol !== 'http:' && sender.protocol !== 'https:') return false
  if (!isAddressHost(sender.hostname)) return false
  // Host and port as the request names them (Bun builds request.url from the Host header); the port
  // matters, since another program on the same machine is another origin.
  return sender.host === new URL(request.url).host
}

/** An IPv4 or IPv6 literal, or exactly `localhost` (not a subdomain of it, which is a name like any other). */
function isAddressHost(hostname: string): boolean {
  return hostname === 'localhost' || isIP(hostname.replace(/^\[(.*)\]$/, '$1')) !== 0
}

/**
 * Security headers on every answer, a body size cap, and a same-origin check for state-changing calls.
 * The cookie is SameSite=Lax already; the origin check also stops cross-site form posts and old browsers.
 */
export function security(options: { publicUrl: string; production: boolean }) {
  const publicOrigin = new URL(options.publicUrl).origin
  return new Elysia({ name: 'security' }).onRequest(async ({ request, set }) => {
    set.headers['x-content-type-options'] = 'nosniff'
    set.headers['referrer-policy'] = TOKEN_PAGES.test(new URL(request.url).pathname)
      ? 'no-referrer'
      : 'strict-origin-when-cross-origin'
    set.headers['x-frame-options'] = 'DENY'
    set.headers['permissions-policy'] =
      'camera=(), microphone=(), geolocation=(), payment=(self "https://js.stripe.com")'
    set.headers['cross-origin-opener-policy'] = 'same-origin'
    // Pages carry their own script/style hashes in a CSP meta tag; these directives can only be sent as a header.
    set.headers['content-security-policy'] =
      "frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'"
    if (options.production) set.headers['strict-transport-security'] = 'max-age=63072000; includeSubDomains'

    if (!STATE_CHANGING.has(request.method)) return
    const url = new URL(request.url)

    const declared = request.headers.get('content-length')
    if (Number(declared ?? 0) > MAX_JSON_BODY_BYTES) throw new HttpError(413, BODY_TOO_LARGE)

    if (!SERVER_TO_SERVER.includes(url.pathname) && !fromTheShop(request, publicOrigin)) {
      throw new HttpError(403, 'This request must come from the shop itself.')
    }

    // A chunked body declares no length (or one that Transfer-Encoding overrides), so it is measured as it
    // arrives, before any route reads it; the webhook, which reads its raw body itself, is covered too.
    const streamed = declared === null || request.headers.has('transfer-encoding')
    if (streamed && request.body && !(await streamedBodyFits(request, MAX_JSON_BODY_BYTES))) {
      throw new HttpError(413, BODY_TOO_LARGE)
    }
  })
}
