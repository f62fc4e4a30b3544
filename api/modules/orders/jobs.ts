/** The orders module's background jobs: the confirmation and shipping e-mails, and the label purchase. */
import type { Mailer } from '../../adapters/types'
import type { Config } from '../../env'
import type { AbandonedJobHandler, JobHandler } from '../jobs/service'
import { orderConfirmationEmail, orderShippedEmail } from './email'
import type { LabelPurchase } from './labels'
import { ORDER_JOBS, type Order, type OrderRow } from './model'

/**
 * The customer deleted their account after this order shipped: it keeps no e-mail (forgetCustomerQueries),
 * so an e-mail about it still waiting in the queue has nobody to go to and is dropped, not retried.
 */
function customerForgotten(order: Pick<OrderRow, 'email'>): boolean {
  return order.email === ''
}

function orderIdPayload(payload: unknown): number {
  const id = (payload as { orderId?: unknown } | null)?.orderId
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new Error('job payload has no order id')
  return id
}

export interface OrderJobsDeps {
  mailer: Mailer
  config: Config
  get: (id: number) => Promise<Order | null>
  labels: LabelPurchase
}

export function createOrderJobs({ mailer, config, get, labels }: OrderJobsDeps) {
  async function orderToMail(orderId: number): Promise<Order | null> {
    const order = await get(orderId)
    if (!order) throw new Error(`order ${orderId} not found`)
    return customerForgotten(order) ? null : order
  }

  const jobs = {
    async sendConfirmation(orderId: number): Promise<void> {
      const order = await orderToMail(orderId)
      if (order) await mailer.send(orderConfirmationEmail(order, config))
    },

    async sendShippedEmail(orderId: number): Promise<void> {
      const order = await orderToMail(orderId)
      if (order) await mailer.send(orderShippedEmail(order, config))
    },

    /** What this module does with its jobs given up after their worker died on the last attempt. */
    abandonedJobHandlers(): Record<string, AbandonedJobHandler> {
      return {
        [ORDER_JOBS.purchaseLabel]: (payload, reason) => labels.abandonLabel(orderIdPayload(payload), reason),
      }
    },

    /** The job handlers this module owns, for the job runner. */
    jobHandlers(): Record<string, JobHandler> {
      return {
        [ORDER_JOBS.confirmationEmail]: (payload) => jobs.sendConfirmation(orderIdPayload(payload)),
        [ORDER_JOBS.purchaseLabel]: (payload, context) =>
          labels.purchaseLabel(orderIdPayload(payload), context),
        [ORDER_JOBS.shippedEmail]: (payload) => jobs.sendShippedEmail(orderIdPayload(payload)),
      }
    },
  }
  return jobs
}
