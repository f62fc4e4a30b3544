/**
 * A small local stand-in for Stripe's API, enough for the real `stripe` SDK to create and retrieve
 * Checkout Sessions against it: form-encoded requests as the SDK sends them, answers in Stripe's object
 * shape, Idempotency-Key honoured, every request recorded for assertions.
 */
import { randomBytes } from 'node:crypto'

export type FormValue = string | FormValue[] | { [key: string]: FormValue }

export interface RecordedRequest {
  method: string
  path: string
  headers: Record<string, string>
  body: Record<string, FormValue>
}

export interface FakeStripeSession {
  id: string
  object: 'checkout.session'
  amount_subtotal: number
  amount_total: number
  client_secret: string
  created: number
  currency: string
  customer_email: string | null
  customer_details: { email: string | null } | null
  expires_at: number
  livemode: false
  metadata: Record<string, string>
  mode: string
  payment_status: 'paid' | 'unpaid' | 'no_payment_required'
  return_url: string | null
  shipping_cost: { amount_total: number } | null
  status: 'open' | 'complete' | 'expired'
  ui_mode: string
  url: null
}

/** Parses `a[b][0][c]=1` form bodies into nested objects and arrays, like Stripe's server does. */
export function parseStripeForm(text: string): Record<string, FormValue> {
  const root: Record<string, FormValue> = {}
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const keys = rawKey.split(/\[|\]\[|\]/).filter((part) => part !== '')
    let node: Record<string, FormValue> | FormValue[] = root
    keys.forEach((key, index) => {
      const last = index === keys.length - 1
      const container = node as Record<string, FormValue>
      if (last) {
        container[key] = value
        return
      }
      const nextIsIndex = /^\d+$/.test(keys[index + 1] ?? '')
      container[key] ??= nextIsIndex ? [] : {}
      node = container[key] as Record<string, FormValue> | FormValue[]
    })
  }
  return root
}

function id(prefix: string): string {
  return `${prefix}${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x')}`
}

type Form = Record<string, FormValue>

function asForm(value: FormValue | undefined): Form {
  return value && typeof value === 'object' && !Array.isArray(value) ? value : {}
}

function asList(value: FormValue | undefined): FormValue[] {
  if (Array.isArray(value)) return value
  // Arrays encoded with sparse indices arrive as objects keyed by index.
  if (value && typeof value === 'object') return Object.values(value)
  return []
}

function error(status: number, message: string, param?: string) {
  return Response.json(
    { error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } },
    { status },
  )
}

export interface FakeStripe {
  url: string
  host: string
  port: number
  secretKey: string
  requests: RecordedRequest[]
  sessions: Map<string, FakeStripeSession>
  /** Marks a session paid and complete (what Stripe does when the customer pays) and returns it. */
  complete(sessionId: string, paymentStatus?: FakeStripeSession['payment_status']): FakeStripeSession
  /** A Stripe event wrapping the session, as JSON text ready to sign and post. */
  event(type: string, session: FakeStripeSession, eventId?: string): string
  /** Requests that created sessions (not retries answered from the idempotency cache). */
  createdSessions(): RecordedRequest[]
  stop(): void
}

