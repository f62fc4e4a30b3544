import {
  DEMO_SESSION_ID,
  demoPayBody,
  demoPayResponse,
  demoSessionSummary,
  publishableKeyResponse,
  sessionIdParams,
} from '@core/contracts/payments'
import { formatOrderNumber } from '@core/rules/order-status'
import { Elysia } from 'elysia'
import type { DemoPaymentProvider, PaymentProvider } from '../../adapters/types'
import { crashPoint } from '../../lib/crash-points'
import { conflict, notFound } from '../../lib/domain-errors'
import { HttpError } from '../../plugins/errors'
import type { RateLimitPlugin } from '../../plugins/rate-limit'
import type { WebhookService } from '../webhooks/service'

const PAY_LIMIT = {
  name: 'demo-pay',
  max: 20,
  windowMs: 60 * 1000,
  message: 'Too many payment attempts. Please wait a minute and try again.',
}

function isDemo(provider: PaymentProvider): provider is DemoPaymentProvider {
  return provider.name === 'demo' && 'preparePayment' in provider && 'describeSession' in provider
}

const ALREADY_PAID = 'This order has already been paid.'

export function paymentRoutes(
  provider: PaymentProvider,
  { webhooks }: { webhooks: WebhookService },
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
      {
        detail: {
          summary: "The payment provider's publishable key (null with the demo provider)",
          tags: ['Checkout'],
        },
        response: { 200: publishableKeyResponse },
      },
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
      {
        detail: { summary: 'What a demo checkout session is for (nothing personal)', tags: ['Checkout'] },
        params: sessionIdParams,
        response: { 200: demoSessionSummary },
      },
    )
    .post(
      '/api/demo-payments/:sessionId/pay',
      async ({ params, body }) => {
        if (!DEMO_SESSION_ID.test(params.sessionId)) throw notFound('Checkout session not found.')
        const result = await provider.preparePayment(params.sessionId, body)
        if (!result.ok)
          throw new HttpError(result.status, result.message, result.status === 402 ? { declined: true } : {})
        if (!result.alreadyPaid) {
          // The event is kept before the session is marked paid, so no crash can leave a payment without it.
          await webhooks.store(result.event)
          crashPoint('event-stored')
          if (!(await provider.markPaid(params.sessionId))) throw conflict(ALREADY_PAID)
          crashPoint('session-paid')
        }
        // The same path a Stripe webhook takes: the order is made by the webhook service, nowhere else. Paying
        // a session again finishes what an interrupted payment started, and is refused once that is done.
        const outcome = await webhooks.process(result.event)
        if (result.alreadyPaid && (outcome.duplicate || outcome.inFlight)) throw conflict(ALREADY_PAID)
        return {
          paid: true as const,
          sessionId: params.sessionId,
          returnUrl: `/success?session_id=${encodeURIComponent(params.sessionId)}`,
          orderNumber: outcome.orderId === null ? null : formatOrderNumber(outcome.orderId),
        }
      },
      {
        detail: { summary: 'Pay a demo checkout session with a test card', tags: ['Checkout'] },
        params: sessionIdParams,
        body: demoPayBody,
        parse: 'json',
        response: { 200: demoPayResponse },
        rateLimit: PAY_LIMIT,
      },
    )
}
