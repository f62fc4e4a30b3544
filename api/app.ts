import { Elysia } from 'elysia'
import type { AppDeps } from './deps'
import { authRoutes } from './modules/auth'
import { catalogRoutes } from './modules/catalog'
import { checkoutRoutes } from './modules/checkout'
import { discountRoutes } from './modules/discounts'
import { healthRoutes } from './modules/health'
import { newsletterRoutes } from './modules/newsletter'
import { paymentRoutes } from './modules/payments'
import { shippingRoutes } from './modules/shipping'
import { webhookRoutes } from './modules/webhooks'
import { errorFunnel } from './plugins/errors'
import { createRateLimiter } from './plugins/rate-limit'
import { security } from './plugins/security'
import { staticSite } from './plugins/static-site'

/** Builds the whole server from its dependencies; `api/main.ts` wires real ones, tests their own. */
export function createApp(deps: AppDeps) {
  const limit = createRateLimiter(deps.db, deps.clock)
  return (
    new Elysia()
      .use(errorFunnel)
      .use(security({ publicUrl: deps.config.publicUrl, production: deps.config.nodeEnv === 'production' }))
      .use(healthRoutes(deps))
      .use(authRoutes())
      .use(newsletterRoutes(deps, limit))
      .use(catalogRoutes(deps))
      .use(discountRoutes(deps, limit))
      .use(shippingRoutes(deps, limit))
      .use(checkoutRoutes(deps, limit))
      .use(paymentRoutes(deps, limit))
      .use(webhookRoutes(deps))
      // Last: every GET no API route took is a page or an asset of the built site.
      .use(staticSite(deps.site))
  )
}

export type App = ReturnType<typeof createApp>
