/**
 * Inputs the OpenAPI fuzzing (fuzz-operations.test.ts) found to break the shop, each kept as it was found,
 * so the fix stays in place.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { staffMember } from '../dashboard/helpers'
import { createTestApp, ORIGIN, type TestApp } from '../support/test-app'
import { leakIn } from './fuzz-support'
import { recordAttacks } from './tally'

let shop: TestApp
let attacks = 0
beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
})
afterAll(() => {
  recordAttacks('input-regressions', attacks)
  shop.close()
})

let client = 0
async function send(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  client += 1
  attacks += 1
  const res = await shop.app.handle(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers: {
        origin: ORIGIN,
        'x-forwarded-for': `10.66.${client >> 8}.${client & 255}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body,
    }),
  )
  return { status: res.status, location: res.headers.get('location'), text: await res.text() }
}

describe('a field named like an object method (toString, valueOf, __proto__)', () => {
  // Found by the fuzzer (seed 1364726819): Elysia's validation message turns the refused value into text,
  // and an object whose own `toString` is a string cannot be; the refusal became a 500.
  test('the fuzzer\'s case: a token that is an object with a "toString" string is a 422, not a 500', async () => {
    const body =
      '{"token":{" B|# ":1.37e-279,"InQ-@P[;k":false,"toString":"\'eV[4r","":null,"<":"2DkeyleStQ"}}'
    for (const path of ['/api/auth/validate-reset-token', '/api/auth/reset-password']) {
      const res = await send('POST', path, body)
      expect({ path, status: res.status }).toEqual({ path, status: 422 })
      expect(leakIn(res.text)).toBeNull()
    }
  })

  test.each([
    ['POST', '/api/newsletter', '{"email":{"toString":"x"}}'],
    ['POST', '/api/newsletter', '{"email":"a@example.com","valueOf":1}'],
    ['POST', '/api/auth/login', '{"email":"a@example.com","password":{"valueOf":"x","toString":"y"}}'],
    ['POST', '/api/validate-discount', '{"code":"GRIT15","amount":{"toString":"40"}}'],
    ['POST', '/api/shipping/rates', '{"address":{"toString":"x"},"items":[]}'],
    ['POST', '/api/create-checkout-session', '{"__proto__":{"admin":true},"line_items":[]}'],
  ])('%s %s %s is a 422 that names no value', async (method, path, body) => {
    const res = await send(method, path, body)
    expect(res.status).toBe(422)
    expect(JSON.parse(res.text)).toEqual({ error: 'The request has a field name the shop does not take.' })
  })

  test('in a form post to the newsletter it is the invalid-email page, not a 500', async () => {
    const res = await send('POST', '/api/newsletter', 'toString=x&email=y', {
      'content-type': 'application/x-www-form-urlencoded',
    })
    expect([res.status, res.location]).toEqual([303, '/newsletter/invalid-email'])
  })

  test('in a query string it is a 422 too', async () => {
    const staff = await staffMember(shop)
    for (const query of ['toString=x', 'valueOf=1&limit=10', 'limit=10&__proto__=x']) {
      const res = await send('GET', `/api/orders?${query}`, undefined, { cookie: staff.cookie })
      expect({ query, status: res.status }).toEqual({ query, status: 422 })
    }
  })

  test('a route that reads no query string ignores such names in it: a page link still opens', async () => {
    for (const path of ['/about?constructor=x', '/api/health?toString=1', '/api/catalog?__proto__=x']) {
      const res = await send('GET', path)
      expect({ path, status: res.status }).toEqual({ path, status: 200 })
    }
  })
})

describe('a path segment that is not valid percent-encoding', () => {
  test("names nothing: 404 'Not found.', for staff's order calls and the customer's alike", async () => {
    const staff = await staffMember(shop)
    const calls: [string, string][] = [
      ['GET', '/api/orders/%'],
      ['GET', '/api/orders/%E0%A4%A/label'],
      ['POST', '/api/orders/%/retry'],
      ['GET', '/api/user/orders/%'],
    ]
    for (const [method, path] of calls) {
      const res = await send(method, path, undefined, { cookie: staff.cookie })
      expect({ path, status: res.status, body: res.text }).toEqual({
        path,
        status: 404,
        body: JSON.stringify({ error: 'Not found.' }),
      })
    }
    // A segment that decodes but breaks the customer's rule is still told the rule.
    const letters = await send('GET', '/api/user/orders/abc', undefined, { cookie: staff.cookie })
    expect([letters.status, JSON.parse(letters.text)]).toEqual([
      422,
      { error: 'Order numbers are digits, like 000042.' },
    ])
  })
})
