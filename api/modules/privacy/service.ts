/**
 * A customer's own data, on request and without an e-mail to staff: "Download my data" (everything the shop
 * holds about the account, as JSON) and "Delete account" (docs/decisions/018-account-data.md). This module
 * owns no table: each module that keeps something of the account gives the statements that forget it, and
 * the deletion runs them all in one batch (one transaction), so an account is deleted whole or not at all.
 */

import type { AccountExport, ExportedOrder } from '@core/contracts/privacy'
import { formatOrderNumber, trackingNumberShown } from '@core/rules/order-status'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Database } from '../../../db/client'
import type { Mailer, ShippingAddress, ShippingProvider } from '../../adapters/types'
import type { Clock } from '../../lib/clock'
import { conflict } from '../../lib/domain-errors'
import { errorMessage, log } from '../../lib/log'
import { forgetRateCountsQuery } from '../../lib/rate-counters'
import type { AccountService, UserRecord } from '../account/service'
import type { AuthService } from '../auth/service'
import type { Session } from '../auth/sessions'
import type { CheckoutService } from '../checkout/service'
import type { DiscountService } from '../discounts/service'
import type { JobQueue } from '../jobs/service'
import type { NewsletterService } from '../newsletter/service'
import { customerRefunds, isSettled, type Order, type OrdersService, type Refund } from '../orders/service'

export const NEWSLETTER_NOT_SHOWN =
  'Whether this e-mail address is on our newsletter list is shown only to an account that has proved it ' +
  'owns the address, by the confirmation link we e-mailed it or by signing in with Google. Deleting your ' +
  'account takes the address off the list, and every newsletter e-mail has an unsubscribe link.'

/** Cents to dollars, exact to the cent, as the order calls answer. */
function dollars(cents: number): number {
  return Math.round(cents) / 100
}

function orderAddress(address: ShippingAddress): ExportedOrder['shippingAddress'] {
  return {
    name: address.name,
    street1: address.street1,
    ...(address.street2 ? { street2: address.street2 } : {}),
    city: address.city,
    state: address.state,
    zip: address.zip,
    country: address.country,
  }
}

function exportedOrder(order: Order, refunds: readonly Refund[]): ExportedOrder {
  return {
    number: formatOrderNumber(order.id),
    placedAt: order.createdAt.toISOString(),
    status: order.status,
    email: order.email,
    customerName: order.customerName,
    currency: 'USD',
    items: order.lines.map((line) => ({
      productName: line.name,
      variant: line.variant && line.variant !== line.name ? line.variant : null,
      quantity: line.quantity,
      unitPrice: dollars(line.unitCents),
      lineTotal: dollars(line.unitCents * line.quantity),
      discount: dollars(line.discountCents),
    })),
    subtotal: dollars(order.subtotalCents),
    discount: dollars(order.discountCents),
    discountCode: order.discountCode,
    shipping: dollars(order.shippingCents),
    total: dollars(order.totalCents),
    carrier: order.shippingCarrier,
    shippingService: order.shippingService,
    trackingNumber: trackingNumberShown(order),
    shippingAddress: orderAddress(order.shippingAddress),
    billingAddress: orderAddress(order.billingAddress),
    cancelledAt: order.cancelledAt?.toISOString() ?? null,
    refunds: customerRefunds(refunds),
  }
}

/** The account's orders for its data export, each with its refunds. */
async function ordersForExport(
  orders: Pick<OrdersService, 'allForUser' | 'refundsOf'>,
  userId: string,
): Promise<ExportedOrder[]> {
  const all = await orders.allForUser(userId)
  const refunds = await orders.refundsOf(all.map((order) => order.id))
  return all.map((order) => exportedOrder(order, refunds.get(order.id) ?? []))
}

/** The 409 while an order still needs the address (it is sent to it, and its label shows it). */
function notShippedYet(orderId: number) {
  return conflict(
    `Order #${formatOrderNumber(orderId)} has not shipped yet, and we need your address to send it. ` +
      'You can delete your account once it has shipped.',
  )
}

