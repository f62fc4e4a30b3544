import { Elysia } from 'elysia'
import type { AppDeps } from './deps'
import { accountRoutes } from './modules/account'
import { authRoutes } from './modules/auth'
import { catalogRoutes } from './modules/catalog'
import { checkoutRoutes } from './modules/checkout'
import { dashboardRoutes } from './modules/dashboard'
import { discountRoutes } from './modules/discounts'
import { healthRoutes } from './modules/health'
import { newsletterRoutes } from './modules/newsletter'
import { paymentRoutes } from './modules/payments'
import { privacyRoutes } from './modules/privacy'
import { shippingRoutes } from './modules/shipping'
import { webhookRoutes } from './modules/webhooks'
import { apiDescription } from './plugins/api-description'
import { errorFunnel } from './plugins/errors'
import { rateLimitPlugin } from './plugins/rate-limit'
import { requestLog } from './plugins/request-log'
import { createRouteTable, requestShape } from './plugins/request-shape'
import { security } from './plugins/security'
import { shutdown } from './plugins/shutdown'
import { staticSite } from './plugins/static-site'
import type { Services } from './services'

/**
 * Builds the whole server from its dependencies; `api/server.ts` wires real ones, tests their own. Services
 * are built once (api/services.ts) and handed to the route modules.
 */
export function createApp(deps: AppDeps, services: Services) {
  const limits = rateLimitPlugin({
    counter: services.rateCounter,
    trustedProxyHops: deps.config.trustedProxyHops,
  })
  // Filled in below once every route is registered: the methods and body types each path takes.
  const routes = createRouteTable()
  // Built before the server knew its configuration: without Google sign-in, its buttons are left out.
  const site = deps.google ? deps.site : deps.site.withoutGoogle()
  const app = new Elysia()
    // First, so every answer has its request id, even one the security checks give early.
    .use(requestLog({ trustForwardedId: deps.config.trustedProxyHops > 0 }))
    .use(errorFunnel)
    .use(security({ publicUrl: deps.config.publicUrl, production: deps.config.nodeEnv === 'production' }))
    // A shop that is shutting down tells every new request to come back, with the security headers on.
    .use(shutdown)
    .use(requestShape(routes, site))
    // GET /api/openapi.json, written from every route registered on this app.
    .use(apiDescription())
    .use(healthRoutes(deps.db, { dataDir: deps.config.dataDir }))
    .use(authRoutes(services, limits, deps))
    .use(accountRoutes(services, deps.clock))
    .use(privacyRoutes(services, limits, deps.clock))
    .use(newsletterRoutes(services, limits))
    .use(catalogRoutes(services, site))
    .use(discountRoutes(services, limits))
    .use(shippingRoutes(services, limits))
    .use(checkoutRoutes(services, limits, deps.clock))
    .use(paymentRoutes(deps.payments, services, limits))
    .use(webhookRoutes(deps.payments, deps.clock, services))
    .use(dashboardRoutes(services, deps.clock))
    // Last: every GET no API route took is a page or an asset of the built site.
    .use(staticSite(site, routes))
  routes.load(app.routes)
  return app
}

export type App = ReturnType<typeof createApp>
