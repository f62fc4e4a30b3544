/** Paid orders, a carrier that fails on demand and a mailer that keeps its mail, for the order-handling tests. */
import { expect } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { LabelRequest, Mailer, MailMessage, ShippingProvider } from '../../../api/adapters/types'
import { ShippingProviderError } from '../../../api/adapters/types'
import { orders } from '../../../db/schema/orders'
import { createSession, getRates, HOME, type Items, rateFor } from '../checkout/helpers'
import type { TestApp } from './test-app'

/** The demo provider's test card that always pays. */
export const PAYING_CARD = {
  cardNumber: '4242 4242 4242 4242',
  expiry: '12/30',
  cvc: '123',
  name: 'Dana Cole',
}

/** A carrier that refuses labels with `reason` while `failing` is set, and keeps the labels it sold. */
export function switchableCarrier(
  real: ShippingProvider,
  options: { failing?: boolean; reason?: string } = {},
) {
  const reason = options.reason ?? 'The carrier refused the address'
  const state = { failing: options.failing ?? false, bought: [] as LabelRequest[] }
  const provider: ShippingProvider = {
    name: real.name,
    quoteRates: (parcel, address) => real.quoteRates(parcel, address),
    findLabel: (reference) => real.findLabel(reference),
    voidLabel: (label) => real.voidLabel(label),
    forgetAddress: (reference) => real.forgetAddress(reference),
    async buyLabel(request) {
      if (state.failing) throw new ShippingProviderError(reason)
      state.bought.push(request)
      return real.buyLabel(request)
    },
  }
  return { provider, state }
}

/** A mailer that keeps what it was asked to send. */
export function memoryMailer(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = []
  return {
    name: 'outbox',
    sent,
    async send(message) {
      sent.push(message)
    },
    // What was sent stays for the tests to read, as it would in the recipient's inbox.
    async forgetCustomer() {},
  }
}

export interface PaidOrderOptions {
  items?: Items
  name?: string
  email?: string
  service?: string
  discountCode?: string
  /** The Cookie header of a signed-in shopper: the order joins their account. */
  cookie?: string
}

/** A paid order through the demo provider's own pay endpoint: its id and checkout session. */
export async function payForOrder(
  shop: TestApp,
  options: PaidOrderOptions = {},
): Promise<{ id: number; sessionId: string }> {
  const items = options.items ?? [{ id: 1, quantity: 1 }]
  const address = { ...HOME, name: options.name ?? HOME.name }
  const rates = await getRates(shop, items, address)
  const { sessionId } = await createSession(
    shop,
    items,
    rateFor(rates, options.service ?? 'USPS Priority Mail'),
    {
      customer_email: options.email ?? 'dana@example.com',
      shipping_address: address,
      billing_address: address,
      discount_code: options.discountCode ?? null,
    },
    options.cookie ? { cookie: options.cookie } : {},
  )
  const res = await shop.call('POST', `/api/demo-payments/${sessionId}/pay`, PAYING_CARD)
  expect(res.status).toBe(200)
  const order = await orderBySession(shop, sessionId)
  if (!order) throw new Error('no order')
  return { id: order.id, sessionId }
}

/** A paid order's id (see payForOrder). */
export async function paidOrder(shop: TestApp, options: PaidOrderOptions = {}): Promise<number> {
  return (await payForOrder(shop, options)).id
}

export async function orderRow(shop: TestApp, id: number) {
  const [row] = await shop.deps.db.select().from(orders).where(eq(orders.id, id))
  return row
}

async function orderBySession(shop: TestApp, sessionId: string) {
  const [row] = await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId))
  return row
}
