/**
 * Checkout: a payment session opened for a cart in four steps (price, reserve, open, store), and the
 * stored sessions (sessions.ts) and the first-order expiry (first-order.ts) the module also owns.
 */
import type { CreateSessionBody } from '@core/contracts/checkout'
import { isEmail } from '@core/rules/address'
import { allocateDiscount, chargeableLines, type DiscountTerms, discountCents } from '@core/rules/discounts'
import { formatCents, MIN_CHARGE_CENTS } from '@core/rules/money'
import { type SQL, sql } from 'drizzle-orm'
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
import { crashPoint } from '../../lib/crash-points'
import { sha256Hex } from '../../lib/digests'
import { conflict, DomainError, invalid, upstreamFailed } from '../../lib/domain-errors'
import { errorMessage, log } from '../../lib/log'
import { builtOnce, commitTogether, placeholders, runTogether, type Statement } from '../../lib/statements'
import { buildCart, type Cart, type CartItemInput, lineName, pricedLines } from '../catalog/cart'
import type { CatalogService } from '../catalog/service'
import type { DiscountService } from '../discounts/service'
import type { JobQueue } from '../jobs/service'
import type { ChargedLine } from '../orders/model'
import { normalizeAddress } from '../shipping/address'
import type { Quote, ShippingService } from '../shipping/service'
import type { StockLine, StockService } from '../stock/service'
import { createFirstOrderExpiry } from './first-order'
import { createInFlight, type InFlight, type InFlightRequests } from './in-flight'
import { RESERVATION_LIFETIME_MS, type UnpaidEnd } from './model'
import { createOpenSessions, handOverStatements, type OpenSessions } from './open-session'
import { delayedPaymentStatements, type HeldBy, unpaidEndStatements } from './session-holds'
import { createCheckoutSessions } from './sessions'

export { CHECKOUT_JOBS, type CheckoutRecord, isSessionId, type UnpaidEnd } from './model'

export const MIN_TOTAL_MESSAGE =
  'Order total must be at least $0.50 after discounts. Please add more items or use a smaller discount.'

/**
 * A digest of everything sent to the provider and everything the session stores for its order: the same
 * cart, quote, e-mail and addresses give the same key (Pay pressed twice gets one session). The addresses
 * count in full: a quote does not cover the recipient's name (fixing a typo keeps the rates), nor the
 * billing address, so without them a corrected name would get the first session back, and the order the
 * old name (docs/decisions/032-one-open-session-per-cart.md).
 */
function idempotencyKey(
  request: Omit<CheckoutSessionRequest, 'idempotencyKey'>,
  customer: { userId: string | null; shippingAddress: ShippingAddress; billingAddress: ShippingAddress },
): string {
  const { userId, shippingAddress, billingAddress } = customer
  const digest = sha256Hex(JSON.stringify({ request, userId, shippingAddress, billingAddress }))
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
  /** The cart's lines as stock counts them: what the session holds of counted products. */
  stockLines: StockLine[]
  /** What the provider is asked for; its idempotency key also keys the discount's and the stock's reservations. */
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
    stockVariant: line.stockVariant,
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
      // A price the code lowered says so on the provider's page, which shows no discount line of its own.
      const before =
        terms && item.unitCents < line.unitCents
          ? `${formatCents(line.unitCents)} each before the code ${terms.code}. `
          : ''
      return {
        name: lineName(line),
        description: truncate(`${before}${line.description}`, 200),
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
  stock: Pick<
    StockService,
    | 'linesOf'
    | 'reserveStatements'
    | 'holdStatement'
    | 'releaseStatement'
    | 'handOverStatement'
    | 'forgetHandOverStatement'
    | 'refusal'
  >
  jobs: JobQueue
}

/** What the steps after pricing use: the module's dependencies and the requests in flight (in-flight.ts). */
interface StepDeps extends CheckoutServiceDeps {
  inFlight: InFlightRequests
}

/**
 * The code's terms for pricing the session, from memory. Its use limits are checked once, by the
 * statement that holds the use (`discounts.prepareReservation`).
 */
async function discountTerms(
  discounts: DiscountService,
  code: string | null | undefined,
  subtotalCents: number,
): Promise<DiscountTerms | null> {
  const trimmed = code?.trim()
  if (!trimmed) return null
  return discounts.terms(trimmed, { subtotalCents })
}

/** The e-mail and the addresses, checked and normalised. */
function customerOf(body: CreateSessionBody) {
  const email = body.customer_email.trim().toLowerCase()
  if (!isEmail(email)) throw invalid('Please enter a valid e-mail address, like name@example.com.')
  const shippingAddress = normalizeAddress(body.shipping_address)
  const billingAddress = body.billing_address
    ? normalizeAddress(body.billing_address, 'billing')
    : shippingAddress
  return { email, shippingAddress, billingAddress }
}

/**
 * Step 1, price: rebuilds the order from the catalogue, the discount's terms and the server's own shipping
 * quote; nothing the browser says about prices is used. Refuses what cannot be charged.
 */
async function price(
  deps: CheckoutServiceDeps,
  body: CreateSessionBody,
  userId: string | null,
): Promise<PricedCheckout> {
  const { email, shippingAddress, billingAddress } = customerOf(body)
  const cart = await buildCart(deps.catalog, body.line_items.map(cartItem))
  const stockLines = await deps.stock.linesOf(cart.lines, { strict: true })
  const shipping = await deps.shipping.priceFor(body.shipping_rate.id, cart, shippingAddress)
  const terms = await discountTerms(deps.discounts, body.discount_code, cart.subtotalCents)
  const discount = discountCents(cart.subtotalCents, terms)
  const goodsCents = cart.subtotalCents - discount
  if (goodsCents < MIN_CHARGE_CENTS) throw invalid(MIN_TOTAL_MESSAGE)
  const { quote } = shipping
  const shippingCents = shipping.centsFor(goodsCents)
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
    stockLines,
    request: {
      ...request,
      idempotencyKey: idempotencyKey(request, { userId, shippingAddress, billingAddress }),
    },
  }
}

