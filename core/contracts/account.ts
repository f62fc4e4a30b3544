import { t } from 'elysia'
import { NAME_MAX_LENGTH, PHONE_MAX_LENGTH, USER_ROLES } from '../rules/account'
import { ORDER_STATUSES } from '../rules/order-status'
import { orderAddressSchema, profileAddressSchema } from './address'
import { wholeNumber } from './whole-number'

/** What GET /api/auth/user answers for a signed-in customer; never a password hash or a Google id. */
export const publicUserSchema = t.Object({
  id: t.String(),
  email: t.String(),
  firstName: t.String(),
  lastName: t.String(),
  phone: t.String(),
  photoURL: t.Nullable(t.String()),
  address: t.Nullable(profileAddressSchema),
  notifications: t.Object({ email: t.Boolean(), sms: t.Boolean() }),
  role: t.UnionEnum(USER_ROLES),
  /** False for an account made with Google: it has no password to change. */
  hasPassword: t.Boolean(),
  /** Whether the owner of the e-mail proved it (a verification link, a reset link or Google). */
  emailVerified: t.Boolean(),
})

export type PublicUser = typeof publicUserSchema.static

/**
 * PUT /api/auth/update-profile: personal information ({firstName, lastName, phone}) or the address
 * ({address}, null to remove it). Anything else, e-mail and role included, is ignored.
 */
export const updateProfileBody = t.Object({
  firstName: t.Optional(
    t.String({
      maxLength: NAME_MAX_LENGTH,
      error: `First name must be at most ${NAME_MAX_LENGTH} characters.`,
    }),
  ),
  lastName: t.Optional(
    t.String({
      maxLength: NAME_MAX_LENGTH,
      error: `Last name must be at most ${NAME_MAX_LENGTH} characters.`,
    }),
  ),
  phone: t.Optional(
    t.String({ maxLength: PHONE_MAX_LENGTH, error: `Phone must be at most ${PHONE_MAX_LENGTH} characters.` }),
  ),
  address: t.Optional(t.Nullable(profileAddressSchema)),
})

export type UpdateProfileBody = typeof updateProfileBody.static

/** PUT /api/user/notifications: the profile's 'Email Notifications' and 'SMS Updates' switches. */
export const notificationsBody = t.Object({
  email: t.Optional(t.Boolean({ error: 'Email notifications must be on or off.' })),
  sms: t.Optional(t.Boolean({ error: 'SMS updates must be on or off.' })),
})

export type NotificationsBody = typeof notificationsBody.static

export const profileResponse = t.Object({ user: publicUserSchema, message: t.String() })

/**
 * A refund of the customer's order as they see it (docs/product.md#refunds): how much, when, for which
 * items, and whether the money is on its way or back on their card. Staff's reason stays with staff.
 * Refunds the payment provider failed are not shown: nothing came back, and staff settle them.
 */
export const customerRefundSchema = t.Object({
  amount: t.Number(),
  /** `pending` until the payment provider has made it, then `refunded`. */
  status: t.UnionEnum(['pending', 'refunded']),
  createdAt: t.String(),
  /** The units refunded; empty for a refund of an amount or a cancellation's refund. */
  items: t.Array(t.Object({ productName: t.String(), quantity: wholeNumber() })),
  /** True for the refund a cancellation made. */
  cancellation: t.Boolean(),
})

export type CustomerRefund = typeof customerRefundSchema.static

/** One order in the history list (docs/product.md#account-calls). Amounts in dollars (`totalAmount`), as the order list reads them. */
export const userOrderSchema = t.Object({
  _id: t.String(),
  /** Padded to 6 digits: what the customer reads and what the order page's URL carries. */
  number: t.String(),
  createdAt: t.String(),
  status: t.UnionEnum(ORDER_STATUSES),
  totalAmount: t.Number(),
  trackingNumber: t.Nullable(t.String()),
  items: t.Array(t.Object({ productName: t.String(), quantity: wholeNumber() })),
  /** Dollars refunded so far (pending or made). */
  refunded: t.Number(),
  /** When the order was cancelled, or null. */
  cancelledAt: t.Nullable(t.String()),
})

export type UserOrder = typeof userOrderSchema.static

/** One order with everything its page shows. */
export const userOrderDetailSchema = t.Object({
  _id: t.String(),
  number: t.String(),
  createdAt: t.String(),
  status: t.UnionEnum(ORDER_STATUSES),
  trackingNumber: t.Nullable(t.String()),
  carrier: t.String(),
  shippingService: t.String(),
  items: t.Array(
    t.Object({
      productName: t.String(),
      variant: t.Nullable(t.String()),
      quantity: wholeNumber(),
      unitAmount: t.Number(),
      /** Before this line's share of the discount. */
      lineTotal: t.Number(),
    }),
  ),
  subtotal: t.Number(),
  discount: t.Number(),
  discountCode: t.Nullable(t.String()),
  shipping: t.Number(),
  totalAmount: t.Number(),
  shippingAddress: orderAddressSchema,
  refunded: t.Number(),
  refunds: t.Array(customerRefundSchema),
  cancelledAt: t.Nullable(t.String()),
})

export type UserOrderDetail = typeof userOrderDetailSchema.static

export const orderNumberParams = t.Object({
  number: t.String({ pattern: '^[0-9]{1,9}$', error: 'Order numbers are digits, like 000042.' }),
})
