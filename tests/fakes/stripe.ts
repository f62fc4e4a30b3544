/**
 * A small local stand-in for Stripe's API, enough for the real `stripe` SDK to create and retrieve
 * Checkout Sessions and to refund their payments against it: form-encoded requests as the SDK sends them,
 * answers in Stripe's object shape, Idempotency-Key honoured as Stripe honours it, every request recorded
 * for assertions. Refunds make the events Stripe sends (`refund.created`, `charge.refunded` …), signed
 * and posted to a webhook URL when one is set.
 */
import { createHmac, randomBytes } from 'node:crypto'

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
  /** Set when the customer pays (Stripe creates the payment intent then). */
  payment_intent: string | null
  payment_status: 'paid' | 'unpaid' | 'no_payment_required'
  return_url: string | null
  shipping_cost: { amount_total: number } | null
  status: 'open' | 'complete' | 'expired'
  ui_mode: string
  url: null
}

/** A payment's charge, in Stripe's Charge shape (the fields refunds touch). */
export interface FakeStripeCharge {
  id: string
  object: 'charge'
  amount: number
  amount_captured: number
  amount_refunded: number
  captured: true
  created: number
  currency: string
  livemode: false
  metadata: Record<string, string>
  paid: true
  payment_intent: string
  refunded: boolean
  status: 'succeeded'
}

export interface FakeStripeRefund {
  id: string
  object: 'refund'
  amount: number
  balance_transaction: string | null
  charge: string
  created: number
  currency: string
  failure_reason?: string
  metadata: Record<string, string>
  payment_intent: string
  reason: 'duplicate' | 'fraudulent' | 'requested_by_customer' | null
  receipt_number: null
  status: 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled'
}

/** An event the fake made, as the JSON text it signs and posts. */
export interface FakeStripeEvent {
  id: string
  type: string
  payload: string
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

function error(
  status: number,
  message: string,
  param?: string,
  code?: string,
  type = 'invalid_request_error',
) {
  return Response.json(
    { error: { type, message, ...(code ? { code } : {}), ...(param ? { param } : {}) } },
    { status },
  )
}

/** Form bodies compared as Stripe compares an idempotent retry's parameters: same keys, same values. */
function fingerprint(value: FormValue): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(fingerprint).join(',')}]`
  const keys = Object.keys(value).sort()
  return `{${keys.map((key) => `${JSON.stringify(key)}:${fingerprint(value[key] as FormValue)}`).join(',')}}`
}

function dollars(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`
}