/**
 * Step 2, reserve: the code's use and the units of every counted line are held before the provider is
 * asked, in one transaction, so parallel sessions can never pass a code's limits or take more units than
 * are on the shelf together. A line short of units aborts the whole transaction (the stock guard), and the
 * answer names it; a code used up holds no units either. The cart's `earlier` session hands its use and
 * units over (docs/decisions/032): this one is reserved without counting them, while the earlier keeps
 * them until it is ended, so a refusal leaves it as it was.
 */
async function reserve(
  deps: StepDeps,
  priced: PricedCheckout,
  earlier: HeldBy | null,
  request: InFlight,
): Promise<void> {
  const { db, clock, discounts, stock } = deps
  const key = priced.request.idempotencyKey
  const now = clock.now()
  const discount = priced.terms
    ? await discounts.prepareReservation(
        priced.terms.code,
        { subtotalCents: priced.cart.subtotalCents, email: priced.email, userId: priced.userId },
        {
          key,
          expiresAt: new Date(now.getTime() + RESERVATION_LIFETIME_MS),
          handedOver: earlier?.discountReservationKey ?? undefined,
        },
      )
    : null
  // Held for the session's whole life from the start, as the code's use is: storing the session then
  // writes nothing more to them. A process that dies before the session is stored leaves this request in
  // flight, and the sweep gives its units and its code's use back within minutes (in-flight.ts, forgetStale).
  const units = stock.reserveStatements(key, priced.stockLines, {
    now,
    expiresAt: new Date(now.getTime() + RESERVATION_LIFETIME_MS),
    onlyIf: discount?.held,
  })
  // After the use is held (it does not count the earlier session's), before the units (the guard then
  // leaves the earlier session's units out): only if the use was held. A hand-over to this key that a
  // crash left behind is dropped first: only the one made now lets its holds take another's units.
  const handOver = earlier ? handOverStatements(deps, earlier, key, now, discount?.held) : []
  const statements: Statement[] = [
    stock.forgetHandOverStatement(key),
    ...(discount ? [discount.statement] : []),
    ...handOver,
    ...units,
    deps.inFlight.startStatement(request, now),
  ]
  let held: { held: number } | undefined
  try {
    // With a code, the transaction reads back whether its use was reserved; without one, nothing to read.
    if (discount) {
      ;[held] = await commitTogether(
        db,
        statements,
        db.all<{ held: number }>(sql`select ${discount.held} as held`),
      )
    } else {
      await runTogether(db, statements)
    }
  } catch (error) {
    throw (await stock.refusal(error, priced.stockLines, earlier?.stockReservationKey)) ?? error
  }
  // Refused, it held nothing, so it was not recorded in flight either (in-flight.ts records a request only
  // with something held under its key).
  if (discount && !held?.held) await discount.refused()
}

