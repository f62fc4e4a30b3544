import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { clientAddress, type RateLimiter } from '../../plugins/rate-limit'
import { createSessionBody, createSessionResponse, sessionStatusResponse } from './model'
import { createCheckoutService } from './service'

const SESSION_LIMIT = {
  max: 30,
  windowMs: 60 * 1000,
  message: 'Too many checkout attempts. Please wait a minute and try again.',
}

export function checkoutRoutes(deps: AppDeps, limit: RateLimiter) {
  const checkout = createCheckoutService(deps)
  return new Elysia()
    .post(
      '/api/create-checkout-session',
      async ({ body, request, server }) => {
        await limit(`checkout:${clientAddress(request, server, deps.config.trustProxy)}`, SESSION_LIMIT)
        // Signed-in customers will pass their user id here once accounts exist; guests check out with none.
        return checkout.createSession(body, null)
      },
      { body: createSessionBody, response: { 200: createSessionResponse } },
    )
    .get(
      '/api/checkout/session/:id/status',
      async ({ params, set }) => {
        set.headers['cache-control'] = 'no-store'
        return checkout.status(params.id)
      },
      { params: t.Object({ id: t.String({ maxLength: 300 }) }), response: { 200: sessionStatusResponse } },
    )
}
