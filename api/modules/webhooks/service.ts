import type { WebhookEventStatus } from '@core/rules/webhook-event-status'
import type { Database } from '../../../db/client'
import type { PaymentEvent, PaymentProvider } from '../../adapters/types'
import type { Clock } from '../../lib/clock'
import { isDatabaseBusy, whileBusy } from '../../lib/database-busy'
import { errorMessage, log } from '../../lib/log'
import { isStorageFull } from '../../lib/storage-full'
import type { FulfilmentService } from '../fulfilment/service'
import { createEventStore, type EventStore } from './events'
import {
  ALREADY_EXISTED,
  type Handled,
  handleEvent,
  PAID,
  PAYMENT_EVENTS,
  paidHandled,
  paidSessionOf,
} from './handling'

/**
 * A handler's lease on an event, unless EVENT_LEASE_SECONDS says otherwise. Handling takes milliseconds (no
 * outside calls), so an event still leased after this was being handled by a process that died; a
 * redelivery or the sweep takes it over.
 */
export const EVENT_LEASE_MS = 60 * 1000

/** How long a handler keeps trying to write down an event's outcome while another writer holds the database. */
const RELEASE_WAIT_MS = 10_000

export interface WebhookOutcome {
  /** True when this event id was already handled: nothing was done again. */
  duplicate: boolean
  /** True when another handler holds the event right now: the provider should deliver it again later. */
  inFlight: boolean
  status: WebhookEventStatus
  orderId: number | null
}

/** What a first delivery came to: the answer, or none (handled the usual way), perhaps with its handling. */
interface FirstDelivery {
  outcome: WebhookOutcome | null
  known?: Handled
}

export interface WebhookServiceDeps {
  db: Database
  clock: Clock
  payments: PaymentProvider
  /** How long a handler holds an event; EVENT_LEASE_MS by default. */
  eventLeaseMs?: number
  /** What a payment event does to the shop: the order, the session, the discount. */
  fulfilment: FulfilmentService
}

/**
 * Handles an event this call has just claimed: its outcome is written down whatever happens, even while
 * another writer holds the database, so a redelivery can take a failed event at once instead of waiting
 * out the lease.
 */
async function handleClaimed(
  events: EventStore,
  fulfilment: FulfilmentService,
  event: PaymentEvent,
  started: number,
  known?: Handled,
): Promise<Handled> {
  let handled: Handled
  try {
    handled = known ?? (await handleEvent({ fulfilment, events }, event, started))
  } catch (error) {
    const note = isDatabaseBusy(error)
      ? 'database busy'
      : isStorageFull(error)
        ? 'disk full'
        : 'internal error'
    const failed = { status: 'failed' as const, orderId: null, note }
    await whileBusy(() => events.outcomeStatement(event.id, failed, started), RELEASE_WAIT_MS)
    throw error
  }
  if (!handled.recorded) {
    const outcome = { status: handled.status, orderId: handled.orderId ?? null, note: handled.note ?? null }
    await whileBusy(() => events.outcomeStatement(event.id, outcome, started), RELEASE_WAIT_MS)
  }
  return handled
}

/**
 * Handles verified payment events, from Stripe's webhook or the demo provider: stores each event id once
 * and holds a lease on it while it is handled, so of any number of deliveries, processes and instances one
 * handles it; what the event does to the shop is the fulfilment service's. Each checkout session makes at
 * most one order however many events, in whatever order, arrive.
 */
