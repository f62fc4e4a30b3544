import { t } from 'elysia'
import { PASSWORD_MAX_LENGTH, PASSWORD_MAX_UNITS, USER_ROLES } from '../rules/account'
import { ORDER_STATUSES } from '../rules/order-status'
import { customerRefundSchema } from './account'
import { orderAddressSchema, profileAddressSchema } from './address'
import { wholeNumber } from './whole-number'

/** One order in the export: what was bought, paid and where it went. Amounts in dollars, like the order calls. */
const exportedOrderSchema = t.Object({
  number: t.String(),
  placedAt: t.String(),
  status: t.UnionEnum(ORDER_STATUSES),
  /** The e-mail and name given at checkout. */
  email: t.String(),
  customerName: t.String(),
  currency: t.Literal('USD'),
  items: t.Array(
    t.Object({
      productName: t.String(),
      variant: t.Nullable(t.String()),
      quantity: wholeNumber(),
      unitPrice: t.Number(),
      /** unitPrice × quantity, before this line's share of the discount. */
      lineTotal: t.Number(),
      discount: t.Number(),
    }),
  ),
  subtotal: t.Number(),
  discount: t.Number(),
  discountCode: t.Nullable(t.String()),
  shipping: t.Number(),
  total: t.Number(),
  carrier: t.String(),
  shippingService: t.String(),
  trackingNumber: t.Nullable(t.String()),
  shippingAddress: orderAddressSchema,
  billingAddress: orderAddressSchema,
  cancelledAt: t.Nullable(t.String()),
  refunds: t.Array(customerRefundSchema),
})

/**
 * The newsletter sign-up of the account's e-mail. It is the address's, not the account's, so it is shown
 * only when the account has shown it owns the address; otherwise `note` says why not.
 */
const newsletterExportSchema = t.Union([
  t.Object({
    shown: t.Literal(true),
    subscribed: t.Literal(true),
    source: t.String(),
    subscribedAt: t.String(),
  }),
  t.Object({ shown: t.Literal(true), subscribed: t.Literal(false) }),
  t.Object({ shown: t.Literal(false), note: t.String() }),
])

/** GET /api/user/export: everything the shop holds about the signed-in customer, as a downloaded file. */
export const accountExportSchema = t.Object({
  exportedAt: t.String(),
  profile: t.Object({
    email: t.String(),
    firstName: t.String(),
    lastName: t.String(),
    phone: t.String(),
    photoURL: t.Nullable(t.String()),
    role: t.UnionEnum(USER_ROLES),
    signsInWith: t.Object({ password: t.Boolean(), google: t.Boolean() }),
    createdAt: t.String(),
    updatedAt: t.String(),
  }),
  address: t.Nullable(profileAddressSchema),
  preferences: t.Object({ emailNotifications: t.Boolean(), smsUpdates: t.Boolean() }),
  orders: t.Array(exportedOrderSchema),
  newsletter: newsletterExportSchema,
})

export type AccountExport = typeof accountExportSchema.static
export type ExportedOrder = typeof exportedOrderSchema.static

/**
 * DELETE /api/user: the password for an account that has one; nothing for an account made with Google,
 * which proves itself by a recent Google sign-in instead.
 */
export const deleteAccountBody = t.Object({
  password: t.Optional(
    t.String({
      maxLength: PASSWORD_MAX_UNITS,
      error: `Passwords can be at most ${PASSWORD_MAX_LENGTH} characters.`,
    }),
  ),
})

export type DeleteAccountBody = typeof deleteAccountBody.static
