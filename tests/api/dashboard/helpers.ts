/** Staff members, paid orders and a carrier that fails on demand, for the dashboard tests. */
import { expect } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { LabelRequest, Mailer, MailMessage, ShippingProvider } from '../../../api/adapters/types'
import { ShippingProviderError } from '../../../api/adapters/types'
import { orders } from '../../../db/schema/orders'
import { createSession, getRates, HOME, type Items, rateFor } from '../checkout/helpers'
import {
  type Customer,
  cookieHeader,
  PASSWORD,
  signIn,
  uniqueAddress,
  uniqueEmail,
} from '../support/accounts'
import type { TestApp } from '../support/test-app'

export const STAFF_PASSWORD = 'long-enough-staff-password'

/** A staff member made as `npm run staff -- add` makes one, then signed in through the sign-in call. */
export async function staffMember(shop: TestApp, email = uniqueEmail('staff')): Promise<Customer> {
  const { user } = await shop.services.staff.add(email, async () => STAFF_PASSWORD)
  const res = await signIn(shop, email, STAFF_PASSWORD, uniqueAddress())
  expect(res.status).toBe(200)
  return { email: user.email, password: STAFF_PASSWORD, cookie: cookieHeader(res), id: user.id }
}

export { PASSWORD }

/** A carrier that refuses labels while `failing` is set, and counts the labels it sold. */
export function switchableCarrier(real: ShippingProvider) {
  const state = { failing: false, bought: [] as LabelRequest[] }
  const provider: ShippingProvider = {
    name: real.name,
    quoteRates: (parcel, address) => real.quoteRates(parcel, address),
    findLabel: (reference) => real.findLabel(reference),
    async buyLabel(request) {
      if (state.failing) throw new ShippingProviderError('The carrier refused the address')
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
  }
}

/** A paid order through the demo provider's own pay endpoint; its number. */
export async function paidOrder(
  shop: TestApp,
  options: { items?: Items; name?: string; email?: string; service?: string } = {},
): Promise<number> {
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
    },
  )
  const res = await shop.call('POST', `/api/demo-payments/${sessionId}/pay`, {
    cardNumber: '4242 4242 4242 4242',
    expiry: '12/30',
    cvc: '123',
    name: 'Dana Cole',
  })
  expect(res.status).toBe(200)
  const [order] = await shop.deps.db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId))
  if (!order) throw new Error('no order')
  return order.id
}

/**
 * Two paid orders for the staff calls to act on: one whose label was bought, one whose label purchase
 * failed for good (the carrier refused every attempt). `carrier` is the test app's switchable carrier.
 */
export async function labelledAndFailedOrders(
  shop: TestApp,
  carrier: ReturnType<typeof switchableCarrier>,
): Promise<{ labelled: number; failed: number }> {
  const labelled = await paidOrder(shop)
  await shop.runDueJobs()
  carrier.state.failing = true
  const failed = await paidOrder(shop)
  // The label job's last attempt marks the order failed; run it to the end.
  for (let attempt = 0; attempt < 8; attempt++) {
    await shop.runDueJobs()
    shop.clock.advance(2 * 60 * 60 * 1000)
  }
  carrier.state.failing = false
  return { labelled, failed }
}

export async function orderRow(shop: TestApp, id: number) {
  const [row] = await shop.deps.db.select().from(orders).where(eq(orders.id, id))
  return row
}
