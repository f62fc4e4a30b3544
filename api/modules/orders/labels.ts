/**
 * Buying an order's shipping label: pending → processing → label_created, or → failed. A label costs
 * money and its purchase cannot be rolled back with our database, so each order gets one label however
 * often this runs (docs/decisions/008-one-label-per-order.md).
 */
import { formatOrderNumber } from '@core/rules/order-status'
import { sql } from 'drizzle-orm'
import {
  type LabelToVoid,
  PaidServiceUnavailableError,
  type PurchasedLabel,
  type ShippingProvider,
} from '../../adapters/types'
import { crashPoint } from '../../lib/crash-points'
import { errorMessage, log } from '../../lib/log'
import type { JobContext } from '../jobs/service'
import { parcelFor } from '../shipping/pricing'
import { type Order, SYSTEM_ACTOR } from './model'
import { labelReferenceOf, type OrderMoves } from './moves'

export interface LabelPurchaseDeps {
  shipping: ShippingProvider
  moves: Pick<OrderMoves, 'built' | 'failLabel'>
  get: (id: number) => Promise<Order | null>
  /** Voids a label at the carrier and notes it on the order, or only in its history (label-void.ts). */
  voidLabel: (orderId: number, label: LabelToVoid, ofOrder?: boolean) => Promise<void>
  /** A cancelled order's label voided, found by its reference if it was never recorded (label-void.ts). */
  voidCancelled: (orderId: number, context: Pick<JobContext, 'lastAttempt'>) => Promise<void>
  /** Notes on a cancelled order that its label's void was given up (label-void.ts). */
  noteVoidGivenUp: (orderId: number, why: string) => Promise<void>
}

/** Buys a label; the crash drill may kill the process right after the carrier sold it. */
async function buyLabelAtCarrier(
  shipping: ShippingProvider,
  request: Parameters<ShippingProvider['buyLabel']>[0],
): Promise<PurchasedLabel> {
  const label = await shipping.buyLabel(request)
  crashPoint('label-bought')
  return label
}

/**
 * The label job's two moves, built once (moves.ts builtMove): pending → processing, recording the carrier
 * reference before anything is bought; processing → label_created with the label.
 */
function labelMoves(moves: LabelPurchaseDeps['moves']) {
  const placeholder = (name: string) => sql`${sql.placeholder(name)}`
  const toProcessing = moves.built<{ number: string }>({
    from: 'pending',
    to: 'processing',
    extra: { labelReference: labelReferenceOf(placeholder('number')) },
  })
  const toLabelCreated = moves.built<{
    trackingNumber: string
    labelId: string | null
    labelUrl: string
    trackingUrl: string | null
  }>({
    from: 'processing',
    to: 'label_created',
    extra: {
      shippoTrackingNumber: placeholder('trackingNumber'),
      labelId: placeholder('labelId'),
      labelUrl: placeholder('labelUrl'),
      trackingUrl: placeholder('trackingUrl'),
      failureReason: null,
    },
  })
  return {
    /** True if this call moved the order to processing. */
    startPurchase: (orderId: number) =>
      toProcessing(
        orderId,
        { actor: SYSTEM_ACTOR, reason: 'Buying the shipping label' },
        { number: formatOrderNumber(orderId) },
      ),
    /** True if this call recorded the label. */
    recordLabel: (orderId: number, label: PurchasedLabel) =>
      toLabelCreated(
        orderId,
        { actor: SYSTEM_ACTOR, reason: `Label bought: ${label.carrier} ${label.trackingNumber}` },
        {
          trackingNumber: label.trackingNumber,
          labelId: label.labelId,
          labelUrl: label.labelUrl,
          trackingUrl: label.trackingUrl,
        },
      ),
  }
}

type LabelMoves = ReturnType<typeof labelMoves>

/**
 * The label for an order in processing: one bought earlier under its reference (after a crash, an expired
 * lease or a lost carrier answer), else a new one. A carrier that no longer sells the paid-for service
 * fails the order for staff; any other error fails it on the job's last attempt and is thrown.
 */
