import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { clientAddress, type RateLimiter } from '../../plugins/rate-limit'
import { subscribeBody } from './model'
import { createNewsletterService } from './service'

const SIGNUP_LIMIT = {
  max: 10,
  windowMs: 60 * 60 * 1000,
  message: 'Too many sign-ups from here. Please try again later.',
}

export function newsletterRoutes(deps: AppDeps, limit: RateLimiter) {
  const newsletter = createNewsletterService(deps.db, deps.clock)
  return new Elysia().post(
    '/api/newsletter',
    async ({ body, request, server, set }) => {
      await limit(`newsletter:${clientAddress(request, server, deps.config.trustProxy)}`, SIGNUP_LIMIT)
      const result = await newsletter.subscribe(body.email, body.source ?? 'footer')
      set.status = result.created ? 201 : 200
      return {
        subscribed: true,
        message: result.created ? 'Welcome to the Crew!' : 'You are already on the list.',
      }
    },
    { body: subscribeBody },
  )
}
