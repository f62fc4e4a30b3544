import type {
  NotificationsBody,
  PublicUser,
  UpdateProfileBody,
  UserOrder,
  UserOrderDetail,
} from '@core/contracts/account'
import {
  addressProblems,
  hasControlCharacter,
  isPhone,
  type ProfileAddress,
  type UserRole,
} from '@core/rules/account'
import { isUsState } from '@core/rules/address'
import { lineLabel } from '@core/rules/catalog'
import { formatOrderNumber, trackingNumberShown } from '@core/rules/order-status'
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding'
import { and, asc, eq, type SQL, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { users } from '../../../db/schema/users'
import type { VerifiedIdentity } from '../../adapters/types'
import type { Clock } from '../../lib/clock'
import { invalid } from '../../lib/domain-errors'
import {
  customerRefunded,
  customerRefunds,
  type Order,
  type OrdersService,
  type Refund,
} from '../orders/service'

/** An account as stored, password hash included: for the auth module, never for an answer. */
export type UserRecord = typeof users.$inferSelect

export interface NewAccount {
  email: string
  passwordHash: string | null
  googleSubject?: string | null
  firstName: string
  lastName: string
  photoUrl?: string | null
  /** Set when the address is proved already (Google's verified claim). */
  emailVerifiedAt?: Date | null
}

/** A first or last name, trimmed; a 422 naming the field when it is blank or holds control characters. */
export function cleanName(value: string, label: string): string {
  const trimmed = value.trim()
  if (trimmed === '') throw invalid(`Please enter your ${label}.`)
  if (hasControlCharacter(trimmed)) throw invalid(`Please check your ${label}.`)
  return trimmed
}

function cleanAddress(address: ProfileAddress): ProfileAddress {
  const country = address.country.trim().toUpperCase()
  const state = address.state.trim()
  const cleaned: ProfileAddress = {
    street: address.street.trim(),
    city: address.city.trim(),
    // US states are codes ('TX'); elsewhere the region is free text.
    state: country === 'US' && isUsState(state.toUpperCase()) ? state.toUpperCase() : state,
    zipCode: address.zipCode.trim(),
    country,
  }
  const problem = Object.values(addressProblems(cleaned))[0]
  if (problem) throw invalid(problem)
  if (Object.values(cleaned).some((value) => hasControlCharacter(value))) {
    throw invalid('Please check the address.')
  }
  return cleaned
}

/** Cents to dollars for the answers' amount fields (totalAmount); exact to the cent. */
function dollars(cents: number): number {
  return Math.round(cents) / 100
}

function orderSummary(order: Order, refunds: readonly Refund[]): UserOrder {
  return {
    _id: String(order.id),
    number: formatOrderNumber(order.id),
    createdAt: order.createdAt.toISOString(),
    status: order.status,
    totalAmount: dollars(order.totalCents),
    trackingNumber: trackingNumberShown(order),
    items: order.lines.map((line) => ({ productName: lineLabel(line), quantity: line.quantity })),
    refunded: customerRefunded(refunds),
    cancelledAt: order.cancelledAt?.toISOString() ?? null,
  }
}

function orderDetail(order: Order, refunds: readonly Refund[]): UserOrderDetail {
  const { shippingAddress: address } = order
  return {
    _id: String(order.id),
    number: formatOrderNumber(order.id),
    createdAt: order.createdAt.toISOString(),
    status: order.status,
    trackingNumber: trackingNumberShown(order),
    carrier: order.shippingCarrier,
    shippingService: order.shippingService,
    items: order.lines.map((line) => ({
      productName: line.name,
      variant: line.variant && line.variant !== line.name ? line.variant : null,
      quantity: line.quantity,
      unitAmount: dollars(line.unitCents),
      lineTotal: dollars(line.unitCents * line.quantity),
    })),
    subtotal: dollars(order.subtotalCents),
    discount: dollars(order.discountCents),
    discountCode: order.discountCode,
    shipping: dollars(order.shippingCents),
    totalAmount: dollars(order.totalCents),
    shippingAddress: {
      name: address.name,
      street1: address.street1,
      ...(address.street2 ? { street2: address.street2 } : {}),
      city: address.city,
      state: address.state,
      zip: address.zip,
      country: address.country,
    },
    refunded: customerRefunded(refunds),
    refunds: customerRefunds(refunds),
    cancelledAt: order.cancelledAt?.toISOString() ?? null,
  }
}

/**
 * Customer accounts: who they are (the users table), their profile, preferences and order history.
 * Passwords, sessions and sign-in belong to the auth module, which finds and creates accounts here.
 */
export function createAccountService(deps: {
  db: Database
  clock: Clock
  orders: Pick<OrdersService, 'forUser' | 'getForUser' | 'refunds' | 'refundsOf'>
}) {
  const { db, clock } = deps

  async function one(where: ReturnType<typeof eq>): Promise<UserRecord | null> {
    const [row] = await db.select().from(users).where(where).limit(1)
    return row ?? null
  }

  async function update(userId: string, changes: Partial<UserRecord>): Promise<UserRecord> {
    const [row] = await db
      .update(users)
      .set({ ...changes, updatedAt: clock.now() })
      .where(eq(users.id, userId))
      .returning()
    if (!row) throw new Error(`account ${userId} vanished during an update`)
    return row
  }

  const service = {
    findById: (id: string) => one(eq(users.id, id)),
    findByEmail: (email: string) => one(eq(users.email, email.trim().toLowerCase())),
    findByGoogleSubject: (subject: string) => one(eq(users.googleSubject, subject)),

    /** Creates an account; null when the e-mail already has one (the UNIQUE index decides, race-free). */
    async create(account: NewAccount): Promise<UserRecord | null> {
      const now = clock.now()
      const [row] = await db
        .insert(users)
        .values({
          // 120 random bits: ids are never guessable and never reveal how many customers there are.
          id: encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(15))),
          email: account.email.trim().toLowerCase(),
          passwordHash: account.passwordHash,
          googleSubject: account.googleSubject ?? null,
          firstName: account.firstName,
          lastName: account.lastName,
          photoUrl: account.photoUrl ?? null,
          emailVerifiedAt: account.emailVerifiedAt ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing({ target: users.email })
        .returning()
      return row ?? null
    },

    setPasswordHash: (userId: string, passwordHash: string) => update(userId, { passwordHash }),

    /**
     * For a transaction: the password of the account `userId` (SQL, read in that transaction) set, only if
     * `when` (SQL over the account's row) holds.
     */
    setPasswordStatement: (userId: SQL, passwordHash: string, when: SQL) =>
      db
        .update(users)
        .set({ passwordHash, updatedAt: clock.now() })
        .where(and(eq(users.id, userId), when)),

    /** No password until one is set with an e-mailed link. */
    clearPassword: (userId: string) => update(userId, { passwordHash: null }),

    /**
     * Records that the owner of `email` proved it, if the account still has that address; the first proof's
     * time is kept. False when the account is gone or its e-mail is another one now.
     */
    async markEmailVerified(userId: string, email: string): Promise<boolean> {
      const now = clock.now()
      const changed = await db
        .update(users)
        .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.getTime()})`, updatedAt: now })
        .where(and(eq(users.id, userId), eq(users.email, email)))
        .returning({ id: users.id })
      return changed.length > 0
    },

    /** Staff or customer: only the staff command changes this (api/modules/account/staff.ts). */
    setRole: (userId: string, role: UserRole) => update(userId, { role }),

    /** Every account with this role, by e-mail. */
    async withRole(role: UserRole): Promise<UserRecord[]> {
      return db.select().from(users).where(eq(users.role, role)).orderBy(asc(users.email))
    },

    /**
     * Remembers the Google identity of an account (whose e-mail Google has just vouched for, so it is proved
     * now), and its picture when the account has none yet. `takenOver`: the account passes to the owner of
     * the address from someone who may not be them (docs/decisions/016-verified-e-mail.md), so what that
     * someone set goes with them: the password, and the profile they wrote (the saved address checkout
     * pre-fills, a parcel's way to them; the phone; the names and picture, now Google's; the notices).
     */
    linkGoogle(
      user: UserRecord,
      identity: Pick<VerifiedIdentity, 'subject' | 'picture' | 'givenName' | 'familyName'>,
      options: { takenOver: boolean },
    ) {
      const link = { googleSubject: identity.subject, emailVerifiedAt: user.emailVerifiedAt ?? clock.now() }
      if (!options.takenOver)
        return update(user.id, { ...link, ...(user.photoUrl ? {} : { photoUrl: identity.picture }) })
      return update(user.id, {
        ...link,
        passwordHash: null,
        firstName: identity.givenName ?? '',
        lastName: identity.familyName ?? '',
        photoUrl: identity.picture,
        phone: '',
        address: null,
        notifyByEmail: true,
        notifyBySms: false,
      })
    },

    /**
     * Whether the account has shown it owns its e-mail address: Google vouched for it (only a verified one
     * signs in), or the account's own owner used a link mailed to it (a verification link, signed in, or a
     * reset link: docs/decisions/016-verified-e-mail.md). A password sign-up alone does not, so what is tied
     * to the address rather than the account (the newsletter list) is not shown to it.
     */
    emailProven: (user: UserRecord): boolean => user.googleSubject !== null || user.emailVerifiedAt !== null,

    /** Removes the account's row; unexecuted, the last statement of an account deletion's batch. */
    deleteQuery: (userId: string) => db.delete(users).where(eq(users.id, userId)),

    /** The account as the site sees it (GET /api/auth/user). */
    toPublic(user: UserRecord): PublicUser {
      return {
        id: user.id,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        phone: user.phone,
        photoURL: user.photoUrl,
        address: user.address,
        notifications: { email: user.notifyByEmail, sms: user.notifyBySms },
        role: user.role,
        hasPassword: user.passwordHash !== null,
        emailVerified: user.emailVerifiedAt !== null,
      }
    },

    /** Personal information and/or the address; the e-mail and the role never change here. */
    async updateProfile(userId: string, body: UpdateProfileBody): Promise<PublicUser> {
      const changes: Partial<UserRecord> = {}
      if (body.firstName !== undefined) changes.firstName = cleanName(body.firstName, 'first name')
      if (body.lastName !== undefined) changes.lastName = cleanName(body.lastName, 'last name')
      if (body.phone !== undefined) {
        const phone = body.phone.trim()
        if (!isPhone(phone)) throw invalid('Please enter a phone number with digits, like (512) 555-0100.')
        changes.phone = phone
      }
      if (body.address !== undefined)
        changes.address = body.address === null ? null : cleanAddress(body.address)
      if (Object.keys(changes).length === 0) throw invalid('There is nothing to save.')
      return service.toPublic(await update(userId, changes))
    },

    async updateNotifications(userId: string, body: NotificationsBody): Promise<PublicUser> {
      const changes: Partial<UserRecord> = {}
      if (body.email !== undefined) changes.notifyByEmail = body.email
      if (body.sms !== undefined) changes.notifyBySms = body.sms
      if (Object.keys(changes).length === 0) throw invalid('There is nothing to save.')
      return service.toPublic(await update(userId, changes))
    },

    /** The account's own orders, newest first. */
    async orderHistory(userId: string): Promise<UserOrder[]> {
      const orders = await deps.orders.forUser(userId)
      const refunds = await deps.orders.refundsOf(orders.map((order) => order.id))
      return orders.map((order) => orderSummary(order, refunds.get(order.id) ?? []))
    },

    /** One of the account's orders by its number, or null (also for another customer's order). */
    async order(userId: string, number: number): Promise<UserOrderDetail | null> {
      if (!Number.isSafeInteger(number) || number < 1) return null
      const order = await deps.orders.getForUser(userId, number)
      return order ? orderDetail(order, await deps.orders.refunds(order.id)) : null
    },
  }
  return service
}

export type AccountService = ReturnType<typeof createAccountService>
