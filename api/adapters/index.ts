import type { Database } from '../../db/client'
import { type Config, ConfigError } from '../env'
import type { Clock } from '../lib/clock'
import { createDemoPayments, postToWebhook } from './demo-payments'
import { createGoogleSignIn } from './google'
import { createSmtpMailer } from './mailer'
import { createOutboxMailer } from './outbox'
import { createRateTableShipping } from './rate-table'
import { createShippoShippingOnDemand } from './shippo-on-demand'
import { createStripePayments } from './stripe'
import type { IdentityProvider, Mailer, PaymentProvider, ShippingProvider } from './types'

export interface Adapters {
  shipping: ShippingProvider
  payments: PaymentProvider
  mailer: Mailer
  /** Google sign-in, or null when it is not configured (the sign-in page then says so). */
  google: IdentityProvider | null
}

/** The real service where its keys are configured, the built-in stand-in otherwise (docs/architecture.md#outside-services). */
export function adaptersFromConfig(config: Config, db: Database, clock: Clock): Adapters {
  // readConfig allows demo payments only where they cannot take a real order; a config made any other
  // way gets the same answer instead of the demo provider by default.
  if (!config.stripe && !config.demoPayments) {
    throw new ConfigError(
      'No payment provider: set the Stripe keys, or allow demo payments (see .env.example)',
    )
  }
  return {
    shipping: config.shippoApiKey
      ? createShippoShippingOnDemand({ apiKey: config.shippoApiKey })
      : createRateTableShipping({ dataDir: config.dataDir, clock }),
    payments: config.stripe
      ? createStripePayments({ ...config.stripe, publicUrl: config.publicUrl })
      : // Refund events go where Stripe would send them: the shop's webhook at its public address.
        createDemoPayments(db, clock, { deliver: postToWebhook(`${config.publicUrl}/api/stripe/webhook`) }),
    mailer: config.smtpUrl
      ? createSmtpMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom })
      : createOutboxMailer({ dataDir: config.dataDir, from: config.mailFrom, clock }),
    google: config.google ? createGoogleSignIn(config.google) : null,
  }
}
