/** Staff members for the dashboard tests (paid orders come from support/orders). */
import { expect } from 'bun:test'
import {
  type Customer,
  cookieHeader,
  PASSWORD,
  signIn,
  uniqueAddress,
  uniqueEmail,
} from '../support/accounts'
import { paidOrder, type switchableCarrier } from '../support/orders'
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
