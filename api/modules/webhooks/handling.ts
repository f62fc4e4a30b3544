/** What each payment event asks of the shop, handed to the fulfilment service. */
import type { WebhookEventStatus } from '@core/rules/webhook-event-status'
import type { PaymentEvent, ProviderSession, RefundActivity } from '../../adapters/types'
import type { FulfilmentService, PaidSessionResult } from '../fulfilment/service'
import type { EventStore } from './events'

export interface Handled {
  status: WebhookEventStatus
  orderId?: number | null
  note?: string
  /** The event's outcome was written with the order, in the same transaction: nothing left to record. */
  recorded?: boolean
}

/** The note of a paid-session event whose order an earlier event had made (a duplicate or a sibling). */
export const ALREADY_EXISTED = 'order already existed'

export const PAID = new Set<ProviderSession['paymentStatus']>(['paid', 'no_payment_required'])
export const PAYMENT_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
])

interface HandlingDeps {
  fulfilment: FulfilmentService
  events: Pick<EventStore, 'outcomeStatement' | 'paidOutcomeStatement'>
}

/** What a paid session's handling comes to, from what fulfilment made of it. */
export function paidHandled(result: PaidSessionResult): Handled {
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

/** A paid session: fulfilment makes the order, with this event's outcome in the same transaction. */
async function paid(
  { fulfilment, events }: HandlingDeps,
  event: PaymentEvent,
  session: ProviderSession,
  started: number,
): Promise<Handled> {
  const result = await fulfilment.paidSession({ eventId: event.id, session }, (order) =>
    events.paidOutcomeStatement(event.id, order, ALREADY_EXISTED, started),
  )
  return paidHandled(result)
}

/**
 * A refund event: fulfilment moves each refund it carries forward once, with this event's outcome in the
 * same transaction. A payment the shop has no order for (another shop's on the same account, or an order
 * from before payments were kept) is ignored.
 */
async function refunds(
  { fulfilment, events }: HandlingDeps,
  event: PaymentEvent,
  activity: RefundActivity,
  started: number,
): Promise<Handled> {
  // Each comes with its own event too; any the shop has not counted are asked of the provider by a job.
  const note = activity.refunds.length === 0 ? 'no refund listed: asked of the provider if any is new' : null
  const result = await fulfilment.refundEvent(activity, (orderId) =>
    events.outcomeStatement(event.id, { status: 'processed', orderId, note }, started),
  )
  if (result.kind === 'unknown-payment') return { status: 'ignored', note: 'no order for this payment' }
  return { status: 'processed', orderId: result.orderId, note: note ?? undefined, recorded: true }
}

/** The paid session an event says was paid (what `handleEvent` makes an order of), or null. */
export function paidSessionOf(event: PaymentEvent): ProviderSession | null {
  if (event.kind === 'refund' || !event.session) return null
  if (event.type === 'checkout.session.async_payment_succeeded') return event.session
  if (event.type === 'checkout.session.completed' && PAID.has(event.session.paymentStatus))
    return event.session
  return null
}

/** Handles one event its caller holds the lease on; the outcome is recorded by the caller unless `recorded`. */
export async function handleEvent(
  deps: HandlingDeps,
  event: PaymentEvent,
  started: number,
): Promise<Handled> {
  if (event.kind === 'refund') return refunds(deps, event, event.refund, started)
  const session = event.session
  if (!session) return { status: 'ignored', note: 'not a checkout session event' }
  switch (event.type) {
    case 'checkout.session.completed':
      if (PAID.has(session.paymentStatus)) return paid(deps, event, session, started)
      // Delayed payment methods: the customer finished, the money follows in an async_payment event.
      await deps.fulfilment.paymentPending(session.id)
      return { status: 'processed', note: 'payment pending' }
    case 'checkout.session.async_payment_succeeded':
      return paid(deps, event, session, started)
    case 'checkout.session.async_payment_failed':
      await deps.fulfilment.sessionEnded(session.id, 'payment_failed')
      return { status: 'processed' }
    case 'checkout.session.expired':
      await deps.fulfilment.sessionEnded(session.id, 'expired')
      return { status: 'processed' }
    default:
      return { status: 'ignored', note: 'event type not used' }
  }
}
