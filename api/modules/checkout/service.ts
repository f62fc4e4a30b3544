import { createHash } from 'node:crypto'
import type { CreateSessionBody } from '@core/contracts/checkout'
import { isEmail } from '@core/rules/address'
import type { CheckoutSessionStatus } from '@core/rules/checkout-status'
import { allocateDiscount, chargeableLines, type DiscountTerms, discountCents } from '@core/rules/discounts'
import { MIN_CHARGE_CENTS } from '@core/rules/money'
import { formatOrderNumber } from '@core/rules/order-status'
import { and, eq, gt, inArray, ne, not, or, type SQL, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { checkoutSessions } from '../../../db/schema/checkout'
import {
  type CheckoutSessionRequest,
  type PaymentProvider,
  PaymentProviderError,
  type ProviderSession,
  type ShippingAddress,
} from '../../adapters/types'
import type { Clock } from '../../lib/clock'
import { invalid, notFound, upstreamFailed } from '../../lib/domain-errors'
import { errorMessage, log } from '../../lib/log'
import { minimisedAddressSql } from '../../lib/minimised-address'
import type { Statement } from '../../lib/statements'
import { buildCart, type Cart, type CartItemInput, lineName, pricedLines } from '../catalog/cart'
import type { CatalogService } from '../catalog/service'
import type { DiscountService } from '../discounts/service'
import type { JobHandler, JobQueue } from '../jobs/service'
import type { ChargedLine } from '../orders/model'
import { normalizeAddress } from '../shipping/address'
import type { Quote, ShippingService } from '../shipping/service'

export const MIN_TOTAL_MESSAGE =
  'Order total must be at least $0.50 after discounts. Please add more items or use a smaller discount.'

/** A checkout session as stored: everything the order will be built from. */
export interface CheckoutRecord {
  id: string
  provider: 'stripe' | 'demo'
  status: CheckoutSessionStatus
  email: string
  userId: string | null
  shippingAddress: ShippingAddress
  billingAddress: ShippingAddress
  lines: ChargedLine[]
  discountCode: string | null
  /** The discount use this session holds until it is paid, expires or fails. */
  discountReservationKey: string | null
  subtotalCents: number
  discountCents: number
  shippingCents: number
  totalCents: number
  itemCount: number
  totalWeightTenthsOz: number
  quoteId: string
  shippingCarrier: string
  shippingService: string
  shippingServiceToken: string
  estimatedDaysMin: number
  estimatedDaysMax: number
}

/** Payment sessions expire after 24 hours (Stripe's default, and the demo provider's): then none can be paid. */
const PAYMENT_SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000

/**
 * How long a discount stays reserved for an unpaid session: by then the session can no longer be paid; the
 * extra hour covers clock differences with the provider.
 */
const RESERVATION_LIFETIME_MS = PAYMENT_SESSION_LIFETIME_MS + 60 * 60 * 1000

const SESSION_ID = /^cs_(test|live)_[A-Za-z0-9_]{1,250}$/

export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value)
}

function toRecord({
  orderId: _orderId,
  createdAt: _c,
  updatedAt: _u,
  ...row
}: typeof checkoutSessions.$inferSelect): CheckoutRecord {
  return {
    ...row,
    shippingAddress: JSON.parse(row.shippingAddress) as ShippingAddress,
    billingAddress: JSON.parse(row.billingAddress) as ShippingAddress,
    lines: JSON.parse(row.lines) as ChargedLine[],
  }
}

