// The data of the large-shop scenario: a shop grown to a given number of paid orders, with their lines, three
// payment events per order and one customer account per ten orders, written through the real schema (db/schema)
// into a database the real migrations made (db/client.ts openDatabase). Rows go in as multi-row INSERTs
// inside one transaction per growth step: 100,000 orders take seconds, not the hours one insert per
// statement would.
//
// The shop grows in steps (1,000, then 10,000, then 100,000 orders) so each size is measured on the same
// data as the one before plus the new orders. Everything is derived from the order number, so two runs
// make the same shop.
import { max, sql } from 'drizzle-orm'
import { loadCatalogFromContent } from '../../api/modules/catalog/content'
import type { Database } from '../../db/client'
import { orderLines, orders, webhookEvents } from '../../db/schema'
import { type AccountRow, insertAccounts } from './accounts'

/** The largest shop of the scenario (docs/architecture.md#performance-budgets): its newest order is placed "now", 1,000 a day before it. */
export const FULL_SIZE_ORDERS = 100_000
const ORDERS_PER_DAY = 1_000
const ORDERS_PER_CUSTOMER = 10
const EVENTS_PER_ORDER = 3
/**
 * The customer whose order history is measured has the same ten orders at every size (every 100th of the
 * first 1,000), so a slower history call at 100,000 orders shows the shop's size, not a longer list.
 */
export const REGULAR_CUSTOMER = 0
const REGULAR_CUSTOMER_EVERY = 100
const REGULAR_CUSTOMER_ORDERS = 10

/** Accounts the scenario signs in as; the staff member is the only staff account. */
export const customerEmail = (customer: number) => `customer${customer}@crew.example`
export const customerId = (customer: number) => `bench-customer-${customer}`
export const STAFF_EMAIL = 'staff@crew.example'

export interface ShopCounts {
  orders: number
  orderLines: number
  webhookEvents: number
  /** Distinct customers (by e-mail) who placed the orders. */
  customers: number
  /** Rows in the users table: one account per customer, plus the staff member once made. */
  accounts: number
}