export function startFakeStripe(options: { secretKey?: string } = {}): FakeStripe {
  const secretKey = options.secretKey ?? 'sk_test_fake_0123456789'
  const requests: RecordedRequest[] = []
  const created: RecordedRequest[] = []
  const sessions = new Map<string, FakeStripeSession>()
  const idempotent = new Map<string, string>()

  function createSession(body: Form): Response {
    const lineItems = asList(body.line_items).map(asForm)
    if (lineItems.length === 0) return error(400, 'line_items is required in payment mode', 'line_items')
    let subtotal = 0
    for (const item of lineItems) {
      const price = asForm(item.price_data)
      const amount = Number(price.unit_amount)
      const quantity = Number(item.quantity)
      if (!Number.isInteger(amount) || amount < 0)
        return error(400, 'Invalid integer: unit_amount', 'unit_amount')
      if (!Number.isInteger(quantity) || quantity < 1) return error(400, 'Invalid quantity', 'quantity')
      subtotal += amount * quantity
    }
    const shippingOption = asForm(asList(body.shipping_options)[0])
    const shippingRate = asForm(shippingOption.shipping_rate_data)
    const shipping = Number(asForm(shippingRate.fixed_amount).amount ?? 0)
    const sessionId = id('cs_test_')
    const now = Math.floor(Date.now() / 1000)
    const session: FakeStripeSession = {
      id: sessionId,
      object: 'checkout.session',
      amount_subtotal: subtotal,
      amount_total: subtotal + shipping,
      client_secret: `${sessionId}_secret_${randomBytes(12).toString('hex')}`,
      created: now,
      currency: 'usd',
      customer_email: typeof body.customer_email === 'string' ? body.customer_email : null,
      customer_details: null,
      expires_at: now + 24 * 3600,
      livemode: false,
      metadata: Object.fromEntries(
        Object.entries(asForm(body.metadata)).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      ),
      mode: typeof body.mode === 'string' ? body.mode : 'payment',
      payment_status: 'unpaid',
      return_url: typeof body.return_url === 'string' ? body.return_url : null,
      shipping_cost: shippingRate.fixed_amount ? { amount_total: shipping } : null,
      status: 'open',
      ui_mode: typeof body.ui_mode === 'string' ? body.ui_mode : 'hosted_page',
      url: null,
    }
    sessions.set(sessionId, session)
    return Response.json(session)
  }

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url)
      const text = request.method === 'GET' ? url.search.slice(1) : await request.text()
      const recorded: RecordedRequest = {
        method: request.method,
        path: url.pathname,
        headers: Object.fromEntries(request.headers),
        body: parseStripeForm(text),
      }
      requests.push(recorded)
      if (request.headers.get('authorization') !== `Bearer ${secretKey}`) {
        return Response.json(
          { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } },
          { status: 401 },
        )
      }
      if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const key = request.headers.get('idempotency-key')
        const earlier = key ? idempotent.get(key) : undefined
        if (earlier) {
          const session = sessions.get(earlier)
          if (session) return Response.json(session, { headers: { 'idempotent-replayed': 'true' } })
        }
        const response = createSession(recorded.body)
        if (response.ok) {
          created.push(recorded)
          const session = [...sessions.values()].at(-1)
          if (key && session) idempotent.set(key, session.id)
        }
        return response
      }
      const expiring = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(url.pathname)
      if (request.method === 'POST' && expiring) {
        const session = sessions.get(decodeURIComponent(expiring[1] ?? ''))
        if (!session) return error(404, `No such checkout.session: '${expiring[1]}'`, 'session')
        if (session.status !== 'open') {
          return error(400, `Only Checkout Sessions with a status in ["open"] can be expired.`)
        }
        session.status = 'expired'
        return Response.json(session)
      }
      const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname)
      if (request.method === 'GET' && match) {
        const session = sessions.get(decodeURIComponent(match[1] ?? ''))
        if (!session) return error(404, `No such checkout.session: '${match[1]}'`, 'session')
        return Response.json(session)
      }
      return error(404, `Unrecognized request URL (${request.method}: ${url.pathname})`)
    },
  })

  return {
    url: `http://127.0.0.1:${server.port}`,
    host: '127.0.0.1',
    port: server.port ?? 0,
    secretKey,
    requests,
    sessions,
    complete(sessionId, paymentStatus = 'paid') {
      const session = sessions.get(sessionId)
      if (!session) throw new Error(`fake Stripe has no session ${sessionId}`)
      session.status = 'complete'
      session.payment_status = paymentStatus
      session.customer_details = { email: session.customer_email }
      return session
    },
    event(type, session, eventId = id('evt_')) {
      return JSON.stringify({
        id: eventId,
        object: 'event',
        api_version: '2026-10-28.endive',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object: session },
      })
    },
    createdSessions: () => created,
    stop: () => server.stop(true),
  }
}