export function createWebhookService(deps: WebhookServiceDeps) {
  const leaseMs = deps.eventLeaseMs ?? EVENT_LEASE_MS
  const events = createEventStore({ db: deps.db, clock: deps.clock, leaseMs })

  /** Events this process is handling now: a duplicate delivered meanwhile waits for the same answer. */
  const inFlight = new Map<string, Promise<WebhookOutcome>>()

  /**
   * Stores the event and takes its lease, then handles it, its outcome written down whatever happens.
   * `known`: what handling it comes to, already worked out by a first delivery that wrote nothing (a paid
   * event for an unknown session, or not paid as asked), so it is not worked out, and logged, twice.
   */
  async function handleOnce(
    event: PaymentEvent,
    started = performance.now(),
    known?: Handled,
  ): Promise<WebhookOutcome> {
    const claimed = (await events.store(event, { claim: true })) || (await events.claim(event.id))
    if (!claimed) {
      const existing = await events.current(event.id)
      const status = existing?.status ?? 'received'
      const orderId = existing?.orderId ?? null
      return { duplicate: status !== 'received', inFlight: status === 'received', status, orderId }
    }
    const handled = await handleClaimed(events, deps.fulfilment, event, started, known)
    return { duplicate: false, inFlight: false, status: handled.status, orderId: handled.orderId ?? null }
  }

  /**
   * A paid event the provider delivers for the first time: its order and the event, stored as processed,
   * in one transaction, instead of the event stored and leased first in a transaction of its own. No
   * outcome when that is not what happened, with nothing written: the event was stored before (its INSERT
   * fails the transaction), it makes no order (an unknown session, one not paid as asked: `known` says so),
   * or the transaction failed; the caller then handles it as any event. Another writer's lock or a full
   * disk is thrown (503). A crash before the commit leaves nothing, and the provider, answered nothing,
   * delivers the event again (docs/decisions/014-one-transaction-per-paid-session.md).
   */
  async function firstDelivery(event: PaymentEvent, started: number): Promise<FirstDelivery> {
    const session = paidSessionOf(event)
    if (!session) return { outcome: null }
    try {
      const result = await deps.fulfilment.paidSession({ eventId: event.id, session }, (order) =>
        events.firstPaidStatement(event, order, ALREADY_EXISTED, started),
      )
      if (result.kind !== 'ordered') return { outcome: null, known: paidHandled(result) }
      return { outcome: { duplicate: false, inFlight: false, status: 'processed', orderId: result.orderId } }
    } catch (error) {
      // Another writer holding the database, or a full disk: nothing was written, and the usual way would
      // only wait for the same again. Answered 503, so the provider delivers the event later.
      if (isDatabaseBusy(error) || isStorageFull(error)) throw error
      // The event stored already (a redelivery) is what the usual way is for; anything else is said.
      if (!errorMessage(error).includes('webhook_events.id')) {
        log.warn('a paid event could not be stored with its order: handled the usual way', {
          event: event.id,
          error: errorMessage(error),
        })
      }
      return { outcome: null }
    }
  }

  /** `run` for the event, unless this process is handling it already: then the answer of that, a duplicate. */
  function once(event: PaymentEvent, run: () => Promise<WebhookOutcome>): Promise<WebhookOutcome> {
    const running = inFlight.get(event.id)
    if (running) return running.then((outcome) => ({ ...outcome, duplicate: true }))
    const outcome = run().finally(() => inFlight.delete(event.id))
    inFlight.set(event.id, outcome)
    return outcome
  }

  const service = {
    /** How long another handler may hold an event: a provider told to deliver again should wait this long. */
    leaseSeconds: Math.ceil(leaseMs / 1000),

    /** The latest events, newest first. */
    recent: (limit = 50) => events.page({ limit }),

    page: events.page,

    store: (event: PaymentEvent) => events.store(event).then(() => undefined),

    /**
     * Stores the event once, then handles it under a lease. A duplicate of an event this process is handling
     * waits for its answer; one that another process holds answers `inFlight`, so the provider retries
     * instead of counting it delivered; one already finished answers `duplicate`.
     */
    process(event: PaymentEvent): Promise<WebhookOutcome> {
      return once(event, () => handleOnce(event))
    },

    /**
     * An event as the provider's webhook delivers it: a paid one seen for the first time makes its order
     * with the event in one transaction (`firstDelivery`); any other is stored, then handled, as `process`.
     */
    deliver(event: PaymentEvent): Promise<WebhookOutcome> {
      return once(event, async () => {
        const started = performance.now()
        const first = await firstDelivery(event, started)
        return first.outcome ?? handleOnce(event, started, first.known)
      })
    },

    /**
     * Finishes events left unfinished by a process that died (their lease has run out). A payment event is
     * acted on only if the provider confirms the session is paid now: the demo provider stores its event
     * just before it marks the session paid. Returns how many events were finished.
     */
    async sweep(): Promise<number> {
      let finished = 0
      for (const event of await events.stale()) {
        if (PAYMENT_EVENTS.has(event.type) && event.session) {
          const current = await deps.payments.retrieveSession(event.session.id)
          if (!current || !PAID.has(current.paymentStatus)) continue
          // Stored before events kept their currency: the provider's session says what it was charged in.
          event.session.currency ??= current.currency
        }
        const outcome = await service.process(event)
        if (!outcome.inFlight && !outcome.duplicate) finished += 1
      }
      return finished
    },
  }
  return service
}

export type WebhookService = ReturnType<typeof createWebhookService>
