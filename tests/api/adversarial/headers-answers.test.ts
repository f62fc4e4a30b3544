// Security headers on every answer, pages and API alike: every GET route the app has, every page and asset
// of the fixture site, and the error answers (400/401/403/404/409/413/422/429), in the test and the
// production configuration.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import { walk } from '../../../api/plugins/static-site'
import { createSession, getRates, HOME, rateFor } from '../checkout/helpers'
import { staffMember } from '../dashboard/helpers'
import { type Customer, signUp, uniqueAddress } from '../support/accounts'
import { createTestApp, ORIGIN, PRODUCTION_ENV, type TestApp } from '../support/test-app'
import { attackCounter } from './tally'

setDefaultTimeout(60_000)

const attacks = attackCounter('headers-answers')
const ROOT = resolve(import.meta.dir, '../../..')
const FIXTURE_SITE = join(ROOT, 'tests/fixtures/site')

let shop: TestApp
let production: TestApp
let customer: Customer
let staff: Customer
let sessionId: string

beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
  production = await createTestApp({ ...PRODUCTION_ENV, TRUST_PROXY: 'true' })
  customer = await signUp(shop)
  staff = await staffMember(shop)
  const items = [{ id: 1, quantity: 1 }]
  ;({ sessionId } = await createSession(
    shop,
    items,
    rateFor(await getRates(shop, items), 'USPS Priority Mail'),
  ))
})
afterAll(() => {
  shop.close()
  production.close()
  attacks.record()
})

/** Every GET route of the app with its parameters filled in, plus every page and asset of the fixture site. */
function everyGet(app: TestApp, withSession: boolean): string[] {
  const fill: Record<string, string> = {
    ':number': '1',
    ':id': '1',
    ':sessionId': withSession ? sessionId : 'cs_test_unknown',
  }
  const routes = app.app.routes
    .filter((route) => route.method === 'GET' && route.path !== '/*')
    .map((route) => route.path.replace(/:[a-zA-Z]+/g, (param) => fill[param] ?? '1'))
    .map((path) =>
      path.includes('/api/checkout/session/') && withSession ? path.replace('/1/', `/${sessionId}/`) : path,
    )
  const pages = walk(FIXTURE_SITE).map((file) => {
    const path = `/${relative(FIXTURE_SITE, file).split(sep).join('/')}`
    return path.endsWith('/index.html') ? path.slice(0, -'index.html'.length) : path
  })
  return [...routes, ...pages, '/no-such-page', '/products/no-such-product', '/api/no-such-call']
}

interface Answer {
  label: string
  res: Response
}

function checkHeaders({ label, res }: Answer, options: { production: boolean }): void {
  const headers = res.headers
  const csp = headers.get('content-security-policy') ?? ''
  const seen = {
    label,
    nosniff: headers.get('x-content-type-options'),
    referrer: headers.get('referrer-policy'),
    frameAncestors: csp.includes("frame-ancestors 'none'"),
    stripeInHeader: /stripe/i.test(csp),
    hsts: headers.get('strict-transport-security'),
  }
  expect(seen).toEqual({
    label,
    nosniff: 'nosniff',
    referrer: 'strict-origin-when-cross-origin',
    frameAncestors: true,
    stripeInHeader: false,
    hsts: options.production ? 'max-age=63072000; includeSubDomains' : null,
  })
}

