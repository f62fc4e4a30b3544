/**
 * Shippo: live carrier rates (shipments.create), label purchase (transactions.create) and label voids
 * (refunds.create) through the official SDK. `serverURL` points the SDK elsewhere (tests use a local fake
 * speaking Shippo's JSON).
 */

import { dollarsToCents } from '@core/rules/money'
import { Shippo } from 'shippo'
import type { Rate, Refund, Transaction } from 'shippo/models/components'
import { ShippoError } from 'shippo/models/errors'
import { log } from '../lib/log'
import {
  type CarrierRate,
  type LabelRequest,
  type LabelToVoid,
  type LabelVoid,
  type LabelVoidStatus,
  PaidServiceUnavailableError,
  type Parcel,
  type PurchasedLabel,
  type ShippingAddress,
  type ShippingProvider,
  ShippingProviderError,
  UnknownLabelError,
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

/** Fallback when a carrier gives no estimate: the shop's own promise (docs/product.md#shipping-rates: most orders in 2–5 days). */
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

/** A refund's status as the shop names it; one Shippo has not set yet is still queued. */
function voidStatus(refund: Refund): LabelVoidStatus {
  switch (refund.status) {
    case 'PENDING':
      return 'pending'
    case 'SUCCESS':
      return 'success'
    case 'ERROR':
      return 'error'
    default:
      return 'queued'
  }
}

/**
 * Where an earlier void of this label stands, read from the label itself (Shippo marks the transaction
 * once its refund is asked for), or null when none was asked.
 */
function earlierVoid(transaction: Transaction): LabelVoidStatus | null {
  switch (transaction.status) {
    case 'REFUNDPENDING':
      return 'pending'
    case 'REFUNDED':
      return 'success'
    case 'REFUNDREJECTED':
      return 'error'
    default:
      return null
  }
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

  const provider: ShippingProvider = {
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
        labelId: transaction.objectId ?? '',
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
      const found = await searchLabels(
        (transaction) =>
          transaction.metadata === metadata &&
          transaction.status === 'SUCCESS' &&
          Boolean(transaction.trackingNumber && transaction.labelUrl),
        'SUCCESS',
      )
      if (found === undefined) {
        log.warn('no earlier Shippo label found; buying one', {
          reference,
          searched: LOOKUP_PAGES * LOOKUP_PAGE_SIZE,
        })
        return null
      }
      if (!found?.trackingNumber || !found.labelUrl) return null
      const carrier = typeof found.rate === 'object' ? found.rate.provider : undefined
      return {
        carrier: carrier ?? 'Shippo',
        trackingNumber: found.trackingNumber,
        labelUrl: found.labelUrl,
        labelId: found.objectId ?? '',
        trackingUrl: found.trackingUrlProvider || null,
      }
    },

    /**
     * Shippo's label refund. The label's own status says whether a refund was asked for before (it turns
     * REFUNDPENDING, REFUNDED or REFUNDREJECTED), so it is read first and a second refund is never asked
     * for. Of two voids at once, Shippo refuses the second; the label's status then answers it too.
     */
    async voidLabel(label: LabelToVoid): Promise<LabelVoid> {
      const transaction = label.labelId ? await transactionById(label.labelId) : await transactionFor(label)
      const isTheLabel =
        transaction?.objectId &&
        transaction.trackingNumber === label.trackingNumber &&
        transaction.metadata === labelMetadata(label.reference)
      if (!transaction?.objectId || !isTheLabel) {
        throw new UnknownLabelError(
          `Shippo has no label ${label.trackingNumber} for order ${label.reference}: nothing to void`,
        )
      }
      const labelId = transaction.objectId
      const before = earlierVoid(transaction)
      if (before) return { id: null, labelId, status: before, alreadyVoided: true }
      if (transaction.status !== 'SUCCESS') {
        throw new ShippingProviderError(
          `Shippo label ${labelId} was never bought (${transaction.status}): nothing to void`,
        )
      }
      let refund: Refund
      try {
        refund = await shippo.refunds.create({ transaction: labelId, async: false })
      } catch (error) {
        const now = await transactionById(labelId).catch(() => null)
        const meanwhile = now ? earlierVoid(now) : null
        if (meanwhile) return { id: null, labelId, status: meanwhile, alreadyVoided: true }
        throw new ShippingProviderError(`Shippo could not void the label: ${errorSummary(error)}`)
      }
      return { id: refund.objectId ?? null, labelId, status: voidStatus(refund), alreadyVoided: false }
    },

    /** Shippo keeps its labels; the shop keeps none of their files (ShippingProvider.forgetAddress). */
    async forgetAddress() {},
  }

  /** The label by its transaction id; null when Shippo has none. Throws when Shippo cannot be asked. */
  async function transactionById(id: string): Promise<Transaction | null> {
    try {
      return await shippo.transactions.get(id)
    } catch (error) {
      if (error instanceof ShippoError && error.statusCode === 404) return null
      throw new ShippingProviderError(`Shippo could not read the label: ${errorSummary(error)}`)
    }
  }

  /** The label bought under this reference with this tracking number, whatever its status now. */
  async function transactionFor(label: LabelToVoid): Promise<Transaction | null> {
    const metadata = labelMetadata(label.reference)
    const found = await searchLabels(
      (transaction) =>
        transaction.metadata === metadata && transaction.trackingNumber === label.trackingNumber,
    )
    return found ?? null
  }

  /**
   * Shippo cannot search labels by metadata or tracking number, so the newest are read page by page
   * (newest first), at most LOOKUP_PAGES pages. Null when the list ended without a match; undefined when
   * the pages ran out first.
   */
  async function searchLabels(
    matches: (transaction: Transaction) => boolean,
    objectStatus?: 'SUCCESS',
  ): Promise<Transaction | null | undefined> {
    for (let page = 1; page <= LOOKUP_PAGES; page++) {
      let list: Awaited<ReturnType<typeof shippo.transactions.list>>
      try {
        list = await shippo.transactions.list({
          ...(objectStatus ? { objectStatus } : {}),
          page,
          results: LOOKUP_PAGE_SIZE,
        })
      } catch (error) {
        throw new ShippingProviderError(`Shippo could not list labels: ${errorSummary(error)}`)
      }
      const found = (list.results ?? []).find(matches)
      if (found) return found
      if (!list.next) return null
    }
    return undefined
  }

  return provider
}
