/** Which requests may change state: only the shop's own pages, and the payment provider's signed webhook. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { DEMO_WEBHOOK_SECRET } from '../../../api/adapters/demo-payments'
import { newsletterSubscribers } from '../../../db/schema'
import { postWebhook } from '../checkout/helpers'
import { createTestApp, ORIGIN, type TestApp } from '../support/test-app'

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp()
})
afterAll(() => shop.close())

let counter = 0
/** A newsletter sign-up with exactly these headers (and a JSON body), as a browser or a script would send it. */
async function signUpWith(headers: Record<string, string>, url = `${ORIGIN}/api/newsletter`) {
  counter += 1
  const email = `origin.${counter}@example.com`
  const res = await shop.app.handle(
    new Request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.77.0.${counter}`, ...headers },
      body: JSON.stringify({ email }),
    }),
  )
  const rows = await shop.deps.db.select().from(newsletterSubscribers)
  return { status: res.status, stored: rows.some((row) => row.email === email), body: await res.text() }
}

describe('state-changing requests', () => {
  test('same-origin, as Fetch Metadata says it, is let through', async () => {
    const sent = await signUpWith({ 'sec-fetch-site': 'same-origin', origin: ORIGIN })
    expect(sent).toMatchObject({ status: 200, stored: true })
  })

  test('an older browser with no Sec-Fetch-Site is let through when the Origin is the shop', async () => {
    expect(await signUpWith({ origin: ORIGIN })).toMatchObject({ status: 200, stored: true })
  })

  test.each([
    [
      'same-site (a sibling subdomain)',
      { 'sec-fetch-site': 'same-site', origin: 'https://blog.localhost:4321' },
    ],
    ['same-site with the shop as Origin', { 'sec-fetch-site': 'same-site', origin: ORIGIN }],
    ['cross-site', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
    ['none (typed in the address bar)', { 'sec-fetch-site': 'none' }],
    [
      'same-origin from a host that is not the shop',
      { 'sec-fetch-site': 'same-origin', origin: 'http://evil.example' },
    ],
    ['another Origin and no Sec-Fetch-Site', { origin: 'https://evil.example' }],
    ['Origin null (a sandboxed frame)', { origin: 'null' }],
    ['neither header', {}],
  ])('%s is refused with 403 and changes nothing', async (_, headers) => {
    const sent = await signUpWith(headers)
    expect(sent.status).toBe(403)
    expect(sent.stored).toBe(false)
    expect(JSON.parse(sent.body)).toEqual({ error: 'This request must come from the shop itself.' })
  })

  test('a rebound host name is no excuse: the Origin must be PUBLIC_URL, not the Host the request names', async () => {
    const rebound = 'http://rebound.example:4321'
    const sent = await signUpWith(
      { origin: rebound, 'sec-fetch-site': 'same-origin' },
      `${rebound}/api/newsletter`,
    )
    expect(sent).toMatchObject({ status: 403, stored: false })
    expect((await signUpWith({ origin: rebound }, `${rebound}/api/newsletter`)).status).toBe(403)
  })
})

describe('the shop opened at an IP address or localhost, not at PUBLIC_URL', () => {
  // PUBLIC_URL is http://localhost:4321. A page the browser loaded from http://127.0.0.1:4321 (or the
  // machine's LAN address on a phone) posts with that Origin and that Host: the same origin, and no DNS
  // answer can put an attacker's page there, since the address in the Host is not a name.
  // Each test in a new hour: the newsletter takes 10 sign-ups an hour from one client.
  beforeEach(() => shop.clock.advance(61 * 60_000))

  test.each([
    ['127.0.0.1', 'http://127.0.0.1:4321'],
    ['a LAN address', 'http://192.168.1.20:4321'],
    ['IPv6 loopback', 'http://[::1]:4321'],
    ['an IPv6 LAN address', 'http://[fd00::20]:4321'],
    ['localhost on another port', 'http://localhost:5000'],
    ['127.0.0.1 without a port (port 80)', 'http://127.0.0.1'],
  ])('%s: a form posted from that address is taken', async (_, address) => {
    const url = `${address}/api/newsletter`
    expect(await signUpWith({ origin: address, 'sec-fetch-site': 'same-origin' }, url)).toMatchObject({
      status: 200,
      stored: true,
    })
    expect(await signUpWith({ origin: address }, url)).toMatchObject({ status: 200, stored: true })
  })

  test.each([
    ['another port on the same address', 'http://127.0.0.1:4321', 'http://127.0.0.1:8080'],
    ['another address', 'http://192.168.1.20:4321', 'http://192.168.1.21:4321'],
    ['a host name posting to an address', 'http://127.0.0.1:4321', 'http://evil.example'],
    ['an address posting to a host name', 'http://evil.example:4321', 'http://127.0.0.1:4321'],
    ['a name that contains an address', 'http://127.0.0.1.nip.io:4321', 'http://127.0.0.1.nip.io:4321'],
    ['a subdomain of localhost', 'http://evil.localhost:4321', 'http://evil.localhost:4321'],
    ['a name ending in localhost', 'http://notlocalhost:4321', 'http://notlocalhost:4321'],
    ['Origin null at an address', 'http://127.0.0.1:4321', 'null'],
  ])('%s is refused', async (_, address, origin) => {
    const url = `${address}/api/newsletter`
    expect(await signUpWith({ origin, 'sec-fetch-site': 'same-origin' }, url)).toMatchObject({
      status: 403,
      stored: false,
    })
    expect(await signUpWith({ origin }, url)).toMatchObject({ status: 403, stored: false })
  })

  test('cross-site or same-site Fetch Metadata is refused even when Origin and Host are the same address', async () => {
    const address = 'http://127.0.0.1:4321'
    for (const site of ['cross-site', 'same-site', 'none']) {
      const sent = await signUpWith({ origin: address, 'sec-fetch-site': site }, `${address}/api/newsletter`)
      expect(sent).toMatchObject({ status: 403, stored: false })
    }
  })
})

describe('callers that are not the shop pages still work', () => {
  test('the payment webhook comes from the provider, with no Origin, and is taken', async () => {
    const payload = JSON.stringify({
      id: 'evt_origin_check',
      object: 'event',
      type: 'payment_intent.succeeded',
      created: 1,
      data: { object: { id: 'pi_1', object: 'payment_intent' } },
    })
    const res = await postWebhook(shop, payload, DEMO_WEBHOOK_SECRET)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ received: true })
  })

  test("Google's redirect back is a cross-site GET navigation and is not refused", async () => {
    const res = await shop.app.handle(
      new Request(`${ORIGIN}/auth/google/callback?state=s&code=c`, {
        headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
      }),
    )
    expect(res.status).toBe(302)
  })
})
