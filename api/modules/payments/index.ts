import { Elysia } from 'elysia'
import type { DemoPaymentProvider } from '../../adapters/demo-payments'
import type { PaymentProvider } from '../../adapters/types'
import { HttpError, notFound } from '../../plugins/errors'
import type { RateLimitPlugin } from '../../plugins/rate-limit'
import { formatOrderNumber } from '../../rules/order-status'
import type { Services } from '../../services'
import {
  DEMO_SESSION_ID,
  demoPayBody,
  demoPayResponse,
  publishableKeyResponse,
  sessionIdParams,
} from './model'

const PAY_LIMIT = {
  name: 'demo-pay',
  max: 20,
  windowMs: 60 * 1000,
  message: 'Too many payment attempts. Please wait a minute and try again.',
}

function isDemo(provider: PaymentProvider): provider is DemoPaymentProvider {
  return provider.name === 'demo' && 'pay' in provider && 'describeSession' in provider
}

export function paymentRoutes(
  provider: PaymentProvider,
  { webhooks }: Pick<Services, 'webhooks'>,
  limits: RateLimitPlugin,
) {
  const app = new Elysia()
    .use(limits)
    .get(
      '/api/stripe/publishable-key',
      () =>
        provider.publishableKey
          ? { publishableKey: provider.publishableKey }
          : { publishableKey: null, demo: true as const },
      { response: { 200: publishableKeyResponse } },
    )
  // The demo form's endpoints exist only while the demo provider is the payment provider.
  if (!isDemo(provider)) return app

  return app
    .get(
      '/api/demo-payments/:sessionId',
      async ({ params, set }) => {
        set.headers['cache-control'] = 'no-store'
        if (!DEMO_SESSION_ID.test(params.sessionId)) throw notFound('Checkout session not found.')
        const summary = await provider.describeSession(params.sessionId)
        if (!summary) throw notFound('Checkout session not found.')
        return summary
      },
      { params: sessionIdParams },
    )
    .post(
      '/api/demo-payments/:sessionId/pay',
      async ({ params, body }) => {
        if (!DEMO_SESSION_ID.test(params.sessionId)) throw notFound('Checkout session not found.')
        const result = await provider.pay(params.sessionId, body)
        if (!result.ok)
          throw new HttpError(result.status, result.message, result.status === 402 ? { declined: true } : {})
        // The same path a Stripe webhook takes: the order is made by the webhook service, nowhere else.
        const outcome = await webhooks.process(result.event)
        return {
          paid: true as const,
          sessionId: params.sessionId,
          returnUrl: `/success?session_id=${encodeURIComponent(params.sessionId)}`,
          orderNumber: outcome.orderId === null ? null : formatOrderNumber(outcome.orderId),
        }
      },
      {
        params: sessionIdParams,
        body: demoPayBody,
        response: { 200: demoPayResponse },
        rateLimit: PAY_LIMIT,
      },
    )
}
