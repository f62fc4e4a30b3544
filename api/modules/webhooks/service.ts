import { and, desc, eq, lt, or } from 'drizzle-orm'
import { type WebhookEventStatus, webhookEvents } from '../../../db/schema/orders'
import type { PaymentEvent, ProviderSession } from '../../adapters/types'
import type { AppDeps } from '../../deps'
import { formatOrderNumber } from '../../rules/order-status'
import { createCheckoutService } from '../checkout/service'
import { createDiscountService } from '../discounts/service'
import { createOrdersService } from '../orders/service'

/** An event stuck in 'received' this long was being handled by a process that died; a redelivery may retry it. */
const STUCK_AFTER_MS = 5 * 60 * 1000

export interface WebhookOutcome {
  /** True when this event id was already handled: nothing was done again. */
  duplicate: boolean
  status: WebhookEventStatus
  orderId: number | null
}

interface Handled {
  status: WebhookEventStatus
  orderId?: number | null
  note?: string
}

const PAID = new Set<ProviderSession['paymentStatus']>(['paid', 'no_payment_required'])

/**
 * Handles verified payment events, from Stripe's webhook or the demo provider. Each event id is stored
 * once; each checkout session makes at most one order however many events, in whatever order, arrive.
 */
export function createWebhookService(deps: AppDeps) {
  const { db, clock } = deps
  const checkout = createCheckoutService(deps)
  const orders = createOrdersService(deps)
  const discounts = createDiscountService(db, clock)

  /** Stores the event id, or re-takes a failed (or abandoned) one; false means someone already has it. */
  async function claim(event: PaymentEvent): Promise<boolean> {
    const now = clock.now()
    const inserted = await db
      .insert(webhookEvents)
      .values({ id: event.id, eventType: event.type, status: 'received', createdAt: now })
      .onConflictDoNothing({ target: webhookEvents.id })
      .returning({ id: webhookEvents.id })
    if (inserted.length > 0) return true
    const retaken = await db
      .update(webhookEvents)
      .set({ status: 'received', note: null })
      .where(
        and(
          eq(webhookEvents.id, event.id),
          or(
            eq(webhookEvents.status, 'failed'),
            and(
              eq(webhookEvents.status, 'received'),
              lt(webhookEvents.createdAt, new Date(now.getTime() - STUCK_AFTER_MS)),
            ),
          ),
        ),
      )
      .returning({ id: webhookEvents.id })
    return retaken.length > 0
  }

  async function createOrder(event: PaymentEvent, session: ProviderSession): Promise<Handled> {
    const record = await checkout.record(session.id)
    if (!record) return { status: 'ignored', note: 'unknown checkout session' }
    // The provider charged what it was asked; anything else means the session is not ours to fulfil. An
    // event that does not say what was charged cannot be checked, so it makes no order either.
    if (session.amountTotal === null) {
      console.error(`[webhooks] ${event.id}: no amount for session ${session.id}`)
      return { status: 'failed', note: 'amount missing' }
    }
    if (session.amountTotal !== record.totalCents) {
      console.error(
        `[webhooks] ${event.id}: amount ${session.amountTotal} differs from session total ${record.totalCents}`,
      )
      return { status: 'failed', note: 'amount does not match the checkout session' }
    }
    const { orderId, created } = await orders.createFromCheckout(record, event.id)
    await checkout.markStatus(record.id, 'complete', ['open', 'payment_pending', 'payment_failed', 'expired'])
    if (created && record.discountCode) {
      try {
        await discounts.recordRedemption(record.discountCode, {
          orderRef: formatOrderNumber(orderId),
          email: record.email,
          userId: record.userId,
        })
      } catch (error) {
        // The order stands; a missed redemption only lets a one-time code be used again.
        console.error(
          `[webhooks] redemption for order ${orderId} not recorded:`,
          error instanceof Error ? error.message : error,
        )
      }
    }
    return { status: 'processed', orderId, note: created ? undefined : 'order already existed' }
  }

  async function handle(event: PaymentEvent): Promise<Handled> {
    const session = event.session
    if (!session) return { status: 'ignored', note: 'not a checkout session event' }
    switch (event.type) {
      case 'checkout.session.completed':
        if (PAID.has(session.paymentStatus)) return createOrder(event, session)
        // Delayed payment methods: the customer finished, the money follows in an async_payment event.
        await checkout.markStatus(session.id, 'payment_pending', ['open'])
        return { status: 'processed', note: 'payment pending' }
      case 'checkout.session.async_payment_succeeded':
        return createOrder(event, session)
      case 'checkout.session.async_payment_failed':
        await checkout.markStatus(session.id, 'payment_failed', ['open', 'payment_pending'])
        return { status: 'processed' }
      case 'checkout.session.expired':
        await checkout.markStatus(session.id, 'expired', ['open', 'payment_pending'])
        return { status: 'processed' }
      default:
        return { status: 'ignored', note: 'event type not used' }
    }
  }

  return {
    /** The latest events, newest first, as the staff dashboard lists them. */
    async recent(limit = 50) {
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
        .orderBy(desc(webhookEvents.createdAt), desc(webhookEvents.id))
        .limit(Math.min(Math.max(limit, 1), 500))
    },

    async process(event: PaymentEvent): Promise<WebhookOutcome> {
      const started = performance.now()
      if (!(await claim(event))) {
        const [existing] = await db
          .select({ status: webhookEvents.status, orderId: webhookEvents.orderId })
          .from(webhookEvents)
          .where(eq(webhookEvents.id, event.id))
          .limit(1)
        return { duplicate: true, status: existing?.status ?? 'received', orderId: existing?.orderId ?? null }
      }
      let handled: Handled
      try {
        handled = await handle(event)
      } catch (error) {
        await db
          .update(webhookEvents)
          .set({
            status: 'failed',
            note: 'internal error',
            processingTimeMs: Math.round(performance.now() - started),
          })
          .where(eq(webhookEvents.id, event.id))
        throw error
      }
      await db
        .update(webhookEvents)
        .set({
          status: handled.status,
          orderId: handled.orderId ?? null,
          note: handled.note ?? null,
          processingTimeMs: Math.round(performance.now() - started),
        })
        .where(eq(webhookEvents.id, event.id))
      return { duplicate: false, status: handled.status, orderId: handled.orderId ?? null }
    },
  }
}

export type WebhookService = ReturnType<typeof createWebhookService>
