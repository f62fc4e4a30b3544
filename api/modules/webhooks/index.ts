import { Elysia } from 'elysia'
import { MalformedWebhookEventError, WebhookSignatureError } from '../../adapters/types'
import type { AppDeps } from '../../deps'
import { jsonError } from '../../plugins/errors'
import { createWebhookService } from './service'

export function webhookRoutes(deps: AppDeps) {
  const webhooks = createWebhookService(deps)
  return new Elysia().post(
    '/api/stripe/webhook',
    async ({ request }) => {
      // The signature covers the exact bytes sent, so the body is read raw, never parsed and re-serialised.
      const raw = await request.text()
      let event: Awaited<ReturnType<typeof deps.payments.verifyWebhook>>
      try {
        event = await deps.payments.verifyWebhook(
          raw,
          request.headers.get('stripe-signature'),
          deps.clock.now().getTime(),
        )
      } catch (error) {
        if (error instanceof WebhookSignatureError) return jsonError(400, 'Invalid webhook signature.')
        // The sender's mistake, so a 400 that says what is wrong rather than a 500 that blames the shop.
        if (error instanceof MalformedWebhookEventError) return jsonError(400, error.message)
        throw error
      }
      const outcome = await webhooks.process(event)
      return { received: true, duplicate: outcome.duplicate, status: outcome.status }
    },
    { parse: 'none' },
  )
}
