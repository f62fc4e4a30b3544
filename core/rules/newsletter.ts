/**
 * Where a browser lands after sending a newsletter form as a plain HTML form, i.e. before the form's island
 * has hydrated or with JavaScript off (docs/decisions/009-forms-before-hydration.md). Each outcome is a static page built from
 * site/pages/newsletter/[outcome].astro; none of them carries the address.
 */
export const NEWSLETTER_OUTCOMES = [
  'subscribed',
  'waitlisted',
  'invalid-email',
  'try-later',
  'failed',
] as const

export type NewsletterOutcome = (typeof NEWSLETTER_OUTCOMES)[number]

/**
 * The page for the API's answer. 'Already on the list' is a success like any other: the page must not tell
 * a stranger whether an address was signed up before. `waitlists` are the forms that are the waitlist of a
 * line not out yet (a teaser's form, named by its file), rather than the newsletter itself.
 */
export function newsletterOutcome(
  status: number,
  source: unknown,
  waitlists: readonly string[],
): NewsletterOutcome {
  if (status < 400) {
    return typeof source === 'string' && waitlists.includes(source) ? 'waitlisted' : 'subscribed'
  }
  // 422 is a refused field, which from a browser is the e-mail; 400 an unreadable body (docs/decisions/015).
  if (status === 400 || status === 422) return 'invalid-email'
  if (status === 429) return 'try-later'
  return 'failed'
}

export function newsletterOutcomePath(outcome: NewsletterOutcome): string {
  return `/newsletter/${outcome}`
}