/** A digest of everything sent to the provider: the same cart, quote and e-mail give the same key. */
function idempotencyKey(
  request: Omit<CheckoutSessionRequest, 'idempotencyKey'>,
  userId: string | null,
): string {
  const digest = createHash('sha256').update(JSON.stringify({ request, userId })).digest('hex')
  return `checkout-${digest}`
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`
}

/** A checkout priced on the server: what its payment session is opened with and stored as. */
interface PricedCheckout {
  email: string
  userId: string | null
  shippingAddress: ShippingAddress
  billingAddress: ShippingAddress
  cart: Cart
  quote: Quote
  terms: DiscountTerms | null
  discountCents: number
  shippingCents: number
  lines: ChargedLine[]
  /** What the provider is asked for; its idempotency key also keys the discount's reservation. */
  request: CheckoutSessionRequest
}

const cartItem = (item: CreateSessionBody['line_items'][number]): CartItemInput => ({
  productId: item.product_id,
  quantity: item.quantity,
  variant: item.variant,
})

/** The cart's lines with each one's share of the discount, as the session stores them and the order keeps them. */
function chargedLines(cart: Cart, discount: number): ChargedLine[] {
  const lineDiscounts = allocateDiscount(pricedLines(cart), discount)
  return cart.lines.map((line, index) => ({
    productId: line.productId,
    name: line.name,
    variant: line.variant,
    unitCents: line.unitCents,
    quantity: line.quantity,
    discountCents: lineDiscounts[index] ?? 0,
    weightTenthsOz: line.weightTenthsOz,
  }))
}

/** The session the payment provider is asked for: the discounted lines, the shipping and the shop's metadata. */
function providerRequest(checkout: {
  email: string
  cart: Cart
  quote: Quote
  terms: DiscountTerms | null
  discount: number
  shippingCents: number
}): Omit<CheckoutSessionRequest, 'idempotencyKey'> {
  const { cart, quote, terms } = checkout
  const items = chargeableLines(pricedLines(cart), checkout.discount)
  return {
    customerEmail: checkout.email,
    lineItems: items.map((item) => {
      const line = cart.lines[Number(item.key)]
      if (!line) throw new Error(`chargeable line ${item.key} has no cart line`)
      return {
        name: lineName(line),
        description: truncate(line.description, 200),
        unitAmountCents: item.unitCents,
        quantity: item.quantity,
        productId: line.productId,
      }
    }),
    shipping: {
      amountCents: checkout.shippingCents,
      displayName: quote.serviceName,
      estimate: { minDays: quote.estimatedDaysMin, maxDays: quote.estimatedDaysMax },
    },
    metadata: {
      shipping_rate_id: quote.id,
      quote_id: quote.id,
      total_weight: (cart.weightTenthsOz / 10).toFixed(1),
      item_count: String(cart.itemCount),
      ...(terms ? { discount_code: terms.code } : {}),
    },
  }
}

export interface CheckoutServiceDeps {
  db: Database
  clock: Clock
  payments: PaymentProvider
  catalog: CatalogService
  discounts: DiscountService
  shipping: ShippingService
  jobs: JobQueue
}

export const CHECKOUT_JOBS = {
  expireFirstOrderSessions: 'expire-first-order-sessions',
} as const

/** Whose other first-order sessions a paid session ends (see expireFirstOrderSessions). */
interface PaidSessionCustomer {
  email: string
  userId: string | null
  /** The session that was paid, left alone. */
  paidSession: string
}

function paidSessionCustomer(payload: unknown): PaidSessionCustomer {
  const { email, userId, paidSession } = (payload ?? {}) as Record<string, unknown>
  if (
    typeof email !== 'string' ||
    typeof paidSession !== 'string' ||
    !(userId === null || typeof userId === 'string')
  )
    throw new Error('job payload has no customer')
  return { email, userId, paidSession }
}

export function createCheckoutService(deps: CheckoutServiceDeps) {
  const { db, clock, catalog, discounts, shipping } = deps

  /**
   * The code's terms for pricing the session, from memory. Its use limits are checked once, by
   * `discounts.reserve`, in the same statement that holds the use.
   */
  async function discountTerms(
    code: string | null | undefined,
    subtotalCents: number,
  ): Promise<DiscountTerms | null> {
    const trimmed = code?.trim()
    if (!trimmed) return null
    return discounts.terms(trimmed, { subtotalCents })
  }

  /**
   * Step 1, price: rebuilds the order from the catalogue, the discount's terms and the server's own shipping
   * quote; nothing the browser says about prices is used. Refuses what cannot be charged.
   */
  async function price(body: CreateSessionBody, userId: string | null): Promise<PricedCheckout> {
    const email = body.customer_email.trim().toLowerCase()
    if (!isEmail(email)) throw invalid('Please enter a valid e-mail address, like name@example.com.')
    const shippingAddress = normalizeAddress(body.shipping_address)
    const billingAddress = body.billing_address
      ? normalizeAddress(body.billing_address, 'billing')
      : shippingAddress
    const cart = await buildCart(catalog, body.line_items.map(cartItem))
    const shippingPrice = await shipping.priceFor(body.shipping_rate.id, cart, shippingAddress)
    const terms = await discountTerms(body.discount_code, cart.subtotalCents)
    const discount = discountCents(cart.subtotalCents, terms)
    const goodsCents = cart.subtotalCents - discount
    if (goodsCents < MIN_CHARGE_CENTS) throw invalid(MIN_TOTAL_MESSAGE)
    const quote = shippingPrice.quote
    const shippingCents = shippingPrice.centsFor(goodsCents)
    const request = providerRequest({ email, cart, quote, terms, discount, shippingCents })
    return {
      email,
      userId,
      shippingAddress,
      billingAddress,
      cart,
      quote,
      terms,
      discountCents: discount,
      shippingCents,
      lines: chargedLines(cart, discount),
      request: { ...request, idempotencyKey: idempotencyKey(request, userId) },
    }
  }

  /** Step 2, reserve: the code's use is held before the provider is asked, so parallel sessions can never pass a code's limits together. */
  async function reserve(priced: PricedCheckout): Promise<void> {
    if (!priced.terms) return
    await discounts.reserve(
      priced.terms.code,
      { subtotalCents: priced.cart.subtotalCents, email: priced.email, userId: priced.userId },
      {
        key: priced.request.idempotencyKey,
        expiresAt: new Date(clock.now().getTime() + RESERVATION_LIFETIME_MS),
      },
    )
  }

  /** Step 3, open: the provider's session; a refusal gives the reserved use back and answers 502. */
  async function open(priced: PricedCheckout): Promise<ProviderSession & { clientSecret: string }> {
    try {
      return await deps.payments.createCheckoutSession(priced.request)
    } catch (error) {
      if (priced.terms) await discounts.release(priced.request.idempotencyKey)
      if (!(error instanceof PaymentProviderError)) throw error
      log.error('payment provider refused a session', { error: errorMessage(error) })
      throw upstreamFailed('We could not start the secure payment. Please try again in a moment.')
    }
  }

  /** Step 4, store: everything the order will be made from, under the provider's session id. */
  async function store(priced: PricedCheckout, sessionId: string): Promise<void> {
    const now = clock.now()
    const { cart, quote, terms } = priced
    await db
      .insert(checkoutSessions)
      .values({
        id: sessionId,
        provider: deps.payments.name,
        status: 'open',
        email: priced.email,
        userId: priced.userId,
        shippingAddress: JSON.stringify(priced.shippingAddress),
        billingAddress: JSON.stringify(priced.billingAddress),
        lines: JSON.stringify(priced.lines),
        discountCode: terms?.code ?? null,
        discountReservationKey: terms ? priced.request.idempotencyKey : null,
        subtotalCents: cart.subtotalCents,
        discountCents: priced.discountCents,
        shippingCents: priced.shippingCents,
        totalCents: cart.subtotalCents - priced.discountCents + priced.shippingCents,
        itemCount: cart.itemCount,
        totalWeightTenthsOz: cart.weightTenthsOz,
        quoteId: quote.id,
        shippingCarrier: quote.carrier,
        shippingService: quote.serviceName,
        shippingServiceToken: quote.serviceToken,
        estimatedDaysMin: quote.estimatedDaysMin,
        estimatedDaysMax: quote.estimatedDaysMax,
        createdAt: now,
        updatedAt: now,
      })
      // A double click gets the provider's same session back (idempotency key): store it once.
      .onConflictDoNothing({ target: checkoutSessions.id })
  }

  /** Moves a session to `to` only from one of `from`, as a statement for a transaction. */
  function statusStatement(id: string, to: CheckoutSessionStatus, from: readonly CheckoutSessionStatus[]) {
    return db
      .update(checkoutSessions)
      .set({ status: to, updatedAt: clock.now() })
      .where(and(eq(checkoutSessions.id, id), inArray(checkoutSessions.status, [...from])))
      .returning({ id: checkoutSessions.id })
  }

  const service = {
    /**
     * Opens a payment session for the cart: priced on the server, the discount's use reserved, the
     * provider's session opened, and what was asked for stored for the order the payment will make.
     */
    async createSession(
      body: CreateSessionBody,
      userId: string | null,
    ): Promise<{ sessionId: string; url: string }> {
      const priced = await price(body, userId)
      await reserve(priced)
      const session = await open(priced)
      await store(priced, session.id)
      return {
        sessionId: session.id,
        url: `/checkout?client_secret=${encodeURIComponent(session.clientSecret)}`,
      }
    },

    async record(id: string): Promise<CheckoutRecord | null> {
      const [row] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).limit(1)
      return row ? toRecord(row) : null
    },

    /**
     * Moves a session to `to` only from one of `from`: a late 'expired' never overwrites 'complete', so
     * events may arrive in any order.
     */
    async markStatus(
      id: string,
      to: CheckoutSessionStatus,
      from: readonly CheckoutSessionStatus[],
    ): Promise<boolean> {
      const moved = await statusStatement(id, to, from)
      return moved.length > 0
    },

    statusStatement,

    /**
     * The payment made an order: the session is complete and remembers which order it made. A statement
     * for the transaction that makes the order; `orderId` is SQL for the order's id there.
     */
    markCompleteStatement(id: string, orderId: SQL<number>): Statement {
      return db
        .update(checkoutSessions)
        .set({ status: 'complete', orderId: sql`${orderId}`, updatedAt: clock.now() })
        .where(eq(checkoutSessions.id, id))
    },

    /**
     * For an account being deleted, unexecuted, for the deletion's batch (docs/decisions/018): none of its
     * checkout sessions stays the account's. One whose payment may still complete (open and younger than
     * a payment session lives, or waiting for a delayed payment) keeps its e-mail and addresses, so the
     * order it may yet make can be sent and confirmed, as a guest's would; every other one is minimised
     * like the account's orders.
     */
    forgetCustomerQueries(userId: string): [Statement, Statement] {
      const now = clock.now()
      const payable = or(
        eq(checkoutSessions.status, 'payment_pending'),
        and(
          eq(checkoutSessions.status, 'open'),
          gt(checkoutSessions.createdAt, new Date(now.getTime() - PAYMENT_SESSION_LIFETIME_MS)),
        ),
      )
      return [
        db
          .update(checkoutSessions)
          .set({
            userId: null,
            email: '',
            shippingAddress: minimisedAddressSql(checkoutSessions.shippingAddress),
            billingAddress: minimisedAddressSql(checkoutSessions.billingAddress),
            updatedAt: now,
          })
          .where(and(eq(checkoutSessions.userId, userId), not(payable as SQL))),
        db
          .update(checkoutSessions)
          .set({ userId: null, updatedAt: now })
          .where(eq(checkoutSessions.userId, userId)),
      ]
    },

    /** For /success: the session's state and, once the order exists, its number. Nothing personal. */
    async status(id: string): Promise<{ status: CheckoutSessionStatus; orderNumber?: string }> {
      if (!isSessionId(id)) throw notFound('Checkout session not found.')
      const [row] = await db
        .select({ status: checkoutSessions.status, orderId: checkoutSessions.orderId })
        .from(checkoutSessions)
        .where(eq(checkoutSessions.id, id))
        .limit(1)
      if (!row) throw notFound('Checkout session not found.')
      if (row.orderId !== null) return { status: 'complete', orderNumber: formatOrderNumber(row.orderId) }
      return { status: row.status }
    },

    /**
     * For the transaction that makes a paid order: a job that ends the customer's other open sessions
     * holding a first-order code, queued only if there are any (docs/decisions/021). Their payment would
     * be a second order at the first-order price.
     */
    expireFirstOrderSessionsStatement(record: Pick<CheckoutRecord, 'id' | 'email' | 'userId'>): Statement {
      const customer = { email: record.email, userId: record.userId }
      const payload: PaidSessionCustomer & Record<string, unknown> = { ...customer, paidSession: record.id }
      return deps.jobs.enqueueQuery(CHECKOUT_JOBS.expireFirstOrderSessions, payload, {
        dedupeKey: `expire-first-order-sessions:${record.id}`,
        when: discounts.openFirstOrderReservationExists(customer),
      })
    },

    /**
     * The job: each open session of this customer that holds a first-order code is expired at the payment
     * provider, so it can no longer be paid, and gives its reservation back. One the customer paid before
     * it could be ended makes its order all the same, marked for staff (the webhook's warning).
     */
    async expireFirstOrderSessions(customer: PaidSessionCustomer): Promise<number> {
      const keys = await discounts.openFirstOrderReservations(customer)
      if (keys.length === 0) return 0
      const open = await db
        .select({ id: checkoutSessions.id, reservationKey: checkoutSessions.discountReservationKey })
        .from(checkoutSessions)
        .where(
          and(
            inArray(checkoutSessions.discountReservationKey, keys),
            inArray(checkoutSessions.status, ['open', 'payment_pending']),
            ne(checkoutSessions.id, customer.paidSession),
          ),
        )
      let expired = 0
      for (const session of open) {
        if ((await deps.payments.expireSession(session.id)) !== 'expired') continue
        await service.markStatus(session.id, 'expired', ['open', 'payment_pending'])
        if (session.reservationKey) await discounts.release(session.reservationKey)
        expired += 1
      }
      if (expired > 0) log.info('first-order sessions expired after a paid order', { sessions: expired })
      return expired
    },

    /** The job handlers this module owns, for the job runner. */
    jobHandlers(): Record<string, JobHandler> {
      return {
        [CHECKOUT_JOBS.expireFirstOrderSessions]: async (payload) => {
          await service.expireFirstOrderSessions(paidSessionCustomer(payload))
        },
      }
    },
  }
  return service
}

export type CheckoutService = ReturnType<typeof createCheckoutService>
