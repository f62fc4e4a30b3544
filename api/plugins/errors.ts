import { Elysia } from 'elysia'
import { isDatabaseBusy } from '../lib/database-busy'
import { DomainError, type DomainErrorKind } from '../lib/domain-errors'
import { errorMessage, log, redactPath } from '../lib/log'
import { noteIfStorageFull } from '../lib/storage-full'

/**
 * An answer a plugin gives with its own HTTP status (405 with Allow, 415 …): the HTTP layer's own refusals.
 * Services and routes throw domain errors instead (api/lib/domain-errors.ts), mapped below.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Extra fields for the JSON answer, e.g. `useGoogle` on a refused login. */
    readonly extra: Record<string, unknown> = {},
    /** Extra response headers, e.g. `retry-after` on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

export function jsonError(
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ error: message, ...extra }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  })
}

interface ValidationIssue {
  path?: string
  message?: string
  summary?: string
  schema?: { error?: unknown }
  /** For a union (e.g. an object or null): what each alternative found wrong. */
  errors?: Iterable<ValidationIssue>[]
}

/** The first message a schema wrote for people, looking inside unions ('an address or null'). */
function customMessage(issue: ValidationIssue, depth = 0): string | null {
  if (typeof issue.schema?.error === 'string') return issue.schema.error
  if (depth > 3) return null
  for (const alternative of issue.errors ?? []) {
    for (const nested of alternative) {
      const message = customMessage(nested, depth + 1)
      if (message) return message
    }
  }
  return null
}

/**
 * Turns a schema failure into one readable sentence naming the field. Elysia's own answer echoes the
 * request body, which may hold a password, so it never reaches the client or the log.
 */
function describeValidation(error: unknown): string {
  let first: ValidationIssue | undefined
  try {
    first = ((error as { all?: ValidationIssue[] }).all ?? [])[0]
  } catch {
    // Elysia's summaries turn the value into text; a value that cannot be turned into text (an object whose
    // `toString` is not a function) must not turn a refusal into a 500.
    return 'The request is not valid.'
  }
  if (!first) return 'The request is not valid.'
  const custom = customMessage(first)
  if (custom) return custom
  const field = first.path?.replace(/^\//, '').replaceAll('/', '.')
  const reason = (first.summary ?? first.message ?? 'is not valid').replace(/^Expected/, 'expected')
  return field ? `Invalid ${field}: ${reason}.` : `Invalid request: ${reason}.`
}

/** A refusal of the path's parameters, one of which the router could not decode (it hands those on as null). */
function undecodablePath(error: unknown): boolean {
  const { type, value } = error as { type?: unknown; value?: unknown }
  return (
    type === 'params' && typeof value === 'object' && value !== null && Object.values(value).includes(null)
  )
}

export const DATABASE_BUSY = 'The shop is busy right now. Please try again in a moment.'
/** Another writer held the database longer than the busy timeout; a moment later it is usually free. */
const DATABASE_BUSY_RETRY_SECONDS = 2

export const STORAGE_FULL = 'The shop cannot save anything right now. Please try again in a few minutes.'
/** A full disk needs someone to make room: a client should not come back for a while. */
const STORAGE_FULL_RETRY_SECONDS = 60

/**
 * The error underneath a query error. A query error's own message quotes the SQL and its parameters
 * (e-mail addresses among them), so only the database's message below it is ever logged.
 */
function rootCause(error: unknown): unknown {
  let current = error
  for (let depth = 0; depth < 5; depth++) {
    const cause = (current as { cause?: unknown } | null)?.cause
    if (!cause) break
    current = cause
  }
  return current
}

/** The one place every error becomes an answer: clear JSON, the right status, no stack traces. */
export const errorFunnel = new Elysia({ name: 'error-funnel' }).onError(
  { as: 'global' },
  ({ code, error, request, set }) => {
    const answer = errorAnswer(code, error, request)
    // The request log reads the status from here: an error thrown before routing leaves it unset.
    set.status = answer.status
    return answer
  },
)

/** The one mapping from what went wrong in the shop's words to the status that tells it over HTTP. */
export const STATUS_OF: Readonly<Record<DomainErrorKind, number>> = {
  unreadable: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  invalid: 422,
  'too-many': 429,
  upstream: 502,
  unavailable: 503,
}

function domainAnswer(error: DomainError): Response {
  const headers: Record<string, string> =
    error.retryAfterSeconds === undefined ? {} : { 'retry-after': String(error.retryAfterSeconds) }
  return jsonError(STATUS_OF[error.kind], error.message, error.details, headers)
}

/** What a JSON body that cannot be read is answered (400). */
export const NOT_JSON_MESSAGE = 'The request body is not valid JSON.'

function errorAnswer(code: string | number, error: unknown, request: Request): Response {
  if (error instanceof DomainError) return domainAnswer(error)
  if (error instanceof HttpError) return jsonError(error.status, error.message, error.extra, error.headers)
  // A parser hook's own refusal arrives wrapped in Elysia's parse error.
  const cause = (error as { cause?: unknown }).cause
  if (code === 'PARSE' && cause instanceof HttpError) return jsonError(cause.status, cause.message)
  if (code === 'PARSE' && cause instanceof DomainError) return domainAnswer(cause)
  switch (code) {
    case 'VALIDATION':
      // A path segment that is not even valid percent-encoding (`/api/orders/%`) names nothing: not found,
      // as any other address the shop has not got, rather than a remark about a null property.
      if (undecodablePath(error)) return jsonError(404, 'Not found.')
      return jsonError(422, describeValidation(error))
    case 'PARSE':
      return jsonError(
        400,
        /form/i.test(request.headers.get('content-type') ?? '')
          ? 'The request body could not be read.'
          : NOT_JSON_MESSAGE,
      )
    case 'NOT_FOUND':
      return jsonError(404, 'Not found.')
    case 'INVALID_COOKIE_SIGNATURE':
      return jsonError(401, 'Please sign in to continue.')
    default: {
      const status = (error as { status?: unknown }).status
      if (typeof status === 'number' && status >= 400 && status < 500) {
        return jsonError(
          status,
          status === 413 ? 'The request body is too large.' : 'The request is not valid.',
        )
      }
      const reason = rootCause(error)
      if (noteIfStorageFull(reason)) {
        // Someone must make room: an error, so the alert on error lines fires.
        log.error('disk full', {
          method: request.method,
          path: redactPath(new URL(request.url).pathname),
          error: errorMessage(reason),
        })
        return jsonError(503, STORAGE_FULL, {}, { 'retry-after': String(STORAGE_FULL_RETRY_SECONDS) })
      }
      if (isDatabaseBusy(reason)) {
        log.warn('database busy', {
          method: request.method,
          path: redactPath(new URL(request.url).pathname),
          error: errorMessage(reason),
        })
        return jsonError(503, DATABASE_BUSY, {}, { 'retry-after': String(DATABASE_BUSY_RETRY_SECONDS) })
      }
      log.error('request failed', {
        method: request.method,
        path: redactPath(new URL(request.url).pathname),
        error: errorMessage(reason),
      })
      return jsonError(500, 'Something went wrong on our side. Please try again.')
    }
  }
}
