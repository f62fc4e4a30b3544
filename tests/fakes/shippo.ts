/**
 * A small local stand-in for Shippo's API, answering in Shippo's real JSON shapes (snake_case, ISO dates)
 * so the real `shippo` SDK validates and maps them: POST /shipments (with rates), POST /transactions
 * (buys a label), GET /transactions (lists them, newest first, paged), GET /transactions/{id}, and label
 * refunds: POST /refunds (one per label; the label's status becomes REFUNDPENDING, REFUNDED or
 * REFUNDREJECTED), GET /refunds/ and GET /refunds/{id}.
 */
import { randomBytes } from 'node:crypto'

export interface ShippoRecordedRequest {
  method: string
  path: string
  authorization: string | null
  body: Record<string, unknown>
}

export interface FakeShippoRate {
  provider: string
  token: string
  name: string
  amount: string
  currency?: string
  estimatedDays?: number
}

export const DEFAULT_FAKE_RATES: FakeShippoRate[] = [
  {
    provider: 'USPS',
    token: 'usps_ground_advantage',
    name: 'Ground Advantage',
    amount: '6.10',
    estimatedDays: 4,
  },
  { provider: 'USPS', token: 'usps_priority', name: 'Priority Mail', amount: '9.85', estimatedDays: 2 },
  {
    provider: 'USPS',
    token: 'usps_priority_express',
    name: 'Priority Mail Express',
    amount: '31.20',
    estimatedDays: 1,
  },
  {
    provider: 'DHL Express',
    token: 'dhl_express_worldwide',
    name: 'Express Worldwide',
    amount: '44.00',
    currency: 'EUR',
  },
]

function objectId(): string {
  return randomBytes(16).toString('hex')
}

export interface FakeShippo {
  url: string
  apiKey: string
  requests: ShippoRecordedRequest[]
  rates: FakeShippoRate[]
  /** When set, transactions answer with status ERROR and this message. */
  failLabels: string | null
  /** The rates labels were bought for, in order. */
  bought: FakeShippoRate[]
  /**
   * How many of the next label purchases succeed at Shippo but answer 500, as when the connection drops
   * after Shippo has bought the label: the shop does not learn of a label it paid for.
   */
  loseLabelAnswers: number
  /** Every transaction made, newest first, in Shippo's JSON: what GET /transactions lists. */
  transactions: Record<string, unknown>[]
  /** The status new label refunds get: USPS refunds are QUEUED, then settle days later. */
  refundStatus: 'QUEUED' | 'PENDING' | 'SUCCESS' | 'ERROR'
  /** Every label refund requested, in Shippo's JSON, oldest first. */
  refunds: Record<string, unknown>[]
  stop(): void
}

