import { resolve } from 'node:path'
import type { Database } from '../db/client'
import { adaptersFromConfig } from './adapters'
import type { IdentityProvider, Mailer, PaymentProvider, ShippingProvider } from './adapters/types'
import type { Config } from './env'
import { type Clock, systemClock } from './lib/clock'
import { loadStaticSite, type StaticSite } from './plugins/static-site'

/** Everything the app needs from the outside world; tests pass their own. */
export interface AppDeps {
  config: Config
  db: Database
  clock: Clock
  site: StaticSite
  /** Rates and labels: Shippo, or the built-in rate table and demo carrier. */
  shipping: ShippingProvider
  /** Card payments: Stripe, or the built-in demo provider (never in production). */
  payments: PaymentProvider
  /** E-mail: SMTP, or the outbox folder. */
  mailer: Mailer
  /** Google sign-in (OpenID Connect), or null when it is not configured. */
  google: IdentityProvider | null
  /** The teasers with a waitlist form (content/teasers), as read at boot (api/content-at-boot.ts). */
  waitlists: readonly string[]
}

/**
 * The one way the app's dependencies are put together from the configuration: the server, the staff
 * command and the tests all call this, and differ only in what they pass (a test's clock and fixture
 * site). Each outside service is the real one where its keys are set, its built-in stand-in otherwise.
 */
export function depsFromConfig(
  config: Config,
  db: Database,
  options: { clock?: Clock; site?: StaticSite; waitlists: readonly string[] },
): AppDeps {
  const clock = options.clock ?? systemClock
  return {
    config,
    db,
    clock,
    site: options.site ?? loadStaticSite(resolve(config.distDir)),
    waitlists: options.waitlists,
    ...adaptersFromConfig(config, db, clock),
  }
}
