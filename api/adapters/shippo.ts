/**
 * Shippo: live carrier rates (shipments.create) and label purchase (transactions.create) through the
 * official SDK. `serverURL` points the SDK elsewhere (tests use a local fake speaking Shippo's JSON).
 */
import { Shippo } from 'shippo'
import type { Rate } from 'shippo/models/components'
import { log } from '../lib/log'
import { dollarsToCents } from '../rules/money'
import {
  type CarrierRate,
  type LabelRequest,
  PaidServiceUnavailableError,
  type Parcel,
  type PurchasedLabel,
  type ShippingAddress,
  type ShippingProvider,
  ShippingProviderError,
} from './types'

/** Where parcels leave from; printed as the label's return address. */
export const DEFAULT_SHIP_FROM: ShippingAddress = {
  name: 'Grit & Whisker Workshop',
  street1: '1250 W 5th Ave',
  city: 'Columbus',
  state: 'OH',
  zip: '43212',
  country: 'US',
}

/** The standard domestic service; the one free shipping applies to. */
const STANDARD_TOKEN = 'usps_ground_advantage'

/** A label lookup reads at most this many of the newest labels (pages × page size; Shippo's page cap is 100). */
const LOOKUP_PAGES = 10
const LOOKUP_PAGE_SIZE = 100

/** What a label carries in Shippo's records to say which order it is for; findLabel matches on it. */
function labelMetadata(reference: string): string {
  return `Order ${reference}`
}

/** Fallback when a carrier gives no estimate: the shop's own promise (spec §9: most orders in 2–5 days). */
const UNKNOWN_ESTIMATE = { minDays: 2, maxDays: 5 }

export interface ShippoOptions {
  apiKey: string
  /** Overrides https://api.goshippo.com (tests). */
  serverURL?: string
  shipFrom?: ShippingAddress
  timeoutMs?: number
}

function toShippoAddress(address: ShippingAddress) {
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

function toShippoParcel(parcel: Parcel) {
  return {
    length: String(parcel.lengthIn),
    width: String(parcel.widthIn),
    height: String(parcel.heightIn),
    distanceUnit: 'in' as const,
    weight: parcel.weightOz.toFixed(1),
    massUnit: 'oz' as const,
  }
}

function toCarrierRate(rate: Rate): CarrierRate | null {
  // Prices are charged in US dollars; a rate in any other currency cannot be offered as is.
  if (rate.currency !== 'USD') return null
  const priceCents = dollarsToCents(rate.amount)
  if (priceCents === null) return null
  const token = rate.servicelevel.token ?? rate.objectId
  const days = rate.estimatedDays
  return {
    providerRateId: rate.objectId,
    carrier: rate.provider,
    serviceName: rate.servicelevel.name ? `${rate.provider} ${rate.servicelevel.name}` : rate.provider,
    serviceToken: token,
    priceCents,
    estimate:
      typeof days === 'number' && days > 0 ? { minDays: days, maxDays: days } : { ...UNKNOWN_ESTIMATE },
    standard: token === STANDARD_TOKEN,
  }
}

function errorSummary(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error)
}

export function createShippoShipping(options: ShippoOptions): ShippingProvider {
  const shippo = new Shippo({
    apiKeyHeader: `ShippoToken ${options.apiKey}`,
    ...(options.serverURL ? { serverURL: options.serverURL } : {}),
    timeoutMs: options.timeoutMs ?? 20_000,
  })
  const shipFrom = options.shipFrom ?? DEFAULT_SHIP_FROM

  async function rawRates(parcel: Parcel, address: ShippingAddress): Promise<Rate[]> {
    try {
      const shipment = await shippo.shipments.create({
        addressFrom: toShippoAddress(shipFrom),
        addressTo: toShippoAddress(address),
        parcels: [toShippoParcel(parcel)],
        async: false,
      })
      return shipment.rates
    } catch (error) {
      throw new ShippingProviderError(`Shippo could not quote rates: ${errorSummary(error)}`)
    }
  }

  return {
    name: 'shippo',
    async quoteRates(parcel, address) {
      const rates = await rawRates(parcel, address)
      return rates
        .map(toCarrierRate)
        .filter((rate): rate is CarrierRate => rate !== null)
        .sort((a, b) => a.priceCents - b.priceCents)
    },

    /**
     * Rates expire, and a label may be bought days after checkout (a retry), so the purchase quotes the
     * parcel again and buys the service the customer chose. If it is gone nothing is bought: a cheaper
     * service would not be what was sold, a dearer one not what was charged.
     */
    async buyLabel(request: LabelRequest): Promise<PurchasedLabel> {
      const rates = await rawRates(request.parcel, request.address)
      const chosen = rates.find(
        (rate) => rate.currency === 'USD' && rate.servicelevel.token === request.serviceToken,
      )
      if (!chosen) {
        throw new PaidServiceUnavailableError(
          `Shippo no longer offers ${request.serviceToken} for this parcel`,
        )
      }
      let transaction: Awaited<ReturnType<typeof shippo.transactions.create>>
      try {
        transaction = await shippo.transactions.create({
          rate: chosen.objectId,
          labelFileType: 'PDF_4x6',
          metadata: labelMetadata(request.reference),
          async: false,
        })
      } catch (error) {
        throw new ShippingProviderError(`Shippo could not buy the label: ${errorSummary(error)}`)
      }
      if (transaction.status !== 'SUCCESS' || !transaction.trackingNumber || !transaction.labelUrl) {
        const reasons = (transaction.messages ?? []).map((message) => message.text).filter(Boolean)
        throw new ShippingProviderError(
          `Shippo label not created (${transaction.status ?? 'no status'})${reasons.length ? `: ${reasons.join('; ')}` : ''}`,
        )
      }
      return {
        carrier: chosen.provider,
        trackingNumber: transaction.trackingNumber,
        labelUrl: transaction.labelUrl,
        trackingUrl: transaction.trackingUrlProvider || null,
      }
    },

    /**
     * Shippo cannot search labels by metadata, so the newest successful ones are read page by page
     * (newest first) for the one bought under this reference. A retry follows its purchase by minutes or
     * days, so a bounded number of pages is enough and keeps a lookup cheap in a busy account.
     */
    async findLabel(reference: string): Promise<PurchasedLabel | null> {
      const metadata = labelMetadata(reference)
      for (let page = 1; page <= LOOKUP_PAGES; page++) {
        let list: Awaited<ReturnType<typeof shippo.transactions.list>>
        try {
          list = await shippo.transactions.list({ objectStatus: 'SUCCESS', page, results: LOOKUP_PAGE_SIZE })
        } catch (error) {
          throw new ShippingProviderError(`Shippo could not list labels: ${errorSummary(error)}`)
        }
        const found = (list.results ?? []).find(
          (transaction) => transaction.metadata === metadata && transaction.status === 'SUCCESS',
        )
        if (found?.trackingNumber && found.labelUrl) {
          const carrier = typeof found.rate === 'object' ? found.rate.provider : undefined
          return {
            carrier: carrier ?? 'Shippo',
            trackingNumber: found.trackingNumber,
            labelUrl: found.labelUrl,
            trackingUrl: found.trackingUrlProvider || null,
          }
        }
        if (!list.next) return null
      }
      log.warn('no earlier Shippo label found; buying one', {
        reference,
        searched: LOOKUP_PAGES * LOOKUP_PAGE_SIZE,
      })
      return null
    },
  }
}
