import { describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import {
  conflict,
  type DomainError,
  forbidden,
  invalid,
  notFound,
  tooMany,
  unauthenticated,
  unavailable,
  unreadable,
  upstreamFailed,
} from '../../../api/lib/domain-errors'
import { errorFunnel } from '../../../api/plugins/errors'

/** Throws `error` from a route behind the error funnel and returns the answer. */
async function answerTo(error: DomainError): Promise<Response> {
  const app = new Elysia().use(errorFunnel).get('/boom', () => {
    throw error
  })
  return app.handle(new Request('http://shop.test/boom'))
}

describe('domain errors become answers in one place', () => {
  test.each([
    [unreadable('The request body is not valid JSON.'), 400],
    [invalid('Please enter a ZIP code.'), 422],
    [unauthenticated(), 401],
    [forbidden(), 403],
    [notFound('Order not found.'), 404],
    [conflict('This order has shipped.'), 409],
    [tooMany('Too many tries.', 30), 429],
    [upstreamFailed('The carrier did not answer.'), 502],
    [unavailable('Google sign-in is not set up on this shop.'), 503],
  ])('%p answers %i with its message', async (error, status) => {
    const answer = await answerTo(error)
    expect(answer.status).toBe(status)
    expect(((await answer.json()) as { error: string }).error).toBe(error.message)
  })

  test('details reach the page; the seconds to wait become Retry-After', async () => {
    const refused = await answerTo(unauthenticated('Please use Google Sign-In.', { useGoogle: true }))
    expect(await refused.json()).toEqual({ error: 'Please use Google Sign-In.', useGoogle: true })
    const limited = await answerTo(tooMany('Too many tries.', 42))
    expect(limited.headers.get('retry-after')).toBe('42')
  })
})
