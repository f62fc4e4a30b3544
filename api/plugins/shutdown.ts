import { Elysia } from 'elysia'
import { lifecycle } from '../lib/lifecycle'
import { HttpError } from './errors'

/** How long a client told the shop is shutting down should wait: by then another instance answers. */
export const SHUTTING_DOWN_RETRY_SECONDS = 2

/**
 * Once the shop is closing (api/lib/lifecycle.ts), a new request is answered 503 with Retry-After before
 * anything is done for it. Used after the security headers are set, so this answer carries them too.
 */
export const shutdown = new Elysia({ name: 'shutdown' }).onRequest(() => {
  if (lifecycle.closing) {
    throw new HttpError(
      503,
      'The shop is restarting. Please try again in a moment.',
      {},
      { 'retry-after': String(SHUTTING_DOWN_RETRY_SECONDS), connection: 'close' },
    )
  }
})