/** The error answers an attacker provokes, each with the status it must have. */
async function errorAnswers(app: TestApp, cookies: { customer?: string }): Promise<[number, Answer][]> {
  const answers: [number, Answer][] = []
  const add = async (status: number, label: string, res: Promise<Response>) =>
    answers.push([status, { label, res: await res }])
  await add(
    400,
    'body that is not JSON',
    app.call('POST', '/api/validate-discount', '{"code":', { 'content-type': 'application/json' }),
  )
  await add(401, 'anonymous account call', app.call('GET', '/api/user/orders'))
  await add(
    401,
    'forged session',
    app.call('GET', '/api/auth/user', undefined, { cookie: 'session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }),
  )
  await add(
    403,
    'cross-site POST',
    app.call(
      'POST',
      '/api/auth/login',
      { email: 'a@b.co', password: 'x' },
      { origin: 'https://evil.example' },
    ),
  )
  if (cookies.customer)
    await add(
      403,
      'customer on a staff call',
      app.call('GET', '/api/orders', undefined, { cookie: cookies.customer }),
    )
  await add(404, 'unknown API call', app.call('GET', '/api/nope'))
  await add(404, 'unknown page', app.call('GET', '/nope'))
  await add(
    409,
    'forged quote',
    app.call('POST', '/api/create-checkout-session', {
      line_items: [{ product_id: 1, quantity: 1 }],
      customer_email: 'dana@example.com',
      shipping_address: HOME,
      shipping_rate: { id: 'rate_forged' },
    }),
  )
  const big = JSON.stringify({ email: `${'a'.repeat(70 * 1024)}@example.com` })
  await add(
    413,
    'oversize body',
    app.call('POST', '/api/newsletter', big, { 'content-length': String(big.length) }),
  )
  await add(422, 'schema failure', app.call('POST', '/api/shipping/rates', { items: 'all of them' }))
  const from = uniqueAddress()
  let limited: Response | undefined
  for (let guess = 0; guess < 25 && limited?.status !== 429; guess++) {
    limited = await app.call(
      'POST',
      '/api/validate-discount',
      { code: `GUESS${guess}`, amount: '10.00' },
      from,
    )
  }
  if (limited) answers.push([429, { label: 'rate limited', res: limited }])
  return answers
}

describe('every answer carries the security headers', () => {
  test('every GET route, page and asset, anonymous and signed in', async () => {
    const paths = everyGet(shop, true)
    expect(paths).toEqual(
      expect.arrayContaining(['/', '/about/', '/api/health', '/api/catalog', '/api/dashboard/stats']),
    )
    for (const path of paths) {
      for (const cookie of [undefined, customer.cookie, staff.cookie]) {
        attacks.tried()
        const res = await shop.call('GET', path, undefined, cookie ? { cookie } : {})
        checkHeaders(
          { label: `GET ${path} ${cookie ? 'signed in' : 'anonymous'} → ${res.status}`, res },
          { production: false },
        )
      }
    }
    // A revalidated page (304) and a HEAD request too.
    const page = await shop.call('GET', '/about/')
    const etag = page.headers.get('etag') ?? ''
    const revalidated = await shop.call('GET', '/about/', undefined, { 'if-none-match': etag })
    expect(revalidated.status).toBe(304)
    checkHeaders({ label: '304', res: revalidated }, { production: false })
    checkHeaders({ label: 'HEAD /', res: await shop.call('HEAD', '/') }, { production: false })
  })

  test('every error answer, with its own status', async () => {
    const answers = await errorAnswers(shop, { customer: customer.cookie })
    expect(answers.map(([status]) => status)).toEqual([400, 401, 401, 403, 403, 404, 404, 409, 413, 422, 429])
    for (const [status, answer] of answers) {
      attacks.tried()
      expect([answer.label, answer.res.status]).toEqual([answer.label, status])
      checkHeaders(answer, { production: false })
    }
  })

  test('in the production configuration the same, plus HSTS on every answer', async () => {
    const prodCustomer = await signUp(production)
    for (const path of everyGet(production, false)) {
      attacks.tried()
      const res = await production.call('GET', path, undefined, { cookie: prodCustomer.cookie })
      checkHeaders({ label: `GET ${path} → ${res.status}`, res }, { production: true })
    }
    const answers = await errorAnswers(production, { customer: prodCustomer.cookie })
    expect(answers.map(([status]) => status)).toEqual([400, 401, 401, 403, 403, 404, 404, 409, 413, 422, 429])
    for (const [status, answer] of answers) {
      attacks.tried()
      expect([answer.label, answer.res.status]).toEqual([answer.label, status])
      checkHeaders(answer, { production: true })
    }
  })

  test('pages opened from an e-mailed link with a token send no referrer at all', async () => {
    const token = 'abcdefghijklmnopqrstuvwxyz234567'
    for (const page of ['/verify-email', '/reset-password']) {
      for (const path of [page, `${page}/`, `${page}/index.html`]) {
        attacks.tried()
        const res = await shop.call('GET', `${path}?token=${token}`)
        expect([path, res.headers.get('referrer-policy')]).toEqual([path, 'no-referrer'])
      }
    }
    // Every other page keeps the usual policy, a look-alike path included.
    for (const path of ['/verify-emails', '/reset-password-help', '/about']) {
      attacks.tried()
      const res = await shop.call('GET', path)
      expect([path, res.headers.get('referrer-policy')]).toEqual([path, 'strict-origin-when-cross-origin'])
    }
  })
})

describe("pages' own Content Security Policy", () => {
  /** Every source file that builds pages: the Astro config and everything under site/. */
  function siteSources(dir = join(ROOT, 'site')): string[] {
    return readdirSync(dir).flatMap((name) => {
      const full = join(dir, name)
      return statSync(full).isDirectory() ? siteSources(full) : [full]
    })
  }

  test("Stripe's hosts are allowed on /checkout only; every other page keeps default-src 'self'", () => {
    const config = readFileSync(join(ROOT, 'astro.config.mjs'), 'utf8')
    // Every page gets the policy with hashes of its own scripts, from our own origin only.
    expect(config).toMatch(/security:\s*{\s*csp:/)
    expect(config).toContain(`"default-src 'self'"`)
    expect(config).not.toMatch(/stripe\.com/i)
    const mentioning = siteSources()
      .filter((file) => /stripe\.com/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file))
      .sort()
    // The checkout page adds the hosts to its own policy; the checkout feature loads Stripe.js from them.
    expect(mentioning).toEqual(['site/features/checkout/stripe.ts', 'site/pages/checkout.astro'])
    const checkout = readFileSync(join(ROOT, 'site/pages/checkout.astro'), 'utf8')
    expect(checkout).toContain("Astro.csp?.insertScriptResource('https://js.stripe.com')")
    expect(checkout).toContain('connect-src https://api.stripe.com')
    // And the Stripe loader is imported by checkout code alone.
    const importers = siteSources()
      .filter(
        (file) =>
          /from ['"][^'"]*checkout\/stripe['"]/.test(readFileSync(file, 'utf8')) ||
          /from ['"]\.\/stripe['"]/.test(readFileSync(file, 'utf8')),
      )
      .map((file) => relative(ROOT, file))
    expect(importers.every((file) => file.includes('checkout'))).toBe(true)
  })

  test('the origin the tests call from is the one the shop trusts', () => {
    expect(new URL(shop.deps.config.publicUrl).origin).toBe(ORIGIN)
  })
})