/** What the session holds (its code's use, its units), given back when it will never be paid; only if `when` holds. */
function releaseStatements(
  { discounts, stock }: CheckoutServiceDeps,
  priced: PricedCheckout,
  when?: SQL,
): Statement[] {
  const key = priced.request.idempotencyKey
  return [...(priced.terms ? [discounts.releaseStatement(key, when)] : []), stock.releaseStatement(key, when)]
}

/**
 * The request gives up: no longer in flight, and what it holds goes back unless the same request is in
 * flight beside it or its session is stored and payable (in-flight.ts).
 */
function giveUpStatements(deps: StepDeps, priced: PricedCheckout, request: InFlight): Statement[] {
  const alone = deps.inFlight.aloneSql(request, deps.clock.now())
  return [deps.inFlight.finishStatement(request), ...releaseStatements(deps, priced, alone)]
}

export const SESSION_REFUSED_MESSAGE = 'We could not start the secure payment. Please try again in a moment.'

export const EARLIER_PAID_MESSAGE =
  'Your payment for this cart has gone through or is on its way: look for its confirmation e-mail before you pay again.'

/**
 * Step 2b, when the cart named its earlier session: ended at the provider, which gives its holds back. If
 * it could not be ended (the provider cannot be reached, or it was paid meanwhile) it keeps its use and
 * units, and this request gives its own up: 502 to try again, or 409 for the payment under way.
 */
async function endEarlier(
  deps: StepDeps,
  openSessions: OpenSessions,
  priced: PricedCheckout,
  earlier: HeldBy,
  request: InFlight,
): Promise<void> {
  const key = priced.request.idempotencyKey
  const giveUp = () =>
    runTogether(deps.db, [
      ...giveUpStatements(deps, priced, request),
      deps.stock.forgetHandOverStatement(key),
    ])
  let outcome: Awaited<ReturnType<OpenSessions['end']>>
  try {
    outcome = await openSessions.end(earlier, key)
  } catch (error) {
    // Anything else failing here leaves the earlier session as it was: this one's holds go back too.
    await giveUp().catch(() => undefined)
    throw error
  }
  if (outcome === 'expired') return
  await giveUp()
  if (outcome === 'complete') throw conflict(EARLIER_PAID_MESSAGE)
  throw upstreamFailed(SESSION_REFUSED_MESSAGE)
}

/**
 * Step 3, open: the provider's session; a refusal gives the code's use and the units back (unless the same
 * request beside it still relies on them) and answers 502.
 */
async function open(
  deps: StepDeps,
  priced: PricedCheckout,
  request: InFlight,
): Promise<ProviderSession & { clientSecret: string }> {
  try {
    return await deps.payments.createCheckoutSession(priced.request)
  } catch (error) {
    await runTogether(deps.db, giveUpStatements(deps, priced, request))
    if (!(error instanceof PaymentProviderError)) throw error
    log.error('payment provider refused a session', { error: errorMessage(error) })
    throw upstreamFailed(SESSION_REFUSED_MESSAGE)
  }
}

/** Every column a stored session is written with (step 4). */
const STORED_COLUMNS = [
  'id',
  'provider',
  'status',
  'email',
  'userId',
  'shippingAddress',
  'billingAddress',
  'lines',
  'discountCode',
  'discountReservationKey',
  'stockReservationKey',
  'subtotalCents',
  'discountCents',
  'shippingCents',
  'totalCents',
  'itemCount',
  'totalWeightTenthsOz',
  'quoteId',
  'shippingCarrier',
  'shippingService',
  'shippingServiceToken',
  'estimatedDaysMin',
  'estimatedDaysMax',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof typeof checkoutSessions.$inferInsert)[]

type StoredSession = Pick<typeof checkoutSessions.$inferInsert, (typeof STORED_COLUMNS)[number]>

/** The session's row, its SQL built once: every checkout sends it (api/lib/statements.ts, builtOnce). */
function storedSessionStatement(db: Database) {
  return builtOnce<StoredSession>(() =>
    db
      .insert(checkoutSessions)
      .values(placeholders(STORED_COLUMNS))
      // A double click gets the provider's same session back (idempotency key): store it once.
      .onConflictDoNothing({ target: checkoutSessions.id }),
  )
}

/**
 * The stored session's status read back in the transaction that stores it, and whether the INSERT just
 * before it wrote the row (changes()): built once, as every checkout sends it.
 */
