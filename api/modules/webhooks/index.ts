import { Elysia } from 'elysia'
import { MalformedWebhookEventError, type PaymentProvider, WebhookSignatureError } from '../../adapters/types'
import type { Clock } from '../../lib/clock'
import { jsonError } from '../../plugins/errors'
import type { WebhookService } from './service'

export function webhookRoutes(
  payments: PaymentProvider,
  clock: Clock,
  { webhooks }: { webhooks: WebhookService },
) {
  return new Elysia().post(
    '/api/stripe/webhook',
    async ({ request }) => {
      // The signature covers the exact bytes sent, so the body is read raw, never parsed and re-serialised.
      const raw = await request.text()
      let event: Awaited<ReturnType<PaymentProvider['verifyWebhook']>>
      try {
        event = await payments.verifyWebhook(
          raw,
          request.headers.get('stripe-signature'),
          clock.now().getTime(),
        )
      } catch (error) {
        if (error instanceof WebhookSignatureError) return jsonError(400, 'Invalid webhook signature.')
        // The sender's mistake, so a 400 that says what is wrong rather than a 500 that blames the shop.
        if (error instanceof MalformedWebhookEventError) return jsonError(400, error.message)
        throw error
      }
      const outcome = await webhooks.deliver(event)
      // Another process holds this event right now: a 2xx would tell the provider to stop delivering it.
      if (outcome.inFlight) {
        return jsonError(
          503,
          'This event is being processed. Please deliver it again.',
          {},
          { 'retry-after': String(webhooks.leaseSeconds) },
        )
      }
      return { received: true, duplicate: outcome.duplicate, status: outcome.status }
    },
    { detail: { summary: "The payment provider's signed events", tags: ['Operations'] }, parse: 'none' },
  )
}
