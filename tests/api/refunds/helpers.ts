/**
 * A shop for the refund and cancel tests: the demo provider's refund events reach the app's own webhook in
 * process (as Stripe posts them), or wait while `events.held` is set; a carrier that records the voids it
 * is asked for; a mailer that keeps its mail; a signed-in staff member.
 */
import { expect } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { createDemoPayments } from '../../../api/adapters/demo-payments'
import type { DemoPaymentProvider, LabelToVoid } from '../../../api/adapters/types'
import { orderRefunds } from '../../../db/schema/orders'
import { staffMember } from '../dashboard/helpers'
import type { Customer } from '../support/accounts'
import { memoryMailer, switchableCarrier } from '../support/orders'
import { createTestApp, ORIGIN, type TestApp } from '../support/test-app'

export interface RefundShop {
  shop: TestApp
  staff: Customer
  demo: DemoPaymentProvider
  carrier: ReturnType<typeof switchableCarrier>
  mailer: ReturnType<typeof memoryMailer>
  /** Labels the carrier was asked to void. */
  voids: LabelToVoid[]
  /** While `held`, the provider keeps its events; `deliver()` sends what waits, oldest first. */
  events: { held: boolean; deliver: () => Promise<number> }
  asStaff(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>
}

/** `env`: settings of the test shop beside TRUST_PROXY (a job lease, say). */
export async function createRefundShop(env: Record<string, string> = {}): Promise<RefundShop> {
  let app: TestApp['app'] | null = null
  const events = { held: false, deliver: async () => 0 }
  let demo: DemoPaymentProvider | null = null
  let carrier: ReturnType<typeof switchableCarrier> | null = null
  const mailer = memoryMailer()
  const voids: LabelToVoid[] = []
  const shop = await createTestApp({ TRUST_PROXY: 'true', ...env }, (base) => {
    demo = createDemoPayments(base.db, base.clock, {
      async deliver(rawBody, signature) {
        if (events.held || !app) return false
        const res = await app.handle(
          new Request(`${ORIGIN}/api/stripe/webhook`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'stripe-signature': signature },
            body: rawBody,
          }),
        )
        await res.arrayBuffer()
        return res.ok
      },
    })
    carrier = switchableCarrier(base.shipping)
    const voidLabel = carrier.provider.voidLabel
    carrier.provider.voidLabel = async (label) => {
      voids.push(label)
      return voidLabel(label)
    }
    return { payments: demo, shipping: carrier.provider, mailer }
  })
  app = shop.app
  if (!demo || !carrier) throw new Error('the test shop was built without its provider')
  const provider: DemoPaymentProvider = demo
  events.deliver = () => provider.deliverEvents()
  const staff = await staffMember(shop)
  return {
    shop,
    staff,
    demo: provider,
    carrier,
    mailer,
    voids,
    events,
    asStaff: (method, path, body, headers = {}) =>
      shop.call(method, path, body, { cookie: staff.cookie, ...headers }),
  }
}

/** The demo provider's own record of its refunds of a paid session: what the customer got back. */
export async function providerRefunds(shop: TestApp, sessionId: string) {
  return shop.deps.db.all<{ id: string; amount: number; status: string; idempotency_key: string }>(
    sql`select id, amount, status, idempotency_key from demo_payment_refunds where session_id = ${sessionId}`,
  )
}

/** The shop's refund rows of an order. */
export async function refundRows(shop: TestApp, orderId: number) {
  return shop.deps.db.select().from(orderRefunds).where(eq(orderRefunds.orderId, orderId))
}

export async function json<T>(res: Response, status: number): Promise<T> {
  const body = await res.text()
  expect({ status: res.status, body }).toMatchObject({ status })
  return JSON.parse(body) as T
}