export function createPrivacyService(deps: {
  db: Database
  clock: Clock
  accounts: Pick<AccountService, 'emailProven' | 'deleteQuery'>
  auth: Pick<AuthService, 'confirmIdentity' | 'forgetAccountQueries'>
  orders: Pick<OrdersService, 'allForUser' | 'unshippedFor' | 'forgetCustomerQueries' | 'refundsOf'>
  checkout: Pick<CheckoutService, 'forgetCustomerQueries'>
  discounts: Pick<DiscountService, 'forgetCustomerQueries'>
  newsletter: Pick<NewsletterService, 'find' | 'removeQuery'>
  jobs: Pick<JobQueue, 'forgetEmailQuery'>
  shipping: Pick<ShippingProvider, 'forgetAddress'>
  mailer: Pick<Mailer, 'forgetCustomer'>
}) {
  const { db, clock } = deps

  async function newsletterPart(user: UserRecord): Promise<AccountExport['newsletter']> {
    if (!deps.accounts.emailProven(user)) return { shown: false, note: NEWSLETTER_NOT_SHOWN }
    const signUp = await deps.newsletter.find(user.email)
    if (!signUp) return { shown: true, subscribed: false }
    return {
      shown: true,
      subscribed: true,
      source: signUp.source,
      subscribedAt: signUp.createdAt.toISOString(),
    }
  }

  /**
   * What the shop keeps outside its database of a deleted account, about the orders the deletion minimised
   * and the account's own mail: the demo carrier's label files and the outbox's messages (the adapters say
   * what they keep). Once the account is gone a failure here cannot undo it, so it is logged for staff
   * (with no e-mail in the line) rather than answered.
   */
  async function forgetOutside(minimised: readonly Order[], email: string): Promise<void> {
    // '{number}-{uid}': an order's reference at the carrier (unless it kept another) and in its mail.
    const reference = (order: Order) => `${formatOrderNumber(order.id)}-${order.uid}`
    try {
      for (const order of minimised)
        await deps.shipping.forgetAddress(order.labelReference ?? reference(order))
      await deps.mailer.forgetCustomer({ email, orderReferences: minimised.map(reference) })
    } catch (error) {
      log.error('a deleted account is still named in a label file or a kept e-mail', {
        error: errorMessage(error),
      })
    }
  }

  return {
    /** Everything the shop holds about the account, as the customer may read it (never a hash or an id). */
    async exportFor(user: UserRecord): Promise<AccountExport> {
      return {
        exportedAt: clock.now().toISOString(),
        profile: {
          email: user.email,
          firstName: user.firstName,
          lastName: user.lastName,
          phone: user.phone,
          photoURL: user.photoUrl,
          role: user.role,
          signsInWith: { password: user.passwordHash !== null, google: user.googleSubject !== null },
          createdAt: user.createdAt.toISOString(),
          updatedAt: user.updatedAt.toISOString(),
        },
        address: user.address,
        preferences: { emailNotifications: user.notifyByEmail, smsUpdates: user.notifyBySms },
        orders: await ordersForExport(deps.orders, user.id),
        newsletter: await newsletterPart(user),
      }
    },

    /**
     * Deletes the account once its owner has proved who they are (`auth.confirmIdentity`): every session
     * ended, the account's row, sessions, reset links, counted sign-in failures and database rate counters
     * gone, the e-mail's newsletter sign-up and jobs naming it gone, and its orders, checkout sessions and
     * discount uses kept for the accounts with the customer minimised. Refused (409) while an order of the
     * account has not shipped, since that order still needs the address.
     */
    async deleteAccount(
      user: UserRecord,
      session: Session,
      password: string | undefined,
      clientAddress: string,
    ): Promise<void> {
      await deps.auth.confirmIdentity(user, session, password, clientAddress)
      const unshipped = await deps.orders.unshippedFor(user.id)
      if (unshipped !== null) throw notShippedYet(unshipped)
      const statements: BatchItem<'sqlite'>[] = [
        ...deps.orders.forgetCustomerQueries(user.id),
        ...deps.checkout.forgetCustomerQueries(user.id),
        ...deps.discounts.forgetCustomerQueries(user.id),
        deps.newsletter.removeQuery(user.email),
        deps.jobs.forgetEmailQuery(user.email),
        // Only the account's own counters: those counted by its e-mail protect the inbox (sign-ups, reset
        // and verification links asked for it) and stay until swept, or a sign-up and deletion in a loop
        // would mail one inbox without limit (docs/decisions/018-account-data.md).
        forgetRateCountsQuery(db, [user.id]),
        ...deps.auth.forgetAccountQueries(user),
        // Last, once nothing points at the row any more.
        deps.accounts.deleteQuery(user.id),
      ]
      // The orders the batch minimises: their labels and mail name the customer too.
      const minimised = (await deps.orders.allForUser(user.id)).filter(isSettled)
      const [first, ...rest] = statements
      if (first) await db.batch([first, ...rest])
      log.info('account deleted')
      await forgetOutside(minimised, user.email)
    },
  }
}

export type PrivacyService = ReturnType<typeof createPrivacyService>