/** A Stripe-Signature header: HMAC-SHA256 of `t.payload` under the endpoint's whole secret. */
export function stripeSignatureHeader(payload: string, secret: string, timestampSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestampSeconds}.${payload}`).digest('hex')
  return `t=${timestampSeconds},v1=${v1}`
}

const REFUND_REASONS = new Set(['duplicate', 'fraudulent', 'requested_by_customer'])

export interface FakeStripe {
  url: string
  host: string
  port: number
  secretKey: string
  requests: RecordedRequest[]
  sessions: Map<string, FakeStripeSession>
  /** Charges by payment intent id. */
  charges: Map<string, FakeStripeCharge>
  /** Every refund made, by id. */
  refunds: Map<string, FakeStripeRefund>
  /** Every event made, oldest first. */
  events: FakeStripeEvent[]
  /** Where events are posted, signed with `secret`, as they are made; none when null. */
  webhook: { url: string; secret: string } | null
  /** The status new refunds start in: card refunds succeed at once, some methods stay pending. */
  refundStatus: 'succeeded' | 'pending'
  /** Whether charges in events list their refunds (older API versions did; current ones do not). */
  listRefundsOnCharge: boolean
  /** The most a list answers at once, whatever `limit` asks (Stripe's cap is 100); lower it to test paging. */
  listPageSize: number
  /**
   * How many of the next refunds are made and then answered 500, as when the connection drops after
   * Stripe refunded: the SDK retries with the same key and gets the refund made the first time.
   */
  loseRefundAnswers: number
  /** Marks a session paid and complete (what Stripe does when the customer pays) and returns it. */
  complete(sessionId: string, paymentStatus?: FakeStripeSession['payment_status']): FakeStripeSession
  /** A paid payment of `amount` cents with its charge, as a checkout payment makes; returns the charge. */
  pay(amount: number, currency?: string): FakeStripeCharge
  /**
   * Refunds as staff would in Stripe's dashboard: no idempotency key, no metadata; the same events.
   * Throws when Stripe would refuse.
   */
  dashboardRefund(paymentIntent: string, amount?: number): FakeStripeRefund
  /** The refund fails later, as with Stripe's test card 4000 0000 0000 5126: its amount is refundable again. */
  failRefund(refundId: string, reason?: string): FakeStripeRefund
  /** A pending refund succeeds. */
  succeedRefund(refundId: string): FakeStripeRefund
  /** Posts an event again (Stripe redelivers until answered 2xx); resolves with the answer's status. */
  deliver(eventId: string): Promise<number>
  /** Waits for every event posted so far to be answered. */
  flush(): Promise<void>
  /** A Stripe event wrapping the session, as JSON text ready to sign and post. */
  event(type: string, session: FakeStripeSession, eventId?: string): string
  /** Requests that created sessions (not retries answered from the idempotency cache). */
  createdSessions(): RecordedRequest[]
  /** Requests that created refunds (not retries answered from the idempotency cache). */
  createdRefunds(): RecordedRequest[]
  stop(): void
}

export function startFakeStripe(
  options: { secretKey?: string; webhook?: { url: string; secret: string } } = {},
): FakeStripe {
  const secretKey = options.secretKey ?? 'sk_test_fake_0123456789'
  const requests: RecordedRequest[] = []
  const created: RecordedRequest[] = []
  const createdRefunds: RecordedRequest[] = []
  const sessions = new Map<string, FakeStripeSession>()
  const charges = new Map<string, FakeStripeCharge>()
  const refunds = new Map<string, FakeStripeRefund>()
  const events: FakeStripeEvent[] = []
  const deliveries: Promise<unknown>[] = []
  /** Checkout session creations by Idempotency-Key: the answer saved, as JSON. */
  const idempotent = new Map<string, string>()
  /** Refund requests by Idempotency-Key: their parameters and the answer Stripe saved. */
  const idempotentRefunds = new Map<string, { params: string; status: number; body: Promise<unknown> }>()

  const now = () => Math.floor(Date.now() / 1000)

  function eventJson(type: string, object: unknown, eventId = id('evt_')): string {
    return JSON.stringify({
      id: eventId,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    })
  }

  /** Posts one event signed; 0 when there is no webhook or it cannot be reached (Stripe would retry). */
  async function post(event: FakeStripeEvent): Promise<number> {
    const target = fake.webhook
    if (!target) return 0
    try {
      const response = await fetch(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': stripeSignatureHeader(event.payload, target.secret, now()),
        },
        body: event.payload,
      })
      await response.arrayBuffer()
      return response.status
    } catch {
      return 0
    }
  }

  /** Records an event and, with a webhook set, posts it after the answer that caused it, as Stripe does. */
  function emit(type: string, object: unknown): void {
    const eventId = id('evt_')
    // A snapshot: later changes to the object do not change what this event said.
    const event = { id: eventId, type, payload: eventJson(type, object, eventId) }
    events.push(event)
    if (fake.webhook)
      deliveries.push(new Promise((resolve) => setTimeout(resolve, 0)).then(() => post(event)))
  }

  function chargeView(charge: FakeStripeCharge) {
    if (!fake.listRefundsOnCharge) return { ...charge }
    const data = [...refunds.values()].filter((refund) => refund.charge === charge.id).reverse()
    return {
      ...charge,
      refunds: {
        object: 'list',
        data,
        has_more: false,
        total_count: data.length,
        url: `/v1/charges/${charge.id}/refunds`,
      },
    }
  }

  function pay(amount: number, currency = 'usd', metadata: Record<string, string> = {}): FakeStripeCharge {
    const paymentIntent = id('pi_')
    const charge: FakeStripeCharge = {
      id: id('ch_'),
      object: 'charge',
      amount,
      amount_captured: amount,
      amount_refunded: 0,
      captured: true,
      created: now(),
      currency,
      livemode: false,
      metadata,
      paid: true,
      payment_intent: paymentIntent,
      refunded: false,
      status: 'succeeded',
    }
    charges.set(paymentIntent, charge)
    return charge
  }

  type RefundOutcome = { ok: true; refund: FakeStripeRefund } | { ok: false; response: Response }

  /** Stripe's checks and effects for one refund: never more than what is left of the charge. */
  function makeRefund(
    charge: FakeStripeCharge,
    amount: number | undefined,
    details: { reason: FakeStripeRefund['reason']; metadata: Record<string, string> },
  ): RefundOutcome {
    const left = charge.amount - charge.amount_refunded
    if (left <= 0) {
      return {
        ok: false,
        response: error(
          400,
          `Charge ${charge.id} has already been refunded.`,
          undefined,
          'charge_already_refunded',
        ),
      }
    }
    const refundAmount = amount ?? left
    if (refundAmount > left) {
      return {
        ok: false,
        response: error(
          400,
          `Refund amount (${dollars(refundAmount)}) is greater than unrefunded amount on charge (${dollars(left)})`,
          'amount',
          'amount_too_large',
        ),
      }
    }
    const refund: FakeStripeRefund = {
      id: id('re_'),
      object: 'refund',
      amount: refundAmount,
      balance_transaction: id('txn_'),
      charge: charge.id,
      created: now(),
      currency: charge.currency,
      metadata: details.metadata,
      payment_intent: charge.payment_intent,
      reason: details.reason,
      receipt_number: null,
      status: fake.refundStatus,
    }
    refunds.set(refund.id, refund)
    charge.amount_refunded += refundAmount
    charge.refunded = charge.amount_refunded >= charge.amount
    emit('refund.created', { ...refund })
    emit('charge.refunded', chargeView(charge))
    return { ok: true, refund }
  }

  function chargeOf(refund: FakeStripeRefund): FakeStripeCharge {
    const charge = charges.get(refund.payment_intent)
    if (!charge) throw new Error(`fake Stripe has no charge for ${refund.id}`)
    return charge
  }

  /** `executed` is false for parameters refused before anything ran: Stripe saves no answer for those. */
  function createRefund(body: Form): { response: Response; executed: boolean } {
    const refused = (response: Response) => ({ response, executed: false })
    const paymentIntent = typeof body.payment_intent === 'string' ? body.payment_intent : undefined
    const chargeId = typeof body.charge === 'string' ? body.charge : undefined
    if (!paymentIntent && !chargeId) {
      return refused(
        error(
          400,
          'One of the following params should be provided for this request: payment_intent or charge.',
          undefined,
          'parameter_missing',
        ),
      )
    }
    const charge = paymentIntent
      ? charges.get(paymentIntent)
      : [...charges.values()].find((candidate) => candidate.id === chargeId)
    if (!charge) {
      const param = paymentIntent ? 'payment_intent' : 'charge'
      return refused(
        error(400, `No such ${param}: '${paymentIntent ?? chargeId}'`, param, 'resource_missing'),
      )
    }
    let amount: number | undefined
    if (body.amount !== undefined) {
      amount = Number(body.amount)
      if (typeof body.amount !== 'string' || !/^\d+$/.test(body.amount) || amount < 1) {
        return refused(
          error(400, 'This value must be greater than or equal to 1.', 'amount', 'parameter_invalid_integer'),
        )
      }
    }
    const reason = typeof body.reason === 'string' ? body.reason : null
    if (reason !== null && !REFUND_REASONS.has(reason)) {
      return refused(
        error(
          400,
          'Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer',
          'reason',
        ),
      )
    }
    const metadata = Object.fromEntries(
      Object.entries(asForm(body.metadata)).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    )
    const outcome = makeRefund(charge, amount, { reason: reason as FakeStripeRefund['reason'], metadata })
    return { response: outcome.ok ? Response.json(outcome.refund) : outcome.response, executed: true }
  }

  /** GET /v1/refunds: newest first, paged with `limit` and `starting_after`, filtered by payment or charge. */
  function listRefunds(query: URLSearchParams): Response {
    const paymentIntent = query.get('payment_intent')
    const chargeId = query.get('charge')
    if (paymentIntent && !charges.has(paymentIntent)) {
      return error(400, `No such payment_intent: '${paymentIntent}'`, 'payment_intent', 'resource_missing')
    }
    const all = [...refunds.values()]
      .filter(
        (refund) =>
          (!paymentIntent || refund.payment_intent === paymentIntent) &&
          (!chargeId || refund.charge === chargeId),
      )
      .reverse()
    const after = query.get('starting_after')
    const start = after ? all.findIndex((refund) => refund.id === after) + 1 : 0
    const limit = Math.min(Number(query.get('limit') ?? 10) || 10, 100, fake.listPageSize)
    const data = all.slice(start, start + limit)
    return Response.json({ object: 'list', data, has_more: start + limit < all.length, url: '/v1/refunds' })
  }

  /**
   * Stripe saves the first answer to a key and gives it again for the same parameters (marked
   * Idempotent-Replayed); the same key with other parameters is an idempotency_error, and nothing is done.
   */
  async function refundsEndpoint(request: Request, recorded: RecordedRequest): Promise<Response> {
    const key = request.headers.get('idempotency-key')
    const params = fingerprint(recorded.body)
    const saved = key ? idempotentRefunds.get(key) : undefined
    if (key && saved) {
      if (saved.params !== params) {
        return error(
          400,
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          undefined,
          undefined,
          'idempotency_error',
        )
      }
      return Response.json(await saved.body, {
        status: saved.status,
        headers: { 'idempotent-replayed': 'true' },
      })
    }
    const { response, executed } = createRefund(recorded.body)
    // Saved before anything is awaited, so a retry arriving meanwhile finds it.
    if (key && executed) {
      idempotentRefunds.set(key, { params, status: response.status, body: response.clone().json() })
    }
    if (response.ok) {
      createdRefunds.push(recorded)
      if (fake.loseRefundAnswers > 0) {
        fake.loseRefundAnswers -= 1
        return error(500, 'An unknown error occurred', undefined, undefined, 'api_error')
      }
    }
    return response
  }

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
      payment_intent: null,
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
        // A key sent again gets the first answer as it was saved (Stripe: "retries with the same key
        // return the saved response"), whatever became of the session since: an ended one still says open.
        const earlier = key ? idempotent.get(key) : undefined
        if (earlier) return Response.json(JSON.parse(earlier), { headers: { 'idempotent-replayed': 'true' } })
        const response = createSession(recorded.body)
        if (response.ok) {
          created.push(recorded)
          const session = [...sessions.values()].at(-1)
          if (key && session) idempotent.set(key, JSON.stringify(session))
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
      if (request.method === 'POST' && url.pathname === '/v1/refunds') {
        return refundsEndpoint(request, recorded)
      }
      if (request.method === 'GET' && url.pathname === '/v1/refunds') {
        return listRefunds(url.searchParams)
      }
      const refundMatch = /^\/v1\/refunds\/([^/]+)$/.exec(url.pathname)
      if (request.method === 'GET' && refundMatch) {
        const refund = refunds.get(decodeURIComponent(refundMatch[1] ?? ''))
        if (!refund) return error(404, `No such refund: '${refundMatch[1]}'`, 'id', 'resource_missing')
        return Response.json(refund)
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

  const fake: FakeStripe = {
    url: `http://127.0.0.1:${server.port}`,
    host: '127.0.0.1',
    port: server.port ?? 0,
    secretKey,
    requests,
    sessions,
    charges,
    refunds,
    events,
    webhook: options.webhook ?? null,
    refundStatus: 'succeeded',
    listRefundsOnCharge: false,
    listPageSize: 100,
    loseRefundAnswers: 0,
    complete(sessionId, paymentStatus = 'paid') {
      const session = sessions.get(sessionId)
      if (!session) throw new Error(`fake Stripe has no session ${sessionId}`)
      session.status = 'complete'
      session.payment_status = paymentStatus
      session.customer_details = { email: session.customer_email }
      if (paymentStatus === 'paid' && !session.payment_intent) {
        session.payment_intent = pay(session.amount_total, session.currency, session.metadata).payment_intent
      }
      return session
    },
    pay: (amount, currency) => pay(amount, currency),
    dashboardRefund(paymentIntent, amount) {
      const charge = charges.get(paymentIntent)
      if (!charge) throw new Error(`fake Stripe has no payment ${paymentIntent}`)
      const outcome = makeRefund(charge, amount, { reason: 'requested_by_customer', metadata: {} })
      if (!outcome.ok) throw new Error(`fake Stripe refused the refund (${outcome.response.status})`)
      return outcome.refund
    },
    failRefund(refundId, reason = 'expired_or_canceled_card') {
      const refund = refunds.get(refundId)
      if (!refund) throw new Error(`fake Stripe has no refund ${refundId}`)
      if (refund.status === 'failed' || refund.status === 'canceled') return refund
      refund.status = 'failed'
      refund.failure_reason = reason
      // The money did not reach the customer: Stripe gives the amount back to the charge.
      const charge = chargeOf(refund)
      charge.amount_refunded -= refund.amount
      charge.refunded = false
      emit('refund.updated', { ...refund })
      emit('charge.refund.updated', { ...refund })
      emit('refund.failed', { ...refund })
      return refund
    },
    succeedRefund(refundId) {
      const refund = refunds.get(refundId)
      if (!refund) throw new Error(`fake Stripe has no refund ${refundId}`)
      if (refund.status !== 'pending' && refund.status !== 'requires_action') return refund
      refund.status = 'succeeded'
      emit('refund.updated', { ...refund })
      emit('charge.refund.updated', { ...refund })
      return refund
    },
    async deliver(eventId) {
      const event = events.find((candidate) => candidate.id === eventId)
      if (!event) throw new Error(`fake Stripe made no event ${eventId}`)
      return post(event)
    },
    async flush() {
      // Deliveries queued while waiting are waited for too.
      for (let seen = 0; seen < deliveries.length; seen = deliveries.length) {
        await Promise.all(deliveries.slice(seen))
      }
    },
    event(type, session, eventId = id('evt_')) {
      return eventJson(type, session, eventId)
    },
    createdSessions: () => created,
    createdRefunds: () => createdRefunds,
    stop: () => server.stop(true),
  }
  return fake
}
