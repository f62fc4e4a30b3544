import { randomBytes } from 'node:crypto'
import { eq, lt } from 'drizzle-orm'
import { shippingQuotes } from '../../../db/schema/checkout'
import type { CarrierRate, Parcel, ShippingAddress } from '../../adapters/types'
import { ShippingProviderError } from '../../adapters/types'
import type { AppDeps } from '../../deps'
import { errorMessage, log } from '../../lib/log'
import { conflict, HttpError, unprocessable } from '../../plugins/errors'
import { discountCents } from '../../rules/discounts'
import { buildCart, type CartItemInput } from '../catalog/cart'
import type { CatalogService } from '../catalog/service'
import type { DiscountService } from '../discounts/service'
import { addressHash, normalizeAddress } from './address'
import type { AddressInput, RateView } from './model'
import { parcelFor, QUOTE_EXPIRED_MESSAGE, QUOTE_LIFETIME_MS, shippingPriceCents } from './pricing'

export type Quote = typeof shippingQuotes.$inferSelect

/** An item of a rates request: a catalogue id, or a product name as spec §7 sends it. */
export interface RatesItem {
  id?: number
  name?: string
  quantity: number
}

export const UNKNOWN_NAME_MESSAGE =
  'One of the products in your cart is not in our catalogue. Please remove it and try again.'

function quoteId(): string {
  return `rate_${randomBytes(18).toString('base64url')}`
}

export interface ShippingServiceDeps extends Pick<AppDeps, 'db' | 'clock' | 'shipping'> {
  catalog: CatalogService
  discounts: DiscountService
}

export function createShippingService(deps: ShippingServiceDeps) {
  const { db, clock, catalog, discounts } = deps

  /** The discount a code would give, for display only: an invalid code simply counts as none here. */
  async function displayDiscount(code: string | null | undefined, subtotalCents: number): Promise<number> {
    const trimmed = code?.trim()
    if (!trimmed) return 0
    try {
      return discountCents(subtotalCents, await discounts.validate(trimmed, { subtotalCents }))
    } catch (error) {
      if (error instanceof HttpError) return 0
      throw error
    }
  }

  /** Spec §7 names products; the shop's own pages also send ids. Weights always come from the catalogue. */
  async function cartItems(items: readonly RatesItem[]): Promise<CartItemInput[]> {
    return Promise.all(
      items.map(async (item) => {
        if (item.id !== undefined) return { productId: item.id, quantity: item.quantity }
        if (item.name === undefined || item.name.trim() === '') {
          throw unprocessable('Each item needs a product id or name.')
        }
        const product = await catalog.byName(item.name)
        if (!product) throw unprocessable(UNKNOWN_NAME_MESSAGE)
        return { productId: product.id, quantity: item.quantity }
      }),
    )
  }

  async function carrierRates(parcel: Parcel, address: ShippingAddress): Promise<CarrierRate[]> {
    try {
      return await deps.shipping.quoteRates(parcel, address)
    } catch (error) {
      if (!(error instanceof ShippingProviderError)) throw error
      log.error('carrier rates failed', { error: errorMessage(error) })
      throw new HttpError(
        502,
        'We could not reach the carrier for shipping rates. Please try again in a moment.',
      )
    }
  }

  return {
    /** Quotes every service for the cart and address and stores each as a quote the checkout can use. */
    async quote(input: {
      address: AddressInput
      items: readonly RatesItem[]
      discountCode?: string | null
    }): Promise<{ rates: RateView[] }> {
      const address = normalizeAddress(input.address)
      const cart = await buildCart(catalog, await cartItems(input.items))
      const parcel = parcelFor(cart.itemCount, cart.weightTenthsOz)
      const rates = await carrierRates(parcel, address)
      if (rates.length === 0) {
        throw unprocessable(
          'We cannot ship this order to that address. Please check the address or contact us.',
        )
      }
      const afterDiscount =
        cart.subtotalCents - (await displayDiscount(input.discountCode, cart.subtotalCents))
      const now = clock.now()
      const rows: Quote[] = rates.map((rate) => ({
        id: quoteId(),
        carrier: rate.carrier,
        serviceName: rate.serviceName,
        serviceToken: rate.serviceToken,
        providerRateId: rate.providerRateId,
        priceCents: rate.priceCents,
        freeEligible: rate.standard,
        estimatedDaysMin: rate.estimate.minDays,
        estimatedDaysMax: rate.estimate.maxDays,
        cartFingerprint: cart.fingerprint,
        addressHash: addressHash(address),
        expiresAt: new Date(now.getTime() + QUOTE_LIFETIME_MS),
        createdAt: now,
      }))
      await db.insert(shippingQuotes).values(rows)
      // Expired quotes are useless; an occasional sweep keeps the table small without a scheduler.
      if (Math.random() < 0.02) {
        await db
          .delete(shippingQuotes)
          .where(lt(shippingQuotes.expiresAt, new Date(now.getTime() - 24 * 3600_000)))
      }
      return {
        rates: rows.map((row) => {
          const cents = shippingPriceCents(row, afterDiscount)
          return {
            id: row.id,
            price: cents / 100,
            carrier: row.carrier,
            serviceName: row.serviceName,
            estimatedDays: row.estimatedDaysMax,
            deliveryEstimate: { minDays: row.estimatedDaysMin, maxDays: row.estimatedDaysMax },
            free: cents === 0 && row.priceCents > 0,
          }
        }),
      }
    },

    /**
     * The quote behind a rate id, if it is still live and was issued for this very cart and destination.
     * Unknown, expired and someone else's quotes all get the same answer: fetch rates again.
     */
    async liveQuote(id: string, binding: { cartFingerprint: string; addressHash: string }): Promise<Quote> {
      const [quote] = await db.select().from(shippingQuotes).where(eq(shippingQuotes.id, id)).limit(1)
      const valid =
        quote !== undefined &&
        quote.expiresAt.getTime() > clock.now().getTime() &&
        quote.cartFingerprint === binding.cartFingerprint &&
        quote.addressHash === binding.addressHash
      if (!valid) throw conflict(QUOTE_EXPIRED_MESSAGE)
      return quote
    },
  }
}

export type ShippingService = ReturnType<typeof createShippingService>
