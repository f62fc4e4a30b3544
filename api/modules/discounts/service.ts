/**
 * Discount codes: their terms and limits when a session opens (limits.ts), and their uses once it is paid
 * or ends (redemptions.ts).
 */
import { createDiscountLimits, type DiscountLimitsDeps } from './limits'

export type { DiscountHold } from './limits'

import { createRedemptions } from './redemptions'

export {
  ALREADY_USED_MESSAGE,
  type DiscountContext,
  FIRST_ORDER_MESSAGE,
  type PayingCustomer,
  type Redemption,
  type Reservation,
  USED_UP_MESSAGE,
} from './model'

export type DiscountServiceDeps = DiscountLimitsDeps

export function createDiscountService(deps: DiscountServiceDeps) {
  return { ...createDiscountLimits(deps), ...createRedemptions(deps) }
}

export type DiscountService = ReturnType<typeof createDiscountService>
