/**
 * The orders module's background jobs: the confirmation, shipping, refund and cancellation e-mails, the
 * label purchase and the void of a label that will not ship.
 */
import { formatOrderNumber } from '@core/rules/order-status'
import { countsAsRefunded } from '@core/rules/refunds'
import type { LabelToVoid, Mailer } from '../../adapters/types'
import type { Config } from '../../env'
import { log } from '../../lib/log'
import type { AbandonedJobHandler, JobHandler } from '../jobs/service'
import { orderConfirmationEmail, orderShippedEmail } from './email'
import type { LabelVoid } from './label-void'
import type { LabelPurchase } from './labels'
import { ORDER_JOBS, type Order, type OrderRow, type Refund } from './model'
import { orderCancelledEmail, orderRefundEmail } from './refund-email'

/**
 * The customer deleted their account after this order shipped: it keeps no e-mail (forgetCustomerQueries),
 * so an e-mail about it still waiting in the queue has nobody to go to and is dropped, not retried.
 */
function customerForgotten(order: Pick<OrderRow, 'email'>): boolean {
  return order.email === ''
}

function numberPayload(payload: unknown, field: 'orderId' | 'refundCents'): number {
  const value = (payload as Record<string, unknown> | null)?.[field]
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw new Error(`job payload has no ${field}`)
  return value
}

const orderIdPayload = (payload: unknown) => numberPayload(payload, 'orderId')

/** The label a void job carries (one taken off an order refunded in full), or null: the order's own. */
function labelPayload(payload: unknown): LabelToVoid | null {
  const label = (payload as { label?: Record<string, unknown> } | null)?.label
  if (label === undefined) return null
  const { reference, trackingNumber, labelId } = label
  if (typeof reference !== 'string' || typeof trackingNumber !== 'string')
    throw new Error('job payload has no label to void')
  return { reference, trackingNumber, labelId: typeof labelId === 'string' ? labelId : null }
}

function refundIdPayload(payload: unknown): string {
  const id = (payload as { refundId?: unknown } | null)?.refundId
  if (typeof id !== 'string' || id === '') throw new Error('job payload has no refund id')
  return id
}

export interface OrderJobsDeps {
  mailer: Mailer
  config: Config
  get: (id: number) => Promise<Order | null>
  labels: LabelPurchase
  labelVoid: LabelVoid
  refund: (id: string) => Promise<Refund | null>
}

export function createOrderJobs({ mailer, config, get, labels, labelVoid, refund }: OrderJobsDeps) {
  async function orderToMail(orderId: number): Promise<Order | null> {
    const order = await get(orderId)
    if (!order) throw new Error(`order ${orderId} not found`)
    return customerForgotten(order) ? null : order
  }

  const jobs = {
    /**
     * Not sent once the order is cancelled or refunded in full: "ships within 1–2 business days" is no
     * longer true (a confirmation that failed for good and is retried by staff after the cancellation).
     */
    async sendConfirmation(orderId: number): Promise<void> {
      const order = await orderToMail(orderId)
      if (!order) return
      if (order.status === 'cancelled' || order.status === 'refunded') {
        log.info('order e-mail no longer true: not sent', {
          order: formatOrderNumber(orderId),
          email: 'confirmation',
        })
        return
      }
      await mailer.send(orderConfirmationEmail(order, config))
    },

    async sendShippedEmail(orderId: number): Promise<void> {
      const order = await orderToMail(orderId)
      if (order) await mailer.send(orderShippedEmail(order, config))
    },

    /** Not sent once the refund failed or was canceled at the provider: the money did not come back. */
    async sendRefundEmail(orderId: number, refundId: string): Promise<void> {
      const order = await orderToMail(orderId)
      const made = await refund(refundId)
      if (!made) throw new Error(`refund ${refundId} not found`)
      if (!order) return
      if (!countsAsRefunded(made.status)) {
        log.info('order e-mail no longer true: not sent', {
          order: formatOrderNumber(orderId),
          email: 'refund',
        })
        return
      }
      await mailer.send(orderRefundEmail(order, made, config))
    },

    async sendCancelledEmail(orderId: number, refundCents: number): Promise<void> {
      const order = await orderToMail(orderId)
      if (order) await mailer.send(orderCancelledEmail(order, refundCents, config))
    },

    /** What this module does with its jobs given up after their worker died on the last attempt. */
    abandonedJobHandlers(): Record<string, AbandonedJobHandler> {
      return {
        [ORDER_JOBS.purchaseLabel]: (payload, reason) => labels.abandonLabel(orderIdPayload(payload), reason),
        [ORDER_JOBS.voidLabel]: (payload, reason) =>
          labelVoid.noteVoidGivenUp(orderIdPayload(payload), reason, labelPayload(payload) ?? undefined),
      }
    },

    /** The job handlers this module owns, for the job runner. */
    jobHandlers(): Record<string, JobHandler> {
      return {
        [ORDER_JOBS.confirmationEmail]: (payload) => jobs.sendConfirmation(orderIdPayload(payload)),
        [ORDER_JOBS.purchaseLabel]: (payload, context) =>
          labels.purchaseLabel(orderIdPayload(payload), context),
        [ORDER_JOBS.shippedEmail]: (payload) => jobs.sendShippedEmail(orderIdPayload(payload)),
        [ORDER_JOBS.refundEmail]: (payload) =>
          jobs.sendRefundEmail(orderIdPayload(payload), refundIdPayload(payload)),
        [ORDER_JOBS.cancelledEmail]: (payload) =>
          jobs.sendCancelledEmail(orderIdPayload(payload), numberPayload(payload, 'refundCents')),
        [ORDER_JOBS.voidLabel]: (payload, context) => {
          const taken = labelPayload(payload)
          if (taken) return labelVoid.voidTakenLabel(orderIdPayload(payload), taken, context)
          return labelVoid.voidLabel(orderIdPayload(payload), context)
        },
      }
    },
  }
  return jobs
}
