/**
 * The one place services are built. Each is made once, from the app's dependencies and the services it
 * calls, and handed to the route modules and the job runner; route modules build nothing. Reading this
 * file top to bottom shows which domain calls which.
 */
import type { AppDeps } from './deps'
import { createMemoryRateCounter, createRateCounter } from './lib/rate-counters'
import { createAccountService } from './modules/account/service'
import { createStaffAccounts } from './modules/account/staff'
import { createPasswords } from './modules/auth/passwords'
import { createAuthService } from './modules/auth/service'
import { createCatalogService } from './modules/catalog/service'
import { createCheckoutService } from './modules/checkout/service'
import { createDashboardService } from './modules/dashboard/service'
import { createDiscountService } from './modules/discounts/service'
import { createFulfilmentService } from './modules/fulfilment/service'
import { createJobQueue } from './modules/jobs/service'
import { createNewsletterService } from './modules/newsletter/service'
import { createDailyTotals } from './modules/orders/daily-totals'
import { createFailedOrderEmails } from './modules/orders/failed-emails'
import { createOrderSearch } from './modules/orders/search'
import { createOrdersService } from './modules/orders/service'
import { createPrivacyService } from './modules/privacy/service'
import { createShippingService } from './modules/shipping/service'
import { createStockService } from './modules/stock/service'
import { createWebhookService } from './modules/webhooks/service'

export function createServices(deps: AppDeps) {
  const { db, clock } = deps
  const jobs = createJobQueue(db, clock, {
    leaseMs: deps.config.jobLeaseSeconds * 1000,
    firstRetryMs: deps.config.jobRetrySeconds * 1000,
  })
  // Cheap public calls count in memory per instance (docs/decisions/007).
  const rateCounter = createMemoryRateCounter(clock)
  // Sign-up and password-reset limits guard slow hashing and people's inboxes: every instance counts the
  // same requests, in the database (docs/product.md#rate-limits).
  const sharedRateCounter = createRateCounter(db, clock)
  const catalog = createCatalogService(db, clock)
  // Units per product and variant: held by checkouts, sold by payments, put back by cancels and refunds.
  const stock = createStockService({ db, clock, catalog })
  const newsletter = createNewsletterService(db, clock, deps.waitlists)
  const orders = createOrdersService({ ...deps, jobs })
  const discounts = createDiscountService({ db, clock, hasPaidOrder: orders.hasPaidOrder })
  const shipping = createShippingService({ ...deps, catalog, discounts })
  const checkout = createCheckoutService({ ...deps, catalog, discounts, shipping, stock, jobs })
  // A payment's order, session, discount use and units, and an order's cancel and refunds (their units
  // back on the shelf), composed into one transaction per step.
  const fulfilment = createFulfilmentService({ ...deps, checkout, orders, discounts, stock, jobs })
  const webhooks = createWebhookService({
    ...deps,
    fulfilment,
    eventLeaseMs: deps.config.eventLeaseSeconds * 1000,
  })
  const accounts = createAccountService({ db, clock, orders })
  const passwords = createPasswords(deps.config.passwordStrength)
  const auth = createAuthService({ ...deps, accounts, jobs, passwords })
  const dashboard = createDashboardService({
    ...deps,
    orders,
    catalog,
    stock,
    webhooks,
    accounts,
    orderSearch: createOrderSearch({ db }),
    dailyTotals: createDailyTotals({ db }),
    failedEmails: createFailedOrderEmails({ db, jobs }),
    fulfilment,
  })
  const staff = createStaffAccounts({
    accounts,
    sessions: auth.sessions,
    sendPasswordLink: auth.sendStaffPasswordLink,
    retireResetLinks: auth.retireResetLinks,
    passwords,
  })
  const privacy = createPrivacyService({
    db,
    clock,
    accounts,
    auth,
    orders,
    checkout,
    discounts,
    newsletter,
    jobs,
    shipping: deps.shipping,
    mailer: deps.mailer,
  })
  return {
    jobs,
    rateCounter,
    sharedRateCounter,
    catalog,
    stock,
    newsletter,
    orders,
    discounts,
    shipping,
    checkout,
    fulfilment,
    webhooks,
    accounts,
    auth,
    dashboard,
    staff,
    privacy,
  }
}

export type Services = ReturnType<typeof createServices>
