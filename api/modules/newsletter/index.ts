import { NEWSLETTER_FORMS, type SubscribeBody, subscribeBody } from '@core/contracts/newsletter'
import { customerKey } from '@core/rules/customer'
import { newsletterOutcome, newsletterOutcomePath } from '@core/rules/newsletter'
import { Elysia } from 'elysia'
import type { RateCounter } from '../../lib/rate-counters'
import type { RateLimitPlugin } from '../../plugins/rate-limit'
import type { NewsletterService } from './service'

/**
 * Counted in memory (docs/decisions/007) per client address and per inbox (docs/decisions/020): 60 an hour
 * lets many shoppers behind one carrier or office address sign up; 5 an hour per inbox, whatever the
 * number of addresses, keeps anyone from signing one person up over and over.
 */
const SIGNUP_LIMIT = {
  name: 'newsletter',
  max: 60,
  windowMs: 60 * 60 * 1000,
  message: 'Too many sign-ups from here. Please try again later.',
}
const INBOX_LIMIT = {
  name: 'newsletter-inbox',
  max: 5,
  windowMs: 60 * 60 * 1000,
  message: 'Too many sign-ups for this e-mail. Please try again in an hour.',
}

const SUBSCRIBED = { subscribed: true, message: 'Welcome to the Crew!' } as const

/** A plain HTML form post: what a browser sends when no script has taken the form over. */
function isFormPost(request: Request): boolean {
  const type = request.headers.get('content-type') ?? ''
  return type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data')
}

export function newsletterRoutes(
  { newsletter, rateCounter }: { newsletter: NewsletterService; rateCounter: RateCounter },
  limits: RateLimitPlugin,
) {
  return new Elysia().use(limits).post(
    '/api/newsletter',
    async ({ body }) => {
      // By inbox: a +tag reaches the same one.
      await rateCounter(customerKey(body.email), INBOX_LIMIT)
      await newsletter.subscribe(body.email, body.source ?? 'footer')
      // The same answer whether the address is new or was on the list already: a stranger typing someone's
      // address must not learn whether they subscribed.
      return SUBSCRIBED
    },
    {
      detail: {
        summary: 'Subscribe to the newsletter (JSON, or a plain form post answered with a 303)',
        tags: ['Shop'],
      },
      body: subscribeBody([...NEWSLETTER_FORMS, ...newsletter.waitlists]),
      rateLimit: SIGNUP_LIMIT,
      // The islands send JSON and read JSON. A form sent before its island hydrated, or with JavaScript off,
      // is a page navigation instead: it gets a 303 to a page saying what happened, never JSON and never the
      // address in a URL (docs/decisions/009-forms-before-hydration.md). This maps the finished answer, so refusals from validation,
      // the rate limit and the error funnel get their page too.
      mapResponse({ request, body, responseValue, set }) {
        if (!isFormPost(request)) return
        const status =
          responseValue instanceof Response
            ? responseValue.status
            : typeof set.status === 'number'
              ? set.status
              : 200
        const source = (body as Partial<SubscribeBody> | undefined)?.source
        return new Response(null, {
          status: 303,
          headers: {
            location: newsletterOutcomePath(newsletterOutcome(status, source, newsletter.waitlists)),
          },
        })
      },
    },
  )
}