function storedStatusStatement(db: Database) {
  const read = () =>
    db.all<{ status: string; storedNow: number }>(
      sql`select status, changes() as storedNow from ${checkoutSessions} where id = ${sql.placeholder('id')}`,
    )
  const built = builtOnce<{ id: string }>(read)
  // Typed as the query it was built from, whose rows it reads back.
  return { with: (values: { id: string }) => built.with(values) as unknown as ReturnType<typeof read> }
}

/** The stored session's status, and whether this request stored it (not the same request before it). */
interface Stored {
  status: string
  storedNow: boolean
}

/**
 * Step 4, store: everything the order will be made from, under the provider's session id, in one
 * transaction; the request is no longer in flight (its holds already last the session's life). Answers
 * the stored session's status: 'open' for one stored now or by the same request before (a double click),
 * another status when the provider answered a request sent before with the session it made then (it
 * replays its first answer, whatever became of the session since).
 */
async function store(
  { db, clock, payments, inFlight }: StepDeps,
  storedSession: ReturnType<typeof storedSessionStatement>,
  storedStatus: ReturnType<typeof storedStatusStatement>,
  priced: PricedCheckout,
  sessionId: string,
  request: InFlight,
): Promise<Stored | undefined> {
  const now = clock.now()
  const { cart, quote, terms } = priced
  const key = priced.request.idempotencyKey
  const session = storedSession.with({
    id: sessionId,
    provider: payments.name,
    status: 'open',
    email: priced.email,
    userId: priced.userId,
    shippingAddress: JSON.stringify(priced.shippingAddress),
    billingAddress: JSON.stringify(priced.billingAddress),
    lines: JSON.stringify(priced.lines),
    discountCode: terms?.code ?? null,
    discountReservationKey: terms ? key : null,
    stockReservationKey: key,
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
  // The session's INSERT last but for the read, whose changes() then says whether it wrote the row.
  const [stored] = await commitTogether(
    db,
    [inFlight.finishStatement(request), session],
    storedStatus.with({ id: sessionId }),
  )
  return stored && { status: stored.status, storedNow: stored.storedNow === 1 }
}

/**
 * A session stored by the same request before is 'open' here until the provider's event says otherwise,
 * and the provider's answer to the request again is its first one ('open'), so only asking it for the
 * session tells one it has ended or been paid meanwhile, its event not here yet. The provider unreachable:
 * the record is taken as it is.
 */
async function stillOpenAtProvider(
  deps: StepDeps,
  sessionId: string,
): Promise<'open' | 'expired' | 'complete'> {
  try {
    const current = await deps.payments.retrieveSession(sessionId)
    return current?.status === 'expired' || current?.status === 'complete' ? current.status : 'open'
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error
    log.warn('the payment provider could not be asked about a session sent again', {
      error: errorMessage(error),
    })
    return 'open'
  }
}

export function createCheckoutService(serviceDeps: CheckoutServiceDeps) {
  const deps: StepDeps = { ...serviceDeps, inFlight: createInFlight(serviceDeps.db) }
  const sessions = createCheckoutSessions(deps)
  const openSessions = createOpenSessions({ ...deps, sessions })
  const storedSession = storedSessionStatement(deps.db)
  const storedStatus = storedStatusStatement(deps.db)
  /**
   * Whether the session stored under this request's key was paid or its bank debit is on its way: as
   * the record says, or, while the record has it open, as the provider does (its event may be late).
   */
  async function paidAlready(key: string): Promise<boolean> {
    const stored = await sessions.payableUnder(key)
    if (!stored) return false
    if (stored.status !== 'open') return true
    return (await stillOpenAtProvider(deps, stored.id)) === 'complete'
  }

  /**
   * Steps 2b to 4 for a reserved request: the cart's earlier session ended, the provider's session opened
   * and stored. A failure gives the holds back where the steps say so; whatever fails, the request is no
   * longer in flight (a give-up says so with its release, anything else here).
   */
  async function openAndStore(priced: PricedCheckout, earlier: HeldBy | null, request: InFlight) {
    try {
      if (earlier) await endEarlier(deps, openSessions, priced, earlier, request)
      const session = await open(deps, priced, request)
      const stored = await store(deps, storedSession, storedStatus, priced, session.id, request)
      return { session, stored }
    } catch (error) {
      await runTogether(deps.db, [deps.inFlight.finishStatement(request)]).catch(() => undefined)
      throw error
    }
  }

  /**
   * Opens a payment session for the cart: priced on the server, the cart's earlier session ended
   * (open-session.ts), the discount's use and the units reserved, the provider's session opened, and
   * what was asked for stored for the order the payment will make.
   */
  async function createSession(
    body: CreateSessionBody,
    userId: string | null,
    attempt = 1,
  ): Promise<{ sessionId: string; url: string }> {
    const asked = await price(deps, body, userId)
    const { key, earlier } = await openSessions.earlierOf(
      body.open_session,
      { email: asked.email, userId, key: asked.request.idempotencyKey },
      // A cart that names its earlier session has been to payment: it may send a request again.
      { keyUsedBefore: attempt > 1 || body.open_session !== undefined },
    )
    const priced = { ...asked, request: { ...asked.request, idempotencyKey: key } }
    // This very request was paid, or its bank debit is on its way: told so before the cart's earlier
    // session is ended for nothing (or its holds taken over).
    if (earlier && (await paidAlready(key))) throw conflict(EARLIER_PAID_MESSAGE)
    const request: InFlight = { key, requestId: crypto.randomUUID() }
    try {
      await reserve(deps, priced, earlier, request)
    } catch (error) {
      // Refused under a key whose session ended unpaid (a request sent again without naming it, after its
      // next one under a derived key took the units or the use): made once more under that derived key.
      if (error instanceof DomainError && attempt < 2 && (await sessions.endedUnder(key)) !== null) {
        return createSession(body, userId, attempt + 1)
      }
      throw error
    }
    crashPoint('stock-reserved')
    const { session, stored } = await openAndStore(priced, earlier, request)
    // Stored by the same request before and still open in the record: the provider is asked what it is now.
    const atProvider =
      stored?.status === 'open' && !stored.storedNow
        ? await stillOpenAtProvider(deps, session.id)
        : session.status
    const status = stored?.status
    // The provider saying it ended counts too (the demo provider says what it is now; Stripe's expiry event
    // may be late or lost): recorded expired below.
    if (status === 'expired' || status === 'payment_failed' || atProvider === 'expired') {
      // The same request was sent before and its session ended unpaid (another tab's checkout took it
      // over, it expired, its bank debit failed): the provider answered its key with that ended session.
      // It is recorded ended and the holds just taken go back, and the request is made once more under a
      // key of its own (open-session.ts, unendedKey).
      const held = {
        id: session.id,
        discountReservationKey: priced.terms ? key : null,
        stockReservationKey: key,
      }
      await runTogether(deps.db, unpaidEndStatements({ ...deps, sessions }, held, 'expired'))
      if (attempt < 2) return createSession(body, userId, attempt + 1)
      throw upstreamFailed(SESSION_REFUSED_MESSAGE)
    }
    // Paid (what it holds is sold; a use it holds again, as a cancel leaves it released, goes back), or a
    // bank debit on its way (what it holds is held for that payment).
    if (status === 'complete') await runTogether(deps.db, releaseStatements(deps, priced))
    // Paid at the provider, its event not here yet: what it holds is kept for the order the event makes.
    if (status === 'complete' || status === 'payment_pending' || atProvider === 'complete') {
      throw conflict(EARLIER_PAID_MESSAGE)
    }
    return {
      sessionId: session.id,
      url: `/checkout?client_secret=${encodeURIComponent(session.clientSecret)}`,
    }
  }

  return {
    createSession: (body: CreateSessionBody, userId: string | null) => createSession(body, userId),
    ...sessions,
    cartHold: openSessions.cartHold,
    /** The sweep: requests a crash left in flight past IN_FLIGHT_LIMIT_MS, their holds given back (in-flight.ts). */
    forgetStaleRequests: () => deps.inFlight.forgetStale(deps.clock.now()),
    ...createFirstOrderExpiry({ ...deps, sessions }),
    /** unpaidEndStatements (session-holds.ts), for the payment events that end a session. */
    unpaidEndStatements: (session: HeldBy, end: UnpaidEnd) =>
      unpaidEndStatements({ ...deps, sessions }, session, end),
    /** delayedPaymentStatements (session-holds.ts), for the event that says the money is on its way. */
    delayedPaymentStatements: (session: HeldBy) =>
      delayedPaymentStatements({ ...deps, sessions }, session, deps.clock.now()),
  }
}

export type CheckoutService = ReturnType<typeof createCheckoutService>
