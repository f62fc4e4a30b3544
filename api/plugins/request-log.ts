import { randomUUID } from 'node:crypto'
import { Elysia, StatusMap } from 'elysia'
import { lifecycle } from '../lib/lifecycle'
import { log, redactPath } from '../lib/log'

/** An id a proxy in front of the shop may hand on: short, and nothing that could break a log line. */
const FORWARDED_ID = /^[A-Za-z0-9._:-]{1,100}$/

function statusOf(set: { status?: number | string }, response: unknown): number {
  if (response instanceof Response) return response.status
  if (typeof set.status === 'number') return set.status
  return (set.status && StatusMap[set.status as keyof typeof StatusMap]) || 200
}

/**
 * Gives every answer an `x-request-id` and writes one log line per request once it is answered: id,
 * method, path (no query string), status and milliseconds. Nothing a customer sent is logged, so bodies,
 * cookies, tokens and e-mail addresses stay out. The id a proxy sent is kept only when the shop is told a
 * proxy runs in front of it (TRUST_PROXY); otherwise anyone could write ids into the log.
 */
export function requestLog(options: { trustForwardedId: boolean }) {
  const open = new WeakMap<Request, { id: string; start: number }>()
  return new Elysia({ name: 'request-log' })
    .onRequest(({ request, set }) => {
      const forwarded = options.trustForwardedId ? request.headers.get('x-request-id') : null
      const id = forwarded && FORWARDED_ID.test(forwarded) ? forwarded : randomUUID()
      set.headers['x-request-id'] = id
      // Noted for a shutdown, which closes the listener once requests stop coming (api/server.ts).
      lifecycle.lastRequestAt = performance.now()
      // Shutting down: the client opens a new connection for its next request (to another instance).
      if (lifecycle.draining) set.headers.connection = 'close'
      open.set(request, { id, start: performance.now() })
    })
    .onAfterResponse({ as: 'global' }, ({ request, set, responseValue }) => {
      const entry = open.get(request)
      if (!entry || !log.infoEnabled) return
      const url = request.url
      const pathStart = url.indexOf('/', url.indexOf('//') + 2)
      log.info('request', {
        id: entry.id,
        method: request.method,
        path: redactPath(pathStart === -1 ? '/' : url.slice(pathStart)),
        status: statusOf(set, responseValue),
        ms: Math.round((performance.now() - entry.start) * 10) / 10,
      })
    })
}
