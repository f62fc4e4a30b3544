/**
 * The limits on the account calls that make an account, send an e-mail or try a link (docs/product.md#limits).
 * Counted in the database (sharedRateCounter), so several server instances allow no more than one. Failed
 * password sign-ins have their own limit, per account and per address (sign-in-limit.ts).
 */
import type { Limit } from '../../lib/rate-counters'

const HOUR_MS = 60 * 60 * 1000
const QUARTER_HOUR_MS = 15 * 60 * 1000

export const AUTH_LIMITS = {
  // docs/decisions/020: room for many shoppers behind one carrier or office address; one address still
  // makes at most 30 accounts (30 password hashes, 30 answers about taken e-mails) an hour.
  register: {
    name: 'register',
    max: 30,
    windowMs: HOUR_MS,
    message: 'Too many sign-ups from here. Please try again later.',
  },
  registerPerInbox: {
    name: 'register-inbox',
    max: 5,
    windowMs: HOUR_MS,
    message: 'Too many sign-ups for this e-mail. Please try again in an hour.',
  },
  resetPerAddress: {
    name: 'reset-request',
    max: 5,
    windowMs: QUARTER_HOUR_MS,
    message: 'Too many reset requests from here. Please wait 15 minutes and try again.',
  },
  resetPerEmail: {
    name: 'reset-request-email',
    max: 3,
    windowMs: HOUR_MS,
    message: 'Too many reset requests for this e-mail. Please check your inbox, or try again in an hour.',
  },
  resetUse: {
    name: 'reset-use',
    max: 20,
    windowMs: QUARTER_HOUR_MS,
    message: 'Too many attempts with reset links. Please wait 15 minutes and try again.',
  },
  // Verification links are limited like reset links: asking for them fills an inbox, using them is guessing.
  verifyRequestPerAddress: {
    name: 'verify-request',
    max: 5,
    windowMs: QUARTER_HOUR_MS,
    message: 'Too many links asked for from here. Please wait 15 minutes and try again.',
  },
  verifyRequestPerEmail: {
    name: 'verify-request-email',
    max: 3,
    windowMs: HOUR_MS,
    message: 'Too many links asked for this e-mail. Please check your inbox, or try again in an hour.',
  },
  verifyUse: {
    name: 'verify-use',
    max: 20,
    windowMs: QUARTER_HOUR_MS,
    message: 'Too many attempts with verification links. Please wait 15 minutes and try again.',
  },
} as const satisfies Record<string, Limit>
