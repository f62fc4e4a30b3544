import { t } from 'elysia'

/** The site's own sign-up forms; each teaser's waitlist form sends its file name instead. */
export const NEWSLETTER_FORMS = ['footer', 'home', 'shop', 'popup'] as const

/**
 * A sign-up: the address, and the form it came from, one of `sources` (the sign-up forms and the published
 * teasers' waitlists, known when the app is built). Checked with the body, before any rate limit counts it.
 */
export function subscribeBody(sources: readonly string[]) {
  return t.Object({
    email: t.String({ maxLength: 254, error: 'Please enter your e-mail address.' }),
    source: t.Optional(
      t.UnionEnum([...sources] as [string, ...string[]], { error: 'Unknown sign-up form.' }),
    ),
  })
}

export interface SubscribeBody {
  email: string
  source?: string
}
