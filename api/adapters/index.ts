import type { Database } from '../../db/client'
import type { Config } from '../env'
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
