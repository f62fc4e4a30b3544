import { Elysia } from 'elysia'
import { lifecycle } from '../lib/lifecycle'
import { HttpError } from './errors'

/** How long a client told the shop is shutting down should wait: by then another instance (or this one, restarted) answers. */
export const SHUTTING_DOWN_RETRY_SECONDS = 2

/**
 * The shutting-down answers (api/lib/lifecycle.ts): while draining every answer closes its connection;
 * once closing, a new request is answered 503 with Retry-After before anything is done for it. Every
 * request's arrival is noted, so the listener closes at a quiet moment.
 */
export const shutdown = new Elysia({ name: 'shutdown' }).onRequest(({ set }) => {
  lifecycle.lastRequestAt = performance.now()
  // The client opens a new connection for its next request (to another instance).
  if (lifecycle.draining) set.headers.connection = 'close'
  if (lifecycle.closing) {
    throw new HttpError(
      503,
      'The shop is restarting. Please try again in a moment.',
      {},
      { 'retry-after': String(SHUTTING_DOWN_RETRY_SECONDS), connection: 'close' },
    )
  }
})
