import { expect, test } from 'bun:test'
import { NEWSLETTER_OUTCOMES, newsletterOutcome, newsletterOutcomePath } from '@core/rules/newsletter'

/** The teasers with a waitlist form (content/teasers, `waitlist: true`). */
const WAITLISTS = ['supply-drop', 'winter-line']

test('a success lands on the subscribed page, or the waitlist page for a teaser’s waitlist form', () => {
  for (const status of [200, 201]) {
    expect(newsletterOutcome(status, 'footer', WAITLISTS)).toBe('subscribed')
    expect(newsletterOutcome(status, 'home', WAITLISTS)).toBe('subscribed')
    expect(newsletterOutcome(status, undefined, WAITLISTS)).toBe('subscribed')
    expect(newsletterOutcome(status, 'supply-drop', WAITLISTS)).toBe('waitlisted')
    expect(newsletterOutcome(status, 'winter-line', WAITLISTS)).toBe('waitlisted')
  }
})

test('a refusal lands on the page that says why', () => {
  expect(newsletterOutcome(400, 'home', WAITLISTS)).toBe('invalid-email')
  expect(newsletterOutcome(422, 'supply-drop', WAITLISTS)).toBe('invalid-email')
  expect(newsletterOutcome(429, 'footer', WAITLISTS)).toBe('try-later')
  for (const status of [403, 404, 413, 500, 503]) {
    expect(newsletterOutcome(status, 'footer', WAITLISTS)).toBe('failed')
  }
})

test('every outcome has its own path under /newsletter/', () => {
  const paths = NEWSLETTER_OUTCOMES.map(newsletterOutcomePath)
  expect(new Set(paths).size).toBe(NEWSLETTER_OUTCOMES.length)
  for (const path of paths) expect(path).toMatch(/^\/newsletter\/[a-z-]+$/)
})