export function startFakeShippo(options: { apiKey?: string } = {}): FakeShippo {
  const apiKey = options.apiKey ?? 'shippo_test_fake_key'
  const requests: ShippoRecordedRequest[] = []
  const rateIndex = new Map<string, FakeShippoRate>()
  const state: FakeShippo = {
    url: '',
    apiKey,
    requests,
    rates: [...DEFAULT_FAKE_RATES],
    failLabels: null,
    bought: [],
    loseLabelAnswers: 0,
    transactions: [],
    refundStatus: 'QUEUED',
    refunds: [],
    stop: () => server.stop(true),
  }

  /** What a label's status becomes once a refund of it is asked for. */
  const REFUNDED_LABEL: Record<FakeShippo['refundStatus'], string> = {
    QUEUED: 'REFUNDPENDING',
    PENDING: 'REFUNDPENDING',
    SUCCESS: 'REFUNDED',
    ERROR: 'REFUNDREJECTED',
  }

  function address(input: unknown) {
    const a = (input ?? {}) as Record<string, unknown>
    return { ...a, object_id: objectId(), is_complete: true, object_created: new Date().toISOString() }
  }

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url)
      const body = request.method === 'POST' ? ((await request.json()) as Record<string, unknown>) : {}
      requests.push({
        method: request.method,
        path: url.pathname,
        authorization: request.headers.get('authorization'),
        body,
      })
      if (request.headers.get('authorization') !== `ShippoToken ${apiKey}`) {
        return Response.json({ detail: 'Invalid token.' }, { status: 401 })
      }
      const now = new Date().toISOString()
      if (request.method === 'POST' && url.pathname === '/shipments') {
        const shipmentId = objectId()
        const parcels = (body.parcels as Record<string, unknown>[] | undefined) ?? []
        return Response.json(
          {
            object_id: shipmentId,
            object_owner: 'shop@example.com',
            object_created: now,
            object_updated: now,
            status: 'SUCCESS',
            metadata: '',
            address_from: address(body.address_from),
            address_to: address(body.address_to),
            carrier_accounts: [],
            messages: [],
            test: true,
            parcels: parcels.map((parcel) => ({
              ...parcel,
              object_id: objectId(),
              object_state: 'VALID',
              test: true,
            })),
            rates: state.rates.map((rate) => {
              const id = objectId()
              rateIndex.set(id, rate)
              return {
                object_id: id,
                object_owner: 'shop@example.com',
                object_created: now,
                shipment: shipmentId,
                amount: rate.amount,
                currency: rate.currency ?? 'USD',
                amount_local: rate.amount,
                currency_local: rate.currency ?? 'USD',
                attributes: [],
                carrier_account: 'carrier_account_1',
                provider: rate.provider,
                servicelevel: { name: rate.name, token: rate.token, terms: '' },
                ...(rate.estimatedDays ? { estimated_days: rate.estimatedDays } : {}),
                duration_terms: '',
                test: true,
              }
            }),
          },
          { status: 201 },
        )
      }
      if (request.method === 'POST' && url.pathname === '/transactions') {
        const rateId = String(body.rate ?? '')
        const rate = rateIndex.get(rateId)
        if (!rate) {
          return Response.json({ rate: ['Rate object not found.'] }, { status: 400 })
        }
        const failed = state.failLabels
        if (!failed) state.bought.push(rate)
        const trackingNumber = `9400${String(state.transactions.length + 1).padStart(18, '0')}`
        const transaction = {
          object_id: objectId(),
          object_owner: 'shop@example.com',
          object_created: now,
          object_updated: now,
          object_state: 'VALID',
          status: failed ? 'ERROR' : 'SUCCESS',
          metadata: typeof body.metadata === 'string' ? body.metadata : '',
          label_file_type: 'PDF_4x6',
          test: true,
          messages: failed ? [{ source: 'USPS', code: 'ERR', text: failed }] : [],
          ...(failed
            ? {}
            : {
                tracking_number: trackingNumber,
                tracking_status: 'UNKNOWN',
                // As Shippo sends it: the carrier's own page for this parcel.
                tracking_url_provider: `https://tools.usps.com/go/TrackConfirmAction_input?origTrackNum=${trackingNumber}`,
                label_url: `https://shippo-delivery.example/labels/${objectId()}.pdf`,
              }),
        }
        // Listed with the rate expanded, as Shippo lists them; created answers carry the rate id.
        state.transactions.unshift({
          ...transaction,
          rate: {
            object_id: rateId,
            provider: rate.provider,
            amount: rate.amount,
            currency: rate.currency ?? 'USD',
          },
        })
        if (!failed && state.loseLabelAnswers > 0) {
          state.loseLabelAnswers -= 1
          return Response.json({ detail: 'Upstream connection reset.' }, { status: 500 })
        }
        return Response.json({ ...transaction, rate: rateId }, { status: 201 })
      }
      const transactionMatch = /^\/transactions\/([^/]+)\/?$/.exec(url.pathname)
      if (request.method === 'GET' && transactionMatch) {
        const found = state.transactions.find((t) => t.object_id === transactionMatch[1])
        if (!found) return Response.json({ detail: 'Not found.' }, { status: 404 })
        return Response.json(found)
      }
      if (request.method === 'POST' && /^\/refunds\/?$/.test(url.pathname)) {
        const transactionId = String(body.transaction ?? '')
        const label = state.transactions.find((t) => t.object_id === transactionId)
        if (!label) return Response.json({ transaction: ['Transaction not found.'] }, { status: 400 })
        if (label.status !== 'SUCCESS') {
          // A label never bought, or one whose refund was already asked for, cannot be refunded again.
          return Response.json(
            { transaction: [`Transaction with status ${String(label.status)} cannot be refunded.`] },
            { status: 400 },
          )
        }
        const refund = {
          object_id: objectId(),
          object_owner: 'shop@example.com',
          object_created: now,
          object_updated: now,
          status: state.refundStatus,
          test: true,
          transaction: transactionId,
        }
        state.refunds.push(refund)
        label.status = REFUNDED_LABEL[state.refundStatus]
        label.object_updated = now
        return Response.json(refund, { status: 201 })
      }
      if (request.method === 'GET' && /^\/refunds\/?$/.test(url.pathname)) {
        return Response.json({ next: null, previous: null, results: [...state.refunds].reverse() })
      }
      const refundMatch = /^\/refunds\/([^/]+)\/?$/.exec(url.pathname)
      if (request.method === 'GET' && refundMatch) {
        const found = state.refunds.find((refund) => refund.object_id === refundMatch[1])
        if (!found) return Response.json({ detail: 'Not found.' }, { status: 404 })
        return Response.json(found)
      }
      if (request.method === 'GET' && url.pathname === '/transactions') {
        const status = url.searchParams.get('object_status')
        const page = Number(url.searchParams.get('page') ?? 1)
        const size = Number(url.searchParams.get('results') ?? 25)
        const matching = state.transactions.filter((t) => !status || t.status === status)
        const results = matching.slice((page - 1) * size, page * size)
        const next =
          page * size < matching.length ? `${state.url}/transactions?page=${page + 1}&results=${size}` : null
        return Response.json({ next, previous: null, results })
      }
      return Response.json({ detail: 'Not found.' }, { status: 404 })
    },
  })
  state.url = `http://127.0.0.1:${server.port}`
  return state
}
