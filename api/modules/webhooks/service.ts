import type { WebhookEventStatus } from '@core/rules/webhook-event-status'
import { and, desc, eq, gt, isNull, lt, or, type SQL, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { webhookEvents } from '../../../db/schema/webhooks'
import type { PaymentEvent, PaymentProvider, ProviderSession } from '../../adapters/types'
import type { Clock } from '../../lib/clock'
import { isDatabaseBusy, whileBusy } from '../../lib/database-busy'
import { isStorageFull } from '../../lib/storage-full'
import type { FulfilmentService } from '../fulfilment/service'

/**
 * A handler's lease on an event, unless EVENT_LEASE_SECONDS says otherwise. Handling takes milliseconds (no
 * outside calls), so an event still leased after this was being handled by a process that died; a
 * redelivery or the sweep takes it over.
 */
export const EVENT_LEASE_MS = 60 * 1000

/** How long a handler keeps trying to write down an event's outcome while another writer holds the database. */
const RELEASE_WAIT_MS = 10_000

/** The sweep leaves events this young to the request that stored them. */
const SWEEP_GRACE_MS = 30 * 1000
/** Events older than this are past any payment session's life: the sweep stops looking at them. */
const SWEEP_HORIZON_MS = 48 * 60 * 60 * 1000

export interface WebhookOutcome {
  /** True when this event id was already handled: nothing was done again. */
  duplicate: boolean
  /** True when another handler holds the event right now: the provider should deliver it again later. */
  inFlight: boolean
  status: WebhookEventStatus
  orderId: number | null
}

interface Handled {
  status: WebhookEventStatus
  orderId?: number | null
  note?: string
  /** The event's outcome was written with the order, in the same transaction: nothing left to record. */
  recorded?: boolean
}

/** The note of a paid-session event whose order an earlier event had made (a duplicate or a sibling). */
const ALREADY_EXISTED = 'order already existed'

const PAID = new Set<ProviderSession['paymentStatus']>(['paid', 'no_payment_required'])
const PAYMENT_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded'])

/** The event as stored for the sweep: what the shop reads of it, without the customer's e-mail. */
function storedPayload(event: PaymentEvent): string {
  const session = event.session ? { ...event.session, customerEmail: null, clientSecret: null } : null
  return JSON.stringify({ ...event, session })
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
 * Handles verified payment events, from Stripe's webhook or the demo provider: stores each event id once
 * and holds a lease on it while it is handled, so of any number of deliveries, processes and instances one
 * handles it; what the event does to the shop is the fulfilment service's. Each checkout session makes at
 * most one order however many events, in whatever order, arrive.
 */
export function createWebhookService(deps: WebhookServiceDeps) {
  const { db, clock, fulfilment } = deps
  const leaseMs = deps.eventLeaseMs ?? EVENT_LEASE_MS

  /** Events this process is handling now: a duplicate delivered meanwhile waits for the same answer. */
  const inFlight = new Map<string, Promise<WebhookOutcome>>()

  /**
   * Keeps the verified event before anything is done about it, so a crash never loses it. With `claim`,
   * a new event is stored already leased to the caller (one write instead of two); true means it was new.
   */
  async function store(event: PaymentEvent, options: { claim?: boolean } = {}): Promise<boolean> {
    const now = clock.now()
    const stored = await db
      .insert(webhookEvents)
      .values({
        id: event.id,
        eventType: event.type,
        sessionId: event.session?.id ?? null,
        status: 'received',
        payload: storedPayload(event),
        claimedUntil: options.claim ? now.getTime() + leaseMs : null,
        createdAt: now,
      })
      .onConflictDoNothing({ target: webhookEvents.id })
      .returning({ id: webhookEvents.id })
    return stored.length > 0
  }

  /**
   * Takes the lease on an unfinished (or failed) event with one conditional UPDATE: of several handlers,
   * processes or instances, exactly one gets it.
   */
  async function claim(id: string): Promise<boolean> {
    const now = clock.now().getTime()
    const taken = await db
      .update(webhookEvents)
      .set({ status: 'received', note: null, claimedUntil: now + leaseMs })
      .where(
        and(
          eq(webhookEvents.id, id),
          or(
            eq(webhookEvents.status, 'failed'),
            and(
              eq(webhookEvents.status, 'received'),
              or(isNull(webhookEvents.claimedUntil), lt(webhookEvents.claimedUntil, now)),
            ),
          ),
        ),
      )
      .returning({ id: webhookEvents.id })
    return taken.length > 0
  }

  /**
   * The event's outcome, as a statement: run on its own once the event is handled, or inside the paid
   * session's transaction, where the order's id and the note are SQL evaluated with the order.
   */
  function outcomeStatement(
    eventId: string,
    outcome: { status: WebhookEventStatus; orderId: number | SQL | null; note: string | SQL | null },
    started: number,
  ) {
    return db
      .update(webhookEvents)
      .set({
        status: outcome.status,
        orderId: outcome.orderId,
        note: outcome.note,
        claimedUntil: null,
        processingTimeMs: Math.round(performance.now() - started),
      })
      .where(eq(webhookEvents.id, eventId))
  }

  /** A paid session: fulfilment makes the order, with this event's outcome in the same transaction. */
  async function paid(event: PaymentEvent, session: ProviderSession, started: number): Promise<Handled> {
    const result = await fulfilment.paidSession({ eventId: event.id, session }, (order) =>
      outcomeStatement(
        event.id,
        {
          status: 'processed',
          orderId: order.orderId,
          note: sql`case when ${order.created} then null else ${ALREADY_EXISTED} end`,
        },
        started,
      ),
    )
    switch (result.kind) {
      case 'unknown-session':
        return { status: 'ignored', note: 'unknown checkout session' }
      case 'not-as-asked':
        return { status: 'failed', note: result.reason }
      case 'ordered':
        return {
          status: 'processed',
          orderId: result.orderId,
          note: result.created ? undefined : ALREADY_EXISTED,
          recorded: true,
        }
    }
  }

  async function handle(event: PaymentEvent, started: number): Promise<Handled> {
    const session = event.session
    if (!session) return { status: 'ignored', note: 'not a checkout session event' }
    switch (event.type) {
      case 'checkout.session.completed':
        if (PAID.has(session.paymentStatus)) return paid(event, session, started)
        // Delayed payment methods: the customer finished, the money follows in an async_payment event.
        await fulfilment.paymentPending(session.id)
        return { status: 'processed', note: 'payment pending' }
      case 'checkout.session.async_payment_succeeded':
        return paid(event, session, started)
      case 'checkout.session.async_payment_failed':
        await fulfilment.sessionEnded(session.id, 'payment_failed')
        return { status: 'processed' }
      case 'checkout.session.expired':
        await fulfilment.sessionEnded(session.id, 'expired')
        return { status: 'processed' }
      default:
        return { status: 'ignored', note: 'event type not used' }
    }
  }

  const service = {
    /** How long another handler may hold an event: a provider told to deliver again should wait this long. */
    leaseSeconds: Math.ceil(leaseMs / 1000),

    /** The latest events, newest first. */
    async recent(limit = 50) {
      return service.page({ limit })
    },

    /**
     * One page of events, newest first: those older than the event `before` when it is given (an unknown
     * id gives an empty page). Keyset paging on (created_at, id), one index, flat cost however many events.
     */
    async page(options: { limit: number; before?: string }) {
      const cursor =
        options.before === undefined
          ? undefined
          : sql`(${webhookEvents.createdAt}, ${webhookEvents.id}) < (select ${webhookEvents.createdAt}, ${webhookEvents.id} from ${webhookEvents} where ${webhookEvents.id} = ${options.before})`
      return db
        .select({
          id: webhookEvents.id,
          eventType: webhookEvents.eventType,
          orderId: webhookEvents.orderId,
          status: webhookEvents.status,
          processingTimeMs: webhookEvents.processingTimeMs,
          createdAt: webhookEvents.createdAt,
        })
        .from(webhookEvents)
        .where(cursor)
        .orderBy(desc(webhookEvents.createdAt), desc(webhookEvents.id))
        .limit(Math.min(Math.max(options.limit, 1), 500))
    },

    store: (event: PaymentEvent) => store(event).then(() => undefined),

    /**
     * Stores the event once, then handles it under a lease. A duplicate of an event this process is handling
     * waits for its answer; one that another process holds answers `inFlight`, so the provider retries
     * instead of counting it delivered; one already finished answers `duplicate`.
     */
    process(event: PaymentEvent): Promise<WebhookOutcome> {
      const running = inFlight.get(event.id)
      if (running) return running.then((outcome) => ({ ...outcome, duplicate: true }))
      const outcome = handleOnce(event).finally(() => inFlight.delete(event.id))
      inFlight.set(event.id, outcome)
      return outcome
    },

    /**
     * Finishes events left unfinished by a process that died (their lease has run out). A payment event is
     * acted on only if the provider confirms the session is paid now: the demo provider stores its event
     * just before it marks the session paid. Returns how many events were finished.
     */
    async sweep(): Promise<number> {
      const now = clock.now().getTime()
      const stale = await db
        .select({ id: webhookEvents.id, payload: webhookEvents.payload })
        .from(webhookEvents)
        .where(
          and(
            eq(webhookEvents.status, 'received'),
            or(isNull(webhookEvents.claimedUntil), lt(webhookEvents.claimedUntil, now)),
            lt(webhookEvents.createdAt, new Date(now - SWEEP_GRACE_MS)),
            gt(webhookEvents.createdAt, new Date(now - SWEEP_HORIZON_MS)),
          ),
        )
        .orderBy(webhookEvents.createdAt)
        .limit(100)
      let finished = 0
      for (const row of stale) {
        if (!row.payload) continue
        const event = JSON.parse(row.payload) as PaymentEvent
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

  async function handleOnce(event: PaymentEvent): Promise<WebhookOutcome> {
    const started = performance.now()
    const claimed = (await store(event, { claim: true })) || (await claim(event.id))
    if (!claimed) {
      const [existing] = await db
        .select({ status: webhookEvents.status, orderId: webhookEvents.orderId })
        .from(webhookEvents)
        .where(eq(webhookEvents.id, event.id))
        .limit(1)
      const status = existing?.status ?? 'received'
      return {
        duplicate: status !== 'received',
        inFlight: status === 'received',
        status,
        orderId: existing?.orderId ?? null,
      }
    }
    let handled: Handled
    try {
      handled = await handle(event, started)
    } catch (error) {
      // Released even while another writer holds the database, so a redelivery can take the event at once
      // instead of waiting out the lease.
      const note = isDatabaseBusy(error)
        ? 'database busy'
        : isStorageFull(error)
          ? 'disk full'
          : 'internal error'
      await whileBusy(
        () => outcomeStatement(event.id, { status: 'failed', orderId: null, note }, started),
        RELEASE_WAIT_MS,
      )
      throw error
    }
    if (!handled.recorded) {
      const outcome = { status: handled.status, orderId: handled.orderId ?? null, note: handled.note ?? null }
      await whileBusy(() => outcomeStatement(event.id, outcome, started), RELEASE_WAIT_MS)
    }
    return { duplicate: false, inFlight: false, status: handled.status, orderId: handled.orderId ?? null }
  }

  return service
}

export type WebhookService = ReturnType<typeof createWebhookService>
