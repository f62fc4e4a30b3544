import { Elysia } from 'elysia'
import type { RateLimitPlugin } from '../../plugins/rate-limit'
import type { Services } from '../../services'
import { subscribeBody } from './model'

const SIGNUP_LIMIT = {
  name: 'newsletter',
  max: 10,
  windowMs: 60 * 60 * 1000,
  message: 'Too many sign-ups from here. Please try again later.',
}

export function newsletterRoutes({ newsletter }: Pick<Services, 'newsletter'>, limits: RateLimitPlugin) {
  return new Elysia().use(limits).post(
    '/api/newsletter',
    async ({ body, set }) => {
      const result = await newsletter.subscribe(body.email, body.source ?? 'footer')
      set.status = result.created ? 201 : 200
      return {
        subscribed: true,
        message: result.created ? 'Welcome to the Crew!' : 'You are already on the list.',
      }
    },
    { body: subscribeBody, rateLimit: SIGNUP_LIMIT },
  )
}
