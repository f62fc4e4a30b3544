import { afterEach, describe, expect, test } from 'bun:test'
import { ApiError, apiRequest, errorMessageFor, NETWORK_ERROR_MESSAGE } from '../../../site/lib/api'

const realFetch = globalThis.fetch

interface Seen {
  url: string
  init: RequestInit
}

function answer(response: () => Response): Seen[] {
  const seen: Seen[] = []
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    seen.push({ url, init })
    return response()
  }) as unknown as typeof fetch
  return seen
}

afterEach(() => {
  globalThis.fetch = realFetch
})

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ApiError) return error
    throw error
  }
  throw new Error('expected the request to fail')
}

describe('apiRequest', () => {
  test('sends JSON with credentials and returns the parsed answer', async () => {
    const seen = answer(() => Response.json({ rates: [] }))
    const result = await apiRequest<{ rates: unknown[] }>('POST', '/api/shipping/rates', { a: 1 })
    expect(result).toEqual({ rates: [] })
    expect(seen).toHaveLength(1)
    const { url, init } = seen[0] as Seen
    expect(url).toBe('/api/shipping/rates')
    expect(init.method).toBe('POST')
    expect(init.credentials).toBe('include')
    expect(init.body).toBe('{"a":1}')
    expect((init.headers as Record<string, string>)['content-type']).toBe('application/json')
  })

  test('a GET sends no body and no content type', async () => {
    const seen = answer(() => Response.json({ ok: true }))
    await apiRequest('GET', '/api/stripe/publishable-key')
    const { init } = seen[0] as Seen
    expect(init.body).toBeUndefined()
    expect((init.headers as Record<string, string>)['content-type']).toBeUndefined()
  })

  test("prefers the server's { error } message and keeps the status and body", async () => {
    answer(() => Response.json({ error: 'Please choose a state.', declined: true }, { status: 422 }))
    const error = await failure(apiRequest('POST', '/api/shipping/rates', {}))
    expect(error.status).toBe(422)
    expect(error.message).toBe('Please choose a state.')
    expect(error.data).toEqual({ error: 'Please choose a state.', declined: true })
  })

  test('without { error}, the message is status, colon, body text (docs/product.md#forms)', async () => {
    answer(() => new Response('Bad Gateway from proxy', { status: 502, statusText: 'Bad Gateway' }))
    const error = await failure(apiRequest('GET', '/api/x'))
    expect(error.message).toBe('502: Bad Gateway from proxy')
  })

  test('an empty error body falls back to the status text', async () => {
    answer(() => new Response('', { status: 503, statusText: 'Service Unavailable' }))
    expect((await failure(apiRequest('GET', '/api/x'))).message).toBe('503: Service Unavailable')
  })

  test('a 401 is an error by default and null with nullOn401', async () => {
    answer(() => Response.json({ error: 'Please sign in.' }, { status: 401 }))
    expect((await failure(apiRequest('GET', '/api/auth/user'))).status).toBe(401)
    expect(await apiRequest('GET', '/api/auth/user', undefined, { nullOn401: true })).toBeNull()
  })

  test('a 2xx that is not JSON is reported as an invalid response', async () => {
    answer(() => new Response('<html>maintenance</html>', { status: 200 }))
    const error = await failure(apiRequest('POST', '/api/create-checkout-session', {}))
    expect(error.message).toBe('Server returned invalid response: <html>maintenance</html>')
  })

  test('a network failure becomes an ApiError with status 0', async () => {
    globalThis.fetch = (async () => {
      throw new TypeError('Failed to fetch')
    }) as unknown as typeof fetch
    const error = await failure(apiRequest('GET', '/api/x'))
    expect(error.status).toBe(0)
    expect(error.message).toBe(NETWORK_ERROR_MESSAGE)
  })
})

describe('errorMessageFor', () => {
  test('long bodies are cut short', () => {
    const message = errorMessageFor(500, 'Internal Server Error', 'x'.repeat(1000))
    expect(message.startsWith('500: xxx')).toBe(true)
    expect(message.length).toBeLessThan(140)
  })

  test('JSON without an error string is treated as text', () => {
    expect(errorMessageFor(400, 'Bad Request', '{"message":"nope"}')).toBe('400: {"message":"nope"}')
  })
})