/** A small, fast, seeded generator: the same order number always makes the same order. */
function randomFor(seed: number): () => number {
  let state = (seed * 2654435761) >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const PLACES = [
  ['Columbus', 'OH', '43215'],
  ['Houston', 'TX', '77002'],
  ['Denver', 'CO', '80202'],
  ['Boise', 'ID', '83702'],
  ['Anchorage', 'AK', '99501'],
  ['Nashville', 'TN', '37203'],
  ['Portland', 'OR', '97204'],
] as const

function customerCount(ordersInShop: number): number {
  return Math.max(2, Math.ceil(ordersInShop / ORDERS_PER_CUSTOMER))
}

/** Who placed order n (0-based) in a shop of this many customers. */
export function customerOf(n: number, customers: number): number {
  if (n < REGULAR_CUSTOMER_ORDERS * REGULAR_CUSTOMER_EVERY && n % REGULAR_CUSTOMER_EVERY === 0)
    return REGULAR_CUSTOMER
  return 1 + (n % (customers - 1))
}

type OrderStatus = (typeof orders.$inferInsert)['status']

/** Newest orders are still being fulfilled; older ones have shipped; one in 200 failed at the carrier. */
function statusOf(n: number, random: () => number): OrderStatus {
  if (random() < 0.005) return 'failed'
  const fromNewest = FULL_SIZE_ORDERS - 1 - n
  if (fromNewest < 50) return 'pending'
  if (fromNewest < 300) return random() < 0.5 ? 'processing' : 'label_created'
  return 'shipped'
}

interface Generated {
  order: typeof orders.$inferInsert
  lines: (typeof orderLines.$inferInsert)[]
  events: (typeof webhookEvents.$inferInsert)[]
}

function generateOrder(
  n: number,
  customers: number,
  catalog: ReturnType<typeof loadCatalogFromContent>,
  nowMs: number,
): Generated {
  const random = randomFor(n + 1)
  const id = n + 1
  const customer = customerOf(n, customers)
  const email = customerEmail(customer)
  const createdAt = new Date(nowMs - (FULL_SIZE_ORDERS - 1 - n) * (86_400_000 / ORDERS_PER_DAY))
  const [city, state, zip] = PLACES[customer % PLACES.length] ?? PLACES[0]
  const address = {
    name: `Customer ${customer}`,
    street1: `${100 + (customer % 900)} Mill Street`,
    city,
    state,
    zip,
    country: 'US',
  }
  const discounted = random() < 0.2
  const lineCount = 1 + Math.floor(random() * 3)
  const lines: Generated['lines'] = []
  for (let position = 0; position < lineCount; position++) {
    const product = catalog[(n + position) % catalog.length] ?? catalog[0]
    if (!product) throw new Error('the catalogue in content/products is empty')
    const quantity = 1 + Math.floor(random() * 2)
    lines.push({
      orderId: id,
      position,
      productId: product.id,
      name: product.name,
      variant: null,
      // As checkout names it: a line without a scent draws on the first (core/rules/stock.ts).
      stockVariant: product.variants[0] ?? '',
      unitCents: product.priceCents,
      quantity,
      discountCents: discounted ? Math.round(product.priceCents * quantity * 0.15) : 0,
      weightTenthsOz: product.weightTenthsOz,
    })
  }
  const subtotalCents = lines.reduce((sum, line) => sum + line.unitCents * line.quantity, 0)
  const discountCents = lines.reduce((sum, line) => sum + line.discountCents, 0)
  const shippingCents = subtotalCents - discountCents >= 5_000 ? 0 : 795
  const totalCents = subtotalCents - discountCents + shippingCents
  const status = statusOf(n, random)
  const hasLabel = status === 'shipped' || status === 'label_created'
  const sessionId = `cs_test_bench_${id}`
  const completedId = `evt_bench_${id}_completed`
  const created = Math.floor(createdAt.getTime() / 1000)
  const eventAt = (seconds: number) => new Date(createdAt.getTime() + seconds * 1000)
  const uid = id.toString(16).padStart(20, '0')
  const order: Generated['order'] = {
    id,
    uid,
    checkoutSessionId: sessionId,
    sourceEventId: completedId,
    userId: customerId(customer),
    email,
    customerKey: email,
    customerName: address.name,
    shippingAddress: JSON.stringify(address),
    billingAddress: JSON.stringify(address),
    subtotalCents,
    discountCents,
    discountCode: discounted ? 'GRIT15' : null,
    shippingCents,
    totalCents,
    itemCount: lines.reduce((sum, line) => sum + line.quantity, 0),
    totalWeightTenthsOz: lines.reduce((sum, line) => sum + line.weightTenthsOz * line.quantity, 0),
    shippingCarrier: 'USPS',
    shippingService: 'Ground Advantage',
    shippingServiceToken: 'usps_ground_advantage',
    status,
    // Every row names every column: one multi-row INSERT has one column list for all its rows.
    labelReference: hasLabel ? `${String(id).padStart(6, '0')}-${uid}` : null,
    shippoTrackingNumber: hasLabel ? `9400${String(id).padStart(18, '0')}` : null,
    labelUrl: hasLabel ? `/labels/${id}.pdf` : null,
    failureReason: status === 'failed' ? 'The carrier could not verify the address.' : null,
    createdAt,
    updatedAt: createdAt,
  }
  // What a Stripe account sends for one paid checkout: the session completed (made this order) and two
  // events the shop stores but does not act on.
  const events: Generated['events'] = [
    {
      id: completedId,
      eventType: 'checkout.session.completed',
      sessionId,
      orderId: id,
      status: 'processed',
      processingTimeMs: 2 + Math.floor(random() * 18),
      note: null,
      payload: JSON.stringify({
        id: completedId,
        type: 'checkout.session.completed',
        created,
        session: {
          id: sessionId,
          clientSecret: null,
          status: 'complete',
          paymentStatus: 'paid',
          amountTotal: totalCents,
          customerEmail: null,
          metadata: {},
        },
      }),
      claimedUntil: null,
      createdAt: eventAt(1),
    },
    ...(['payment_intent.succeeded', 'charge.succeeded'] as const).map((type, index) => ({
      id: `evt_bench_${id}_${type.split('.')[0]}`,
      eventType: type,
      sessionId: null,
      orderId: null,
      status: 'ignored' as const,
      processingTimeMs: 1,
      note: 'not a checkout session event',
      payload: JSON.stringify({ id: `evt_bench_${id}_${type.split('.')[0]}`, type, created, session: null }),
      claimedUntil: null,
      createdAt: eventAt(index),
    })),
  ]
  if (events.length !== EVENTS_PER_ORDER) throw new Error('each order comes with three events')
  return { order, lines, events }
}

/** Rows per INSERT: SQLite takes at most 32,766 values in one statement, and an order row has a few dozen. */
const ROWS_PER_INSERT = 500

async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT)
    await insert(rows.slice(start, start + ROWS_PER_INSERT))
}

