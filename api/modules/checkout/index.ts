import { createSessionBody, createSessionResponse, sessionStatusResponse } from '@core/contracts/checkout'
import { DISCOUNT_ATTEMPT_LIMIT } from '@core/contracts/discounts'
import { Elysia, t } from 'elysia'
import type { Clock } from '../../lib/clock'
import { type RateLimitPlugin, sendsDiscountCode } from '../../plugins/rate-limit'
import { sessionAuth } from '../auth/guard'
import type { AuthService } from '../auth/service'
import type { CheckoutService } from './service'

const SESSION_LIMIT = {
  name: 'checkout',
  max: 30,
  windowMs: 60 * 1000,
  message: 'Too many checkout attempts. Please wait a minute and try again.',
}

/** The answer says whether a code is valid, so a code sent here counts as a guess too. */
const sessionLimits = (body: unknown) =>
  sendsDiscountCode(body) ? [SESSION_LIMIT, DISCOUNT_ATTEMPT_LIMIT] : [SESSION_LIMIT]

export function checkoutRoutes(
  { checkout, auth }: { checkout: CheckoutService; auth: AuthService },
  limits: RateLimitPlugin,
  clock: Clock,
) {
  return (
    new Elysia()
      .use(limits)
      .use(sessionAuth(auth, clock))
      // A signed-in customer's order joins their account (its order history); a guest's joins none.
      .post(
        '/api/create-checkout-session',
        ({ body, user }) => checkout.createSession(body, user?.id ?? null),
        {
          detail: { summary: 'Start a checkout session; the server prices the cart', tags: ['Checkout'] },
          maybeSignedIn: true,
          body: createSessionBody,
          parse: 'json',
          response: { 200: createSessionResponse },
          rateLimit: sessionLimits,
        },
      )
      .get(
        '/api/checkout/session/:id/status',
        async ({ params, set }) => {
          set.headers['cache-control'] = 'no-store'
          return checkout.status(params.id)
        },
        {
          detail: { summary: 'Whether a checkout session is paid, and its order number', tags: ['Checkout'] },
          params: t.Object({ id: t.String({ maxLength: 300 }) }),
          response: { 200: sessionStatusResponse },
        },
      )
  )
}