async function labelFor(
  { shipping, moves }: LabelPurchaseDeps,
  order: Order,
  startedHere: boolean,
  lastAttempt: boolean,
): Promise<PurchasedLabel | null> {
  const reference = order.labelReference ?? `${formatOrderNumber(order.id)}-${order.uid}`
  try {
    const earlier = startedHere ? null : await shipping.findLabel(reference)
    return (
      earlier ??
      (await buyLabelAtCarrier(shipping, {
        reference,
        serviceToken: order.shippingServiceToken,
        parcel: parcelFor(order.itemCount, order.totalWeightTenthsOz),
        address: order.shippingAddress,
      }))
    )
  } catch (error) {
    if (error instanceof PaidServiceUnavailableError) {
      // Retrying on a timer would meet the same rates: staff decide (Retry once it is offered, or refund).
      const reason = `${error.message}; the customer paid for ${order.shippingService}`
      log.error('label not bought', { order: formatOrderNumber(order.id), reason: errorMessage(reason) })
      await moves.failLabel(order.id, reason)
      return null
    }
    if (lastAttempt) await moves.failLabel(order.id, error instanceof Error ? error.message : String(error))
    throw error
  }
}

/**
 * processing → label_created with the label; a label bought for an order cancelled meanwhile is voided at
 * once, as is one bought for an order refunded in full meanwhile (nothing is shipped for it; reopened by a
 * failed refund, it is queued a label job again: moves.ts), and one bought for an order that moved on
 * otherwise is reported.
 */
async function recordLabel(
  { get, voidLabel, noteVoidGivenUp }: LabelPurchaseDeps,
  built: LabelMoves,
  order: Order,
  label: PurchasedLabel,
  lastAttempt: boolean,
): Promise<void> {
  if (await built.recordLabel(order.id, label)) return
  const now = await get(order.id)
  // Another attempt found and recorded this same label first: nothing lost.
  if (now?.shippoTrackingNumber === label.trackingNumber) return
  const number = formatOrderNumber(order.id)
  if (now?.status === 'cancelled' || now?.status === 'refunded') {
    log.warn(`label bought for a ${now.status} order: voiding it`, { order: number })
    const bought = {
      reference: order.labelReference ?? `${number}-${order.uid}`,
      trackingNumber: label.trackingNumber,
      labelId: label.labelId,
    }
    const ofOrder = now.status === 'cancelled'
    try {
      await voidLabel(order.id, bought, ofOrder)
    } catch (error) {
      // Run again, the job voids a cancelled order's label by its reference (purchaseLabel); not again,
      // the order says the void was given up.
      if (ofOrder && lastAttempt) await noteVoidGivenUp(order.id, errorMessage(error))
      throw error
    }
    return
  }
  const lost = `label ${label.trackingNumber} (${label.labelUrl}) was bought for order ${number} but the order is ${now?.status ?? 'gone'}: void it with the carrier or attach it by hand`
  log.error('label bought but not recorded', { order: number, detail: errorMessage(lost) })
  throw new Error(lost)
}

export function createLabelPurchase(deps: LabelPurchaseDeps) {
  const { moves, get } = deps
  const built = labelMoves(moves)
  return {
    /**
     * Buys the order's label, once:
     * - the move to processing records the carrier reference (the padded order number and the order's
     *   uid) before anything is bought. It is one conditional UPDATE: the attempt that made it knows
     *   nothing was bought before;
     * - any other attempt (the job run again after a crash, an expired lease or a lost carrier answer, or
     *   a staff Retry) first asks the carrier for a label bought under that reference, and keeps it;
     * - the result of every move is checked: a label bought for an order that has moved on is logged with
     *   its tracking number, never dropped without a word.
     * Attempts follow each other rather than overlap: the job queue hands a job to one worker at a time,
     * and a carrier call times out long before a job's lease runs out.
     */
    async purchaseLabel(orderId: number, context: Pick<JobContext, 'lastAttempt'>): Promise<void> {
      const startedHere = await built.startPurchase(orderId)
      const order = await get(orderId)
      // Cancelled while an attempt bought its label, whose void then failed (the cancel's own void job ran
      // before the label existed): this attempt voids it, or the order says the void was given up.
      if (order?.status === 'cancelled') return deps.voidCancelled(orderId, context)
      // label_created or shipped: the label exists. failed: the order waits for staff. Nothing to buy.
      if (order?.status !== 'processing') return
      const label = await labelFor(deps, order, startedHere, context.lastAttempt)
      if (label) await recordLabel(deps, built, order, label, context.lastAttempt)
    },

    /**
     * A label job whose worker died on its last attempt: the order goes to failed, as after a last attempt
     * that failed, so staff see it among the failed labels. A label may have been bought before the worker
     * died; Retry asks the carrier for it before buying (the order carries its reference from here on).
     */
    async abandonLabel(orderId: number, reason: string): Promise<void> {
      await built.startPurchase(orderId)
      const order = await get(orderId)
      if (order?.status === 'processing') await moves.failLabel(orderId, reason)
    },
  }
}

export type LabelPurchase = ReturnType<typeof createLabelPurchase>
