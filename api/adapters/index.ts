import type { Database } from '../../db/client'
import { type Config, ConfigError } from '../env'
import type { Clock } from '../lib/clock'
import { createDemoPayments } from './demo-payments'
import { createSmtpMailer } from './mailer'
import { createOutboxMailer } from './outbox'
import { createRateTableShipping } from './rate-table'
import { createShippoShipping } from './shippo'
import { createStripePayments } from './stripe'
import type { Mailer, PaymentProvider, ShippingProvider } from './types'

export interface Adapters {
  shipping: ShippingProvider
  payments: PaymentProvider
  mailer: Mailer
}

/** The real service where its keys are configured, the built-in stand-in otherwise (DESIGN §3). */
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
      ? createShippoShipping({ apiKey: config.shippoApiKey })
      : createRateTableShipping({ dataDir: config.dataDir }),
    payments: config.stripe
      ? createStripePayments({ ...config.stripe, publicUrl: config.publicUrl })
      : createDemoPayments(db, clock),
    mailer: config.smtpUrl
      ? createSmtpMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom })
      : createOutboxMailer({ dataDir: config.dataDir, from: config.mailFrom, clock }),
  }
}
