/**
 * The one client the site uses for /api (docs/architecture.md#the-site). Bodies and answers are typed from the API's own
 * schemas with `import type`, so no server code reaches the browser bundle.
 *
 * Errors follow docs/product.md#forms: a non-OK answer becomes an `ApiError` whose message is the server's `{ error }`
 * when it sent one, otherwise `${status}: ${body text or status text}`.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export class ApiError extends Error {
  /** HTTP status; 0 when the server could not be reached or answered something unreadable with 2xx. */
  readonly status: number
  /** The parsed JSON answer, when there was one (e.g. `{ error, declined: true }`). */
  readonly data: unknown

  constructor(status: number, message: string, data?: unknown) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.data = data
  }
}

export const NETWORK_ERROR_MESSAGE = 'Could not reach the shop. Check your connection and try again.'

/** Longest piece of an unexpected answer repeated in a message: enough to recognise, never a whole page. */
const SNIPPET_LENGTH = 120

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > SNIPPET_LENGTH ? `${flat.slice(0, SNIPPET_LENGTH)}…` : flat
}

function serverMessage(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null
  const error = (data as { error?: unknown }).error
  return typeof error === 'string' && error.trim() !== '' ? error : null
}

/** The text for a failed answer (docs/product.md#forms): the server's `{ error }`, else status, colon, body or status text. */
export function errorMessageFor(status: number, statusText: string, bodyText: string): string {
  try {
    const message = serverMessage(JSON.parse(bodyText))
    if (message) return message
  } catch {
    // not JSON: fall through to the status line
  }
  return `${status}: ${snippet(bodyText) || statusText}`
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

export interface RequestOptions {
  /** Answer `null` instead of throwing when the server says 401 (signed out). */
  nullOn401?: boolean
  signal?: AbortSignal
  /** More request headers (an Idempotency-Key). */
  headers?: Record<string, string>
}

export function apiRequest<T>(
  method: HttpMethod,
  path: string,
  body: unknown,
  options: RequestOptions & { nullOn401: true },
): Promise<T | null>
export function apiRequest<T>(
  method: HttpMethod,
  path: string,
  body?: unknown,
  options?: RequestOptions,
): Promise<T>
export async function apiRequest<T>(
  method: HttpMethod,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T | null> {
  const headers: Record<string, string> = { ...options.headers, accept: 'application/json' }
  if (body !== undefined) headers['content-type'] = 'application/json'
  let response: Response
  try {
    response = await fetch(path, {
      method,
      credentials: 'include',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    })
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error
    throw new ApiError(0, NETWORK_ERROR_MESSAGE)
  }
  if (response.status === 401 && options.nullOn401) {
    // Finish the request: an unread body leaves it open, and the page never counts as fully loaded.
    await response.body?.cancel().catch(() => undefined)
    return null
  }
  const text = await response.text().catch(() => '')
  if (!response.ok) {
    const parsed = parseJson(text)
    throw new ApiError(
      response.status,
      errorMessageFor(response.status, response.statusText, text),
      parsed.ok ? parsed.value : undefined,
    )
  }
  if (response.status === 204 || text === '') return null as T
  const parsed = parseJson(text)
  // A 2xx that is not JSON is a proxy or server fault page, not an answer the caller can use.
  if (!parsed.ok) throw new ApiError(0, `Server returned invalid response: ${snippet(text)}`)
  return parsed.value as T
}
