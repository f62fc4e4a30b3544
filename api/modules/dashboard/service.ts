import {
  type DashboardOrder,
  type DashboardProduct,
  type DashboardStats,
  type EmailRetryResponse,
  type FailedEmail,
  type HistoryEntry,
  type OrderActionResponse,
  type OrderDetail,
  type OrderFilters,
  type OrdersQuery,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  type PackageRecommendationAnswer,
  STATS_DAYS,
  type StockLevelAnswer,
  type StockResponse,
  type WebhookEventAnswer,
  type WeightResponse,
} from '@core/contracts/dashboard'
import { lineLabel } from '@core/rules/catalog'
import {
  DATE_ORDER_PROBLEM,
  dateProblem,
  orderQueryProblem,
  parseCalendarDate,
  parseOrderQuery,
} from '@core/rules/order-search'
import {
  formatOrderNumber,
  isOrderStatus,
  labelVoided,
  ORDER_STATUSES,
  type OrderStatus,
  statusLabel,
} from '@core/rules/order-status'
import { PACKAGE_ITEM_LIMITS, packageForItemCount, parsePackageItemCount } from '@core/rules/package'
import { PRODUCT_WEIGHT_MESSAGE, parseProductWeight } from '@core/rules/product-weight'
import { formerVariants } from '@core/rules/stock'
import type { Config } from '../../env'
import type { Clock } from '../../lib/clock'
import { conflict, invalid, notFound } from '../../lib/domain-errors'
import { log } from '../../lib/log'
import { type LocalDay, lastDays, localDate, startOfDay, startOfLocalDate } from '../../lib/time-zone'
import type { AccountService } from '../account/service'
import type { CatalogProduct, CatalogService } from '../catalog/service'
import type { FulfilmentService } from '../fulfilment/service'
import type { DailyTotals } from '../orders/daily-totals'
import type { FailedOrderEmails } from '../orders/failed-emails'
import type { LabelSource } from '../orders/label'
import type { ListedOrder, OrderSearch, OrderSearchCriteria } from '../orders/search'
import {
  type Order,
  type OrderHistoryEntry,
  type OrdersService,
  PROVIDER_ACTOR,
  SYSTEM_ACTOR,
  type UnitsToShip,
} from '../orders/service'
import type { StockService, StockSnapshot } from '../stock/service'
import type { WebhookService } from '../webhooks/service'
import { ordersCsv } from './export'
import { orderIdFrom } from './order-id'
import { createDashboardRefunds, orderRefundFigures, refundAnswer } from './refunds'
import { requestKeyOf } from './request-key'

const ORDER_NOT_FOUND = 'Order not found.'
const PRODUCT_NOT_FOUND = 'Product not found.'
export const ITEM_COUNT_MESSAGE = `Item count must be a whole number from ${PACKAGE_ITEM_LIMITS.min} to ${PACKAGE_ITEM_LIMITS.max}.`

/** Cents to the answers' dollar amounts; tenths of an ounce to ounces. Both exact at their last digit. */
const dollars = (cents: number) => Math.round(cents) / 100
const ounces = (tenths: number) => Math.round(tenths) / 10

export { orderIdFrom }

/** ?limit= of a paged list: absent means the default; anything but 1–100 is a 422 that says so. */
export function pageLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '') return PAGE_LIMIT_DEFAULT
  if (!/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > PAGE_LIMIT_MAX) {
    throw invalid(`limit must be a whole number from 1 to ${PAGE_LIMIT_MAX}.`)
  }
  return Number(raw)
}

/** ?status= of the orders list: one status or several, comma-separated; absent means every status. */
export function statusFilter(raw: string | undefined): OrderStatus[] | undefined {
  if (raw === undefined || raw === '') return undefined
  const wanted = raw.split(',').map((status) => status.trim())
  if (wanted.length > ORDER_STATUSES.length || !wanted.every(isOrderStatus)) {
    throw invalid(`status must be one or more of ${ORDER_STATUSES.join(', ')}, separated by commas.`)
  }
  return [...new Set(wanted)]
}

/**
 * The filters of the orders list and the export, read into search criteria: 422 naming the field for
 * anything else. Days are the shop's (`timeZone`), `to` included: it ends where the next day begins.
 */
