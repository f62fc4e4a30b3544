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