export async function countShop(db: Database): Promise<ShopCounts> {
  const client = db.$client
  const one = async (sql: string) => Number((await client.execute(sql)).rows[0]?.[0] ?? 0)
  return {
    orders: await one('select count(*) from orders'),
    orderLines: await one('select count(*) from order_lines'),
    webhookEvents: await one('select count(*) from webhook_events'),
    customers: await one('select count(distinct customer_key) from orders'),
    accounts: await one('select count(*) from users'),
  }
}

/**
 * Grows the shop to `targetOrders` orders (the orders it already has are kept) and adds the accounts of
 * the customers who placed them, all with `passwordHash`.
 */
export async function growShop(
  db: Database,
  targetOrders: number,
  options: { now: Date; passwordHash: string },
): Promise<ShopCounts> {
  if (targetOrders > FULL_SIZE_ORDERS)
    throw new Error(`the large shop is planned for at most ${FULL_SIZE_ORDERS} orders`)
  const [existing] = await db.select({ last: max(orders.id) }).from(orders)
  const firstNew = existing?.last ?? 0
  const customersBefore = firstNew === 0 ? 0 : customerCount(firstNew)
  const customers = customerCount(targetOrders)
  const catalog = loadCatalogFromContent()
  const nowMs = options.now.getTime()

  await db.transaction(async (tx) => {
    // Index pages are updated all over the file (e-mails, statuses, times); with SQLite's default 2 MB page
    // cache each step of a large shop would read them back again and again. Only this connection's cache.
    await tx.run(sql`PRAGMA cache_size = -262144`)
    for (let start = firstNew; start < targetOrders; start += ROWS_PER_INSERT * 4) {
      const batch: Generated[] = []
      for (let n = start; n < Math.min(targetOrders, start + ROWS_PER_INSERT * 4); n++)
        batch.push(generateOrder(n, customers, catalog, nowMs))
      await insertInChunks(
        batch.map((generated) => generated.order),
        (chunk) => tx.insert(orders).values(chunk),
      )
      await insertInChunks(
        batch.flatMap((generated) => generated.lines),
        (chunk) => tx.insert(orderLines).values(chunk),
      )
      await insertInChunks(
        batch.flatMap((generated) => generated.events),
        (chunk) => tx.insert(webhookEvents).values(chunk),
      )
    }
  })
  const accounts: AccountRow[] = []
  for (let customer = customersBefore; customer < customers; customer++) {
    accounts.push({
      id: customerId(customer),
      email: customerEmail(customer),
      role: 'customer',
      firstName: 'Customer',
      lastName: String(customer),
    })
  }
  await insertAccounts(db, accounts, options.passwordHash, new Date(nowMs - 200 * 86_400_000))
  // The transaction's pages are written into the database file now, as a server would find it after a
  // quiet moment, rather than left in a large write-ahead log for the first reads to wade through.
  await db.$client.execute('PRAGMA wal_checkpoint(TRUNCATE)')
  return countShop(db)
}
