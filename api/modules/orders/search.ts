import { customerKey } from '@core/rules/customer'
import type { OrderQuery } from '@core/rules/order-search'
import type { OrderStatus } from '@core/rules/order-status'
import { desc, type SQL, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { orders } from '../../../db/schema/orders'
import { refundedCentsByOrder } from './refunded'
import type { OrderRow } from './service'

/** What staff look for: the search text read by core/rules/order-search.ts, statuses and a time range. */
export interface OrderSearchCriteria {
  query?: OrderQuery | null
  /** Any of these; absent means every status. */
  statuses?: readonly OrderStatus[]
  /** Placed at or after this instant. */
  from?: Date
  /** Placed before this instant (the end of the last day asked for). */
  to?: Date
}

export interface OrderSearchPage {
  limit: number
  /** Only orders numbered below this one (keyset paging, newest first). */
  before?: number
}

/** Most rows one call reads: the API's pages are at most 100, the export reads 500 at a time. */
export const SEARCH_PAGE_MAX = 500

/**
 * How far out of step with its number an order's time may be for a date filter to stay exact. Orders are
 * numbered in the order they are written, a moment after their time is read (seconds at most, a busy
 * database included), so a day is a wide margin (docs/decisions/025-staff-order-search.md).
 */
export const CLOCK_SLACK_MS = 24 * 60 * 60 * 1000

/** The highest code point: every text starting with `prefix` sorts from `prefix` up to `prefix` + this. */
const LAST_CHARACTER = '\u{10FFFF}'

/**
 * The order numbers a time range can hold, from the created_at index. Numbers rise with time (within
 * CLOCK_SLACK_MS), so an order placed in the range has a number above that of any order placed more than
 * the slack before it, and below that of any placed more than the slack after it. Each bound is one step
 * into the index; the exact created_at test still decides, these only tell the scans where to stop.
 */
function numberBounds(criteria: OrderSearchCriteria): SQL[] {
  const bounds: SQL[] = []
  if (criteria.from) {
    const before = criteria.from.getTime() - CLOCK_SLACK_MS
    bounds.push(
      sql`${orders.id} > coalesce((select bound.id from ${orders} bound where bound.created_at < ${before} order by bound.created_at desc limit 1), 0)`,
    )
  }
  if (criteria.to) {
    const after = criteria.to.getTime() + CLOCK_SLACK_MS
    bounds.push(
      sql`${orders.id} < coalesce((select bound.id from ${orders} bound where bound.created_at >= ${after} order by bound.created_at limit 1), 9007199254740991)`,
    )
  }
  return bounds
}

/**
 * The page's and the dates' conditions. The time is written `+created_at`, which SQLite never answers from
 * an index: the number bounds do that work (the created_at index would hand back a whole range to sort).
 * With search text the number is written `+id` too, so the text's own index drives the scan and the rest
 * only filter the few rows it finds.
 */
function filters(criteria: OrderSearchCriteria, page: OrderSearchPage, numberIndexed: boolean): SQL[] {
  const id = sql.raw(numberIndexed ? '"orders"."id"' : '+"orders"."id"')
  const conditions: SQL[] = []
  if (page.before !== undefined) conditions.push(sql`${id} < ${page.before}`)
  if (criteria.from) conditions.push(sql`+"orders"."created_at" >= ${criteria.from.getTime()}`)
  if (criteria.to) conditions.push(sql`+"orders"."created_at" < ${criteria.to.getTime()}`)
  return conditions
}

function statusFilter(statuses: readonly OrderStatus[]): SQL {
  return sql`+"orders"."status" in (${sql.join(
    statuses.map((status) => sql`${status}`),
    sql`, `,
  )})`
}

/**
 * The text conditions. Indexed, they are ranges of the customer-key and lower(name) indexes; otherwise
 * each column is written `+column`, which SQLite never answers from an index, for a walk that tests them
 * on the way.
 */
function column(name: 'customer_key' | 'customer_name', indexed: boolean): SQL {
  return sql.raw(`${indexed ? '' : '+'}"orders"."${name}"`)
}

/** Orders whose customer key starts with `prefix`. */
function customerKeyStarts(prefix: string, indexed: boolean): SQL {
  const key = column('customer_key', indexed)
  return sql`(${key} >= ${prefix} and ${key} < ${prefix + LAST_CHARACTER})`
}

/** Orders whose name starts with `prefix`, ASCII letters in any case. */
function nameStarts(prefix: string, indexed: boolean): SQL {
  const name = sql`lower(${column('customer_name', indexed)})`
  return sql`(${name} >= lower(${prefix}) and ${name} < lower(${prefix}) || ${LAST_CHARACTER})`
}

/**
 * The start of a customer key that search text stands for. Keys drop the `+tag` (core/rules/customer.ts),
 * so text typed up to or into a tag before its `@` (`dana.cole+`, `dana.cole+gi`) stands for the mailbox's
 * name whole: `dana.cole@`.
 */
function keyStartOf(text: string): string {
  const key = customerKey(text)
  if (key.includes('@')) return key
  const plus = key.indexOf('+')
  return plus > 0 ? `${key.slice(0, plus)}@` : key
}

/** The condition the search text puts on the orders. */
function textCondition(query: Exclude<OrderQuery, { kind: 'number' }>, indexed: boolean): SQL {
  const key = customerKeyStarts(keyStartOf(query.text), indexed)
  return query.kind === 'email' ? key : sql`(${nameStarts(query.text, indexed)} or ${key})`
}

const and_ = (conditions: SQL[]): SQL => sql.join(conditions, sql` and `)

/**
 * How a page is found:
 * - 'text': the search text's indexes find every matching order; statuses and dates filter them, and the
 *   rest are sorted by number. Cheap while few orders match (a customer's e-mail, most names);
 * - 'walk': down the numbers, newest first (one walk per status down the status index, which holds each
 *   status's orders by number, merged), stopping after a page; a time range bounds each walk by number
 *   (numberBounds), and search text is tested on the way. Cheap when there is no text, or text so common
 *   ('c') that a page of it is found within a few thousand orders.
 */
export type SearchPlan = 'text' | 'walk'

/** Matches of the search text above which a walk is cheaper than sorting them all. */
export const TEXT_MATCHES_TO_SORT = 2_000

/** The numbers of one page of matching orders, newest first, as SQL (plans: tests/api/dashboard/search.test.ts). */
function matchingNumbers(criteria: OrderSearchCriteria, page: OrderSearchPage, plan: SearchPlan): SQL {
  const limit = Math.min(Math.max(Math.trunc(page.limit), 1), SEARCH_PAGE_MAX)
  const { query } = criteria
  if (query?.kind === 'number' || (query && plan === 'text')) {
    const driver = query.kind === 'number' ? sql`${orders.id} = ${query.number}` : textCondition(query, true)
    const conditions = [driver, ...filters(criteria, page, false)]
    if (criteria.statuses) conditions.push(statusFilter(criteria.statuses))
    return sql`select ${orders.id} from ${orders} where ${and_(conditions)} order by ${orders.id} desc limit ${limit}`
  }
  const ranged = [...filters(criteria, page, true), ...numberBounds(criteria)]
  if (query) ranged.push(textCondition(query, false))
  if (!criteria.statuses) {
    const where = ranged.length > 0 ? sql` where ${and_(ranged)}` : sql``
    return sql`select ${orders.id} from ${orders}${where} order by ${orders.id} desc limit ${limit}`
  }
  const walks = criteria.statuses.map(
    (status) =>
      sql`select id from (select ${orders.id} from ${orders} where ${and_([sql`${orders.status} = ${status}`, ...ranged])} order by ${orders.id} desc limit ${limit})`,
  )
  return sql`${sql.join(walks, sql` union all `)} order by 1 desc limit ${limit}`
}

/** The search as one statement, unexecuted: the page's orders, newest first. */
export function orderSearchQuery(
  db: Database,
  criteria: OrderSearchCriteria,
  page: OrderSearchPage,
  plan: SearchPlan,
) {
  return db
    .select()
    .from(orders)
    .where(inPage(criteria, page, plan))
    .orderBy(desc(orders.id))
}

/** SQL: the order is one of the page's (`matchingNumbers`). */
function inPage(criteria: OrderSearchCriteria, page: OrderSearchPage, plan: SearchPlan): SQL {
  return sql`${orders.id} in (${matchingNumbers(criteria, page, plan)})`
}

/**
 * What the staff list shows of an order (api/modules/dashboard/service.ts `dashboardOrder`): a third of
 * its columns, without the addresses. Reading and converting every column of a page of 50 was half of a
 * list call's time at 100,000 orders.
 */
const LISTED_COLUMNS = {
  id: orders.id,
  customerName: orders.customerName,
  email: orders.email,
  itemCount: orders.itemCount,
  totalWeightTenthsOz: orders.totalWeightTenthsOz,
  status: orders.status,
  createdAt: orders.createdAt,
  totalCents: orders.totalCents,
  shippoTrackingNumber: orders.shippoTrackingNumber,
  shippingCarrier: orders.shippingCarrier,
  shippingService: orders.shippingService,
  failureReason: orders.failureReason,
  discountWarning: orders.discountWarning,
  stockWarning: orders.stockWarning,
  labelUrl: orders.labelUrl,
}

export type ListedOrder = Pick<OrderRow, keyof typeof LISTED_COLUMNS>

/**
 * Which plan suits the search text: counts its matches in the text indexes, up to TEXT_MATCHES_TO_SORT
 * (a few thousand index entries at most, never the rows).
 */
async function planFor(db: Database, query: OrderQuery | null | undefined): Promise<SearchPlan> {
  if (!query || query.kind === 'number') return 'walk'
  const [row] = await db.all<{ matches: number }>(
    sql`select count(*) as matches from (select 1 from ${orders} where ${textCondition(query, true)} limit ${TEXT_MATCHES_TO_SORT})`,
  )
  return (row?.matches ?? 0) < TEXT_MATCHES_TO_SORT ? 'text' : 'walk'
}

/**
 * Staff's search of every order (docs/product.md#staff-calls): by number, e-mail or name, statuses and
 * the days they were placed, a page at a time; and what the accountant's export adds to each order.
 */
export function createOrderSearch(deps: { db: Database }) {
  return {
    /** A page of whole orders (the accountant's export). */
    async page(criteria: OrderSearchCriteria, page: OrderSearchPage): Promise<OrderRow[]> {
      return orderSearchQuery(deps.db, criteria, page, await planFor(deps.db, criteria.query))
    },

    /** A page of the staff list: what it shows of each order (the same orders `page` finds). */
    async listed(criteria: OrderSearchCriteria, page: OrderSearchPage): Promise<ListedOrder[]> {
      const plan = await planFor(deps.db, criteria.query)
      return deps.db
        .select(LISTED_COLUMNS)
        .from(orders)
        .where(inPage(criteria, page, plan))
        .orderBy(desc(orders.id))
    },

    /** Cents refunded of each order (0 for one with none). */
    refundedCents(orderIds: readonly number[]): Promise<Map<number, number>> {
      return refundedCentsByOrder(deps.db, orderIds)
    },
  }
}

export type OrderSearch = ReturnType<typeof createOrderSearch>