export function orderCriteria(query: OrderFilters, timeZone: string): OrderSearchCriteria {
  const text = query.q ?? ''
  const problem = orderQueryProblem(text)
  if (problem) throw invalid(problem)
  const criteria: OrderSearchCriteria = { query: parseOrderQuery(text), statuses: statusFilter(query.status) }
  const from = query.from ? parseCalendarDate(query.from) : null
  if (query.from && !from) throw invalid(dateProblem('from'))
  const to = query.to ? parseCalendarDate(query.to) : null
  if (query.to && !to) throw invalid(dateProblem('to'))
  if (from) criteria.from = startOfLocalDate(from, timeZone)
  if (to) {
    const next = new Date(Date.UTC(to.year, to.month - 1, to.day + 1))
    criteria.to = startOfLocalDate(
      { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() },
      timeZone,
    )
  }
  if (criteria.from && criteria.to && criteria.from >= criteria.to) throw invalid(DATE_ORDER_PROBLEM)
  return criteria
}

function dashboardOrder(order: ListedOrder): DashboardOrder {
  const pack = packageForItemCount(order.itemCount)
  return {
    id: order.id,
    number: formatOrderNumber(order.id),
    customerName: order.customerName,
    customerEmail: order.email,
    itemCount: order.itemCount,
    totalWeight: ounces(order.totalWeightTenthsOz),
    packageType: pack.type,
    packageDimensions: pack.dimensions,
    status: order.status,
    createdAt: order.createdAt.toISOString(),
    totalAmount: dollars(order.totalCents),
    shippoTrackingNumber: order.shippoTrackingNumber,
    carrier: order.shippingCarrier,
    shippingService: order.shippingService,
    failureReason: order.status === 'failed' ? order.failureReason : null,
    discountWarning: order.discountWarning,
    stockWarning: order.stockWarning,
    // A cancelled order never ships: its label, voided at the carrier (or being voided), is not offered to print.
    labelUrl: order.labelUrl && !labelVoided(order.status) ? `/api/orders/${order.id}/label` : null,
  }
}

/** The `variants` of a stock edit (checked by the stock service before this reads it), or none. */
function variantsIn(body: unknown): Record<string, unknown> {
  const variants = (body as { variants?: unknown } | null)?.variants
  return typeof variants === 'object' && variants !== null ? (variants as Record<string, unknown>) : {}
}

/** Units paid orders still have to ship of a product's stock variant ('' for its own figure). */
type ToShip = (productId: number, variant: string) => number

function toShipOf(rows: readonly UnitsToShip[]): ToShip {
  const units = new Map(rows.map((row) => [`${row.productId}\u0000${row.variant}`, row.units]))
  return (productId, variant) => units.get(`${productId}\u0000${variant}`) ?? 0
}

function dashboardProduct(product: CatalogProduct, stock: StockSnapshot, toShip: ToShip): DashboardProduct {
  const scentless = product.variants.length === 0
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    weight: ounces(product.weightTenthsOz),
    stock: scentless ? stock.level(product.id, '') : null,
    toShip: scentless ? toShip(product.id, '') : null,
    variants: product.variants.map((name) => ({
      name,
      stock: stock.level(product.id, name),
      toShip: toShip(product.id, name),
    })),
    // Listed while it holds units (or owes some): at 0, or no longer counted, there is nothing to move.
    formerVariants: formerVariants(product.variants, stock.counted(product.id)).flatMap((name) => {
      const level = stock.level(product.id, name)
      return level && level.onHand !== 0 ? [{ name, stock: level, toShip: toShip(product.id, name) }] : []
    }),
  }
}

/**
 * 'Workforce Repair Original Grit: 12 on the shelf, 10 free.', 'Hammered Citrus (Cedar Shop): not counted.',
 * and below 0, 'Whisker Oil (Unscented): 2 owed to paid orders, none on the shelf.' A former scent says
 * so: 'Hammered Citrus (Cedar Shop), no longer sold: 0 on the shelf, 0 free.'; `former`: those to name
 * (the ones listed, and any staff just set to 0 or stopped counting, which are no longer listed).
 */
function stockMessage(
  product: DashboardProduct,
  former: readonly { name: string; stock: StockLevelAnswer | null }[] = product.formerVariants,
): string {
  const listed =
    product.variants.length === 0
      ? [{ label: product.name, stock: product.stock }]
      : product.variants.map((variant) => ({
          label: lineLabel({ name: product.name, variant: variant.name }),
          stock: variant.stock,
        }))
  const unlisted = former.map((variant) => ({
    // Always with its name in brackets: a former scent named like the product is not its own old figure.
    label: `${product.name} (${variant.name || 'no scent'}), no longer sold`,
    stock: variant.stock,
  }))
  return [...listed, ...unlisted]
    .map(({ label, stock }) =>
      !stock
        ? `${label}: not counted.`
        : stock.onHand < 0
          ? `${label}: ${-stock.onHand} owed to paid orders, none on the shelf.`
          : `${label}: ${stock.onHand} on the shelf, ${stock.available} free.`,
    )
    .join(' ')
}

