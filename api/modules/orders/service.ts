/**
 * The orders module, one service made of its parts: the statements that make an order (placement.ts, run
 * by the fulfilment service in a paid session's transaction), status moves (moves.ts), the label purchase
 * (labels.ts) and a cancelled order's void (label-void.ts), its refunds (refunds.ts, composed by the
 * fulfilment service too), the background jobs (jobs.ts), and the reads of customers (customers.ts) and
 * staff (staff-queries.ts, and the units paid orders still have to ship: units-to-ship.ts).
 */
import type { Database } from '../../../db/client'
import type { Mailer, ShippingProvider } from '../../adapters/types'
import type { Config } from '../../env'
import type { Clock } from '../../lib/clock'
import type { JobQueue } from '../jobs/service'
import { createCustomerOrders } from './customers'
import { createOrderJobs } from './jobs'
import { createLabelVoid } from './label-void'
import { createLabelPurchase } from './labels'
import type { Order } from './model'
import { createOrderMoves } from './moves'
import { createOrderPlacement } from './placement'
import { readOrder } from './reads'
import { createOrderRefunds } from './refunds'
import { createStaffQueries } from './staff-queries'
import { createUnitsToShip } from './units-to-ship'

export { customerRefunded, customerRefunds } from './customer-refunds'
export { isSettled } from './customers'
export {
  type MoveNote,
  ORDER_JOBS,
  type Order,
  type OrderHistoryEntry,
  type OrderRow,
  PROVIDER_ACTOR,
  type Refund,
  SYSTEM_ACTOR,
} from './model'
export type { OrderPlacement } from './placement'
export { refundedCentsByOrder } from './refunded'
export {
  leftSql,
  neverShippedSql,
  newRefundId,
  notCancelledSql,
  type RefundNews,
  type RefundPlan,
  refundAmountSql,
  refundIdByProviderSql,
  restockedCountSql,
  restockedSql,
  unitsCancelPutsBackSql,
  unitsPutBackBySql,
} from './refunds'
export type { UnitsToShip } from './units-to-ship'

export interface OrdersServiceDeps {
  db: Database
  clock: Clock
  config: Config
  shipping: ShippingProvider
  mailer: Mailer
  jobs: JobQueue
}

export function createOrdersService(deps: OrdersServiceDeps) {
  const { db, clock, jobs } = deps
  const get = (id: number): Promise<Order | null> => readOrder(db, id)
  const moves = createOrderMoves({ db, clock, jobs })
  const refunds = createOrderRefunds({ db, clock, jobs })
  const labelVoid = createLabelVoid({ db, shipping: deps.shipping, get, refunds })
  const labels = createLabelPurchase({
    shipping: deps.shipping,
    moves,
    get,
    voidLabel: labelVoid.voidAndNote,
    voidCancelled: labelVoid.voidLabel,
    noteVoidGivenUp: labelVoid.noteVoidGivenUp,
  })
  const placement = createOrderPlacement({ db, clock, jobs })
  const orderJobs = createOrderJobs({
    mailer: deps.mailer,
    config: deps.config,
    get,
    labels,
    labelVoid,
    refund: refunds.refund,
  })
  return {
    get,
    ...placement,
    ...createCustomerOrders({ db, clock }),
    ...createStaffQueries({ db, dataDir: deps.config.dataDir }),
    ...createUnitsToShip(db),
    moveStatements: moves.moveStatements,
    reopenStatements: moves.reopenStatements,
    ...refunds,
    retry: moves.retry,
    markShipped: moves.markShipped,
    ...labels,
    ...orderJobs,
  }
}

export type OrdersService = ReturnType<typeof createOrdersService>
