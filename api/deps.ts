import type { Database } from '../db/client'
import type { IdentityProvider, Mailer, PaymentProvider, ShippingProvider } from './adapters/types'
import type { Config } from './env'
import type { Clock } from './lib/clock'
import type { StaticSite } from './plugins/static-site'

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
  /** The teasers with a waitlist form (content/teasers): read from the content files when not given. */
  waitlists?: readonly string[]
}
