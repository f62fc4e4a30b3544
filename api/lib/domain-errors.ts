/**
 * What went wrong, in the shop's words. Services, jobs, the webhook sweep and the staff command all call
 * the same services, so a service says what happened (not found, a conflict, refused input …) and knows
 * nothing of HTTP; the error funnel (api/plugins/errors.ts) is the one place that turns a kind into a
 * status code. The message is written for the person who reads it: safe to show, never a stack or SQL.
 */
export type DomainErrorKind =
  /** The request could not be read at all (not JSON, nested too deep): 400. */
  | 'unreadable'
  /** Read, and a value in it refused; the message says which and why: 422 (docs/decisions/015). */
  | 'invalid'
  /** Nobody is signed in, or the credentials are wrong: 401. */
  | 'unauthenticated'
  /** Signed in, and not allowed this: 403. */
  | 'forbidden'
  | 'not-found'
  /** The thing is not in a state that allows this (already shipped, e-mail taken …): 409. */
  | 'conflict'
  /** Too many attempts; `retryAfterSeconds` says when to try again: 429. */
  | 'too-many'
  /** An outside service (payments, carrier) refused or failed: 502. */
  | 'upstream'
  /** The shop cannot do this now (not configured, busy); trying later may work: 503. */
  | 'unavailable'

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** Extra fields of the answer, for the page that asked (e.g. `useGoogle` on a refused sign-in). */
    readonly details: Record<string, unknown> = {},
    /** When trying again makes sense, in seconds (sent as Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message)
  }
}

export const unreadable = (message: string) => new DomainError('unreadable', message)
export const invalid = (message: string, details?: Record<string, unknown>) =>
  new DomainError('invalid', message, details)
export const unauthenticated = (message = 'Please sign in to continue.', details?: Record<string, unknown>) =>
  new DomainError('unauthenticated', message, details)
export const forbidden = (message = 'You do not have access to this.', details?: Record<string, unknown>) =>
  new DomainError('forbidden', message, details)
export const notFound = (message = 'Not found.') => new DomainError('not-found', message)
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new DomainError('conflict', message, details)
export const tooMany = (message: string, retryAfterSeconds: number) =>
  new DomainError('too-many', message, { retryAfterSeconds }, retryAfterSeconds)
export const upstreamFailed = (message: string) => new DomainError('upstream', message)
export const unavailable = (message: string, retryAfterSeconds?: number) =>
  new DomainError('unavailable', message, {}, retryAfterSeconds)