/**
 * The staff dashboard (docs/product.md#dashboard): numbers for the day, orders and payment events newest
 * first, fulfilment actions, product weights and the package calculator. It reads and acts through the
 * orders, catalogue, webhook and account services; access is checked before any of this runs (the
 * `staff` guard in api/modules/auth/guard.ts).
 */
/** Why a cancelled order's label is not shown: voided, still being voided, or left for staff to void. */
function cancelledLabelMessage(number: string, voidStatus: string | null): string {
  if (voidStatus === 'error') {
    return `Order ${number} is cancelled, but its label could not be voided at the carrier: void it there to get the postage back. Do not ship it.`
  }
  if (voidStatus === null) {
    return `Order ${number} is cancelled: its label is being voided at the carrier. Do not ship it.`
  }
  return `Order ${number} is cancelled: its label was voided at the carrier. Do not ship it.`
}

export function createDashboardService(deps: {
  clock: Clock
  config: Pick<Config, 'shopTimeZone'>
  orders: OrdersService
  catalog: CatalogService
  stock: Pick<StockService, 'snapshot' | 'current' | 'setLevels'>
  webhooks: Pick<WebhookService, 'page'>
  accounts: Pick<AccountService, 'findById'>
  orderSearch: OrderSearch
  dailyTotals: DailyTotals
  failedEmails: FailedOrderEmails
  fulfilment: Pick<FulfilmentService, 'refund' | 'cancel'>
}) {
  const { orders, catalog } = deps
  const timeZone = deps.config.shopTimeZone
  /** The chart's days change at the shop's midnight only: worked out once a day, not on every poll. */
  let chartDays: { today: number; days: LocalDay[] } | null = null
  function chartDaysFor(now: Date, today: Date): LocalDay[] {
    if (chartDays?.today !== today.getTime())
      chartDays = { today: today.getTime(), days: lastDays(now, timeZone, STATS_DAYS) }
    return chartDays.days
  }

  async function mustExist(id: number | null): Promise<Order> {
    const order = id === null ? null : await orders.get(id)
    if (!order) throw notFound(ORDER_NOT_FOUND)
    return order
  }

  /** Who made a move or asked a refund, by name: staff e-mails are looked up once per person. */
  async function namesOf(actors: readonly string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>([
      [SYSTEM_ACTOR, 'System'],
      [PROVIDER_ACTOR, 'The payment provider'],
    ])
    for (const actor of actors) {
      if (names.has(actor)) continue
      const person = await deps.accounts.findById(actor)
      names.set(actor, person ? person.email : 'A former staff account')
    }
    return names
  }

  function historyOf(entries: OrderHistoryEntry[], names: Map<string, string>): HistoryEntry[] {
    return entries.map((entry) => ({
      from: entry.fromStatus,
      to: entry.toStatus,
      actor: entry.actor,
      actorName: names.get(entry.actor) ?? entry.actor,
      reason: entry.reason,
      at: entry.createdAt.toISOString(),
    }))
  }

  const refunds = createDashboardRefunds({
    fulfilment: deps.fulfilment,
    orders,
    names: namesOf,
    summary: dashboardOrder,
  })

  return {
    refund: refunds.refund,
    cancel: refunds.cancel,
    unsettledRefunds: refunds.unsettled,

    async stats(): Promise<DashboardStats> {
      const now = deps.clock.now()
      const today = startOfDay(now, timeZone)
      const { byStatus, placedSince } = await orders.counts(today)
      const days = await deps.dailyTotals.forDays(chartDaysFor(now, today))
      return {
        ordersToday: placedSince,
        processing: byStatus.pending + byStatus.processing,
        shipped: byStatus.shipped,
        failed: byStatus.failed,
        days: days.map((day) => ({ date: day.date, orders: day.orders, takings: dollars(day.takingsCents) })),
        timeZone,
      }
    },

    /** The orders list and its search: newest first, a page at a time (docs/decisions/025). */
    async orders(query: OrdersQuery): Promise<DashboardOrder[]> {
      const limit = pageLimit(query.limit)
      let before: number | undefined
      if (query.before !== undefined && query.before !== '') {
        if (!/^\d{1,9}$/.test(query.before)) throw invalid('before must be an order number.')
        before = Number(query.before)
      }
      const criteria = orderCriteria(query, timeZone)
      return (await deps.orderSearch.listed(criteria, { limit, before })).map(dashboardOrder)
    },

    /**
     * The orders matching the filters as CSV, streamed (api/modules/dashboard/export.ts). The filters are
     * checked before the answer begins, so a bad one is a 422, never a broken download.
     */
    exportCsv(query: OrderFilters): { filename: string; body: ReadableStream<Uint8Array> } {
      const criteria = orderCriteria(query, timeZone)
      return {
        filename: `orders-${localDate(deps.clock.now(), timeZone)}.csv`,
        body: ordersCsv(deps.orderSearch, criteria, timeZone),
      }
    },

    /** Order e-mails the mail server refused for good, newest first, for staff to send again. */
    async failedEmails(): Promise<FailedEmail[]> {
      return (await deps.failedEmails.list()).map(({ job, order, orderId, name }) => ({
        id: job.id,
        orderId,
        number: orderId === null ? null : formatOrderNumber(orderId),
        email: name,
        customerName: order?.customerName ?? '',
        customerEmail: order?.email ?? '',
        error: job.lastError ?? 'Unknown error',
        attempts: job.attempts,
        failedAt: new Date(job.updatedAt).toISOString(),
      }))
    },

    /**
     * Staff's Retry of an order's failed e-mails: queued again once however often it is pressed (200 with
     * queued 0 while they wait to be sent); 409 when none failed; 404 for no such order.
     */
    async retryEmails(segment: string, staffId: string): Promise<EmailRetryResponse> {
      const order = await mustExist(orderIdFrom(segment))
      const number = formatOrderNumber(order.id)
      const { queued, waiting } = await deps.failedEmails.retry(order.id)
      if (queued.length > 0) {
        log.info('order e-mails queued again', { order: number, by: staffId, emails: queued.length })
        const message =
          queued.length === 1
            ? `The ${queued[0]?.toLowerCase()} e-mail of order ${number} is queued to be sent again.`
            : `${queued.length} e-mails of order ${number} are queued to be sent again.`
        return {
          message,
          queued: queued.length,
        }
      }
      if (waiting > 0) {
        return { message: `The e-mails of order ${number} are already queued to be sent again.`, queued: 0 }
      }
      throw conflict(`Order ${number} has no failed e-mail to send again.`)
    },

    async order(segment: string): Promise<OrderDetail> {
      const order = await mustExist(orderIdFrom(segment))
      const [history, orderRefunds] = await Promise.all([orders.history(order.id), orders.refunds(order.id)])
      const names = await namesOf([
        ...history.map((entry) => entry.actor),
        ...orderRefunds.map((r) => r.actor),
      ])
      const figures = orderRefundFigures(order, orderRefunds, history)
      return {
        ...dashboardOrder(order),
        lines: order.lines.map((line) => ({
          id: line.id,
          productId: line.productId,
          name: line.name,
          variant: line.variant && line.variant !== line.name ? line.variant : null,
          quantity: line.quantity,
          unitAmount: dollars(line.unitCents),
          lineTotal: dollars(line.unitCents * line.quantity),
          paid: dollars(line.unitCents * line.quantity - line.discountCents),
          refundedQuantity: figures.refundedQuantity(line.id),
          refunded: figures.lineRefunded(line.id),
          weight: ounces(line.weightTenthsOz * line.quantity),
        })),
        shippingAddress: order.shippingAddress,
        billingAddress: order.billingAddress,
        subtotal: dollars(order.subtotalCents),
        discount: dollars(order.discountCents),
        discountCode: order.discountCode,
        shipping: dollars(order.shippingCents),
        refunded: figures.refunded,
        refundable: figures.refundable,
        cancellable: figures.cancellable,
        cancelledAt: order.cancelledAt?.toISOString() ?? null,
        labelVoidStatus: order.labelVoidStatus,
        refunds: orderRefunds.map((refund) => refundAnswer(refund, names)),
        history: historyOf(history, names),
      }
    },

    /**
     * Where staff read the label; 404 when the order has none, 409 when it was cancelled or refunded in
     * full before it shipped (its label voided).
     */
    async label(segment: string): Promise<{ number: string; source: LabelSource }> {
      const id = orderIdFrom(segment)
      const source = id === null ? null : await orders.label(id)
      if (id === null || !source) throw notFound('This order has no label yet.')
      const number = formatOrderNumber(id)
      if (source.kind === 'cancelled') throw conflict(cancelledLabelMessage(number, source.voidStatus))
      if (source.kind === 'refunded') {
        throw conflict(
          `Order ${number} was refunded in full before it shipped: its label is voided at the carrier. Do not ship it.`,
        )
      }
      return { number, source }
    },

    /** Retry a failed order's label purchase; 409 with the reason for any other status. */
    async retry(segment: string, staffId: string): Promise<OrderActionResponse> {
      const id = orderIdFrom(segment)
      if (id !== null && (await orders.retry(id, staffId))) {
        const order = await mustExist(id)
        return {
          message: `Order ${formatOrderNumber(order.id)} is being processed again: a new label is on its way.`,
          order: dashboardOrder(order),
        }
      }
      const order = await mustExist(id)
      throw conflict(
        `Order ${formatOrderNumber(order.id)} is ${statusLabel(order.status)}: only a FAILED order can be retried.`,
      )
    },

    /** Mark a labelled order shipped (the customer is e-mailed once); 409 for any other status. */
    async markShipped(segment: string, staffId: string): Promise<OrderActionResponse> {
      const id = orderIdFrom(segment)
      if (id !== null && (await orders.markShipped(id, staffId))) {
        const order = await mustExist(id)
        return {
          message: `Order ${formatOrderNumber(order.id)} is marked shipped. The customer gets an e-mail with the tracking number.`,
          order: dashboardOrder(order),
        }
      }
      const order = await mustExist(id)
      throw conflict(
        order.status === 'shipped'
          ? `Order ${formatOrderNumber(order.id)} is already marked shipped.`
          : `Order ${formatOrderNumber(order.id)} is ${statusLabel(order.status)}: only an order with a label (LABEL CREATED) can be marked shipped.`,
      )
    },

    async products(): Promise<DashboardProduct[]> {
      // As the figures are now, not the shoppers' snapshot of up to a second ago: staff count against them.
      const [stock, rows] = await Promise.all([deps.stock.current(), orders.unitsToShip()])
      const toShip = toShipOf(rows)
      return (await catalog.list()).map((product) => dashboardProduct(product, stock, toShip))
    },

    /**
     * Staff set a product's units on the shelf (docs/product.md#staff-calls): `{ stock: n | null }`, or
     * `{ variants: { name: n | null } }` for one with scents; null stops counting.
     */
    async setStock(segment: string, body: unknown, requestKey: string | null): Promise<StockResponse> {
      const id = /^\d{1,9}$/.test(segment) ? Number(segment) : null
      if (id === null) throw notFound(PRODUCT_NOT_FOUND)
      const changed = await deps.stock.setLevels(id, body, requestKeyOf(requestKey))
      const [stock, toShip] = await Promise.all([deps.stock.snapshot(), orders.unitsToShip(changed.id)])
      const product = dashboardProduct(changed, stock, toShipOf(toShip))
      // Former scents staff named: confirmed in the message even once set to 0 (no longer listed).
      const named = formerVariants(changed.variants, Object.keys(variantsIn(body)))
      const listed = product.formerVariants.map((variant) => variant.name)
      const former = [
        ...product.formerVariants,
        ...named
          .filter((name) => !listed.includes(name))
          .map((name) => ({ name, stock: stock.level(changed.id, name) })),
      ]
      return { message: stockMessage(product, former), product }
    },

    /** Staff weight edit: ounces above 0, at most 1,000, one decimal; later rates and labels use it. */
    async setWeight(segment: string, body: unknown): Promise<WeightResponse> {
      const weight = parseProductWeight((body as { weight?: unknown } | null)?.weight)
      if (weight === null) throw invalid(PRODUCT_WEIGHT_MESSAGE)
      const id = /^\d{1,9}$/.test(segment) ? Number(segment) : null
      const product = id === null ? null : await catalog.setWeight(id, weight)
      if (!product) throw notFound(PRODUCT_NOT_FOUND)
      return {
        message: `${product.name} now weighs ${ounces(product.weightTenthsOz).toFixed(1)} oz.`,
        product: dashboardProduct(
          product,
          await deps.stock.snapshot(),
          toShipOf(await orders.unitsToShip(product.id)),
        ),
      }
    },

    async webhookEvents(query: { limit?: string; before?: string }): Promise<WebhookEventAnswer[]> {
      const limit = pageLimit(query.limit)
      const before = query.before === '' ? undefined : query.before
      if (before !== undefined && before.length > 255) throw invalid('before must be an event id.')
      const events = await deps.webhooks.page({ limit, before })
      return events.map((event) => ({ ...event, createdAt: event.createdAt.toISOString() }))
    },

    /** The package calculator: 1–20 items (docs/product.md#packages), else a 422 that says so. */
    calculatePackage(body: unknown): PackageRecommendationAnswer {
      const count = parsePackageItemCount((body as { itemCount?: unknown } | null)?.itemCount)
      if (count === null) throw invalid(ITEM_COUNT_MESSAGE)
      return packageForItemCount(count)
    },
  }
}

export type DashboardService = ReturnType<typeof createDashboardService>
