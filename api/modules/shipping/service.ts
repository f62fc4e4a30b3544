import type { AddressInput, RateView } from '@core/contracts/shipping'
import { discountCents } from '@core/rules/discounts'
import type { Database } from '../../../db/client'
import type { CarrierRate, Parcel, ShippingAddress, ShippingProvider } from '../../adapters/types'
import { ShippingProviderError } from '../../adapters/types'
import type { Clock } from '../../lib/clock'
import { conflict, DomainError, invalid, upstreamFailed } from '../../lib/domain-errors'
import { errorMessage, log } from '../../lib/log'
import { buildCart, type Cart, type CartItemInput } from '../catalog/cart'
import type { CatalogService } from '../catalog/service'
import type { DiscountService } from '../discounts/service'
import { sharedSecret } from '../settings/secrets'
import { addressHash, normalizeAddress } from './address'
import { parcelFor, QUOTE_EXPIRED_MESSAGE, QUOTE_LIFETIME_MS, shippingPriceCents } from './pricing'
import { type Quote, type QuoteBinding, readQuote, signQuote } from './quote-token'

export type { Quote } from './quote-token'

/** What shipping costs a checkout: the quote it chose, and its price once the goods' total is known. */
export interface ShippingPrice {
  quote: Quote
  /** The price in cents when the goods come to `goodsCents` after discount: free shipping applies. */
  centsFor(goodsCents: number): number
}

/** The name of the key that signs quotes, in the settings table. */
export const QUOTE_KEY_SETTING = 'shipping-quote-key'

/** An item of a rates request: a catalogue id, or a product name (docs/product.md#shop-calls). */
export interface RatesItem {
  id?: number
  name?: string
  quantity: number
}

export const UNKNOWN_NAME_MESSAGE =
  'One of the products in your cart is not in our catalogue. Please remove it and try again.'

export interface ShippingServiceDeps {
  db: Database
  clock: Clock
  shipping: ShippingProvider
  catalog: CatalogService
  discounts: DiscountService
}

/** The discount a code would give, for display only: an invalid code simply counts as none here. */
async function displayDiscount(
  discounts: DiscountService,
  code: string | null | undefined,
  subtotalCents: number,
  heldBy: readonly string[],
): Promise<number> {
  const trimmed = code?.trim()
  if (!trimmed) return 0
  try {
    return discountCents(subtotalCents, await discounts.validate(trimmed, { subtotalCents }, heldBy))
  } catch (error) {
    if (error instanceof DomainError) return 0
    throw error
  }
}

/** The rates call may name products (docs/product.md#shop-calls); the shop's own pages also send ids. Weights always come from the catalogue. */
async function cartItems(catalog: CatalogService, items: readonly RatesItem[]): Promise<CartItemInput[]> {
  return Promise.all(
    items.map(async (item) => {
      if (item.id !== undefined) return { productId: item.id, quantity: item.quantity }
      if (item.name === undefined || item.name.trim() === '') {
        throw invalid('Each item needs a product id or name.')
      }
      const product = await catalog.byName(item.name)
      if (!product) throw invalid(UNKNOWN_NAME_MESSAGE)
      return { productId: product.id, quantity: item.quantity }
    }),
  )
}

async function carrierRates(
  shipping: ShippingProvider,
  parcel: Parcel,
  address: ShippingAddress,
): Promise<CarrierRate[]> {
  try {
    const rates = await shipping.quoteRates(parcel, address)
    if (rates.length > 0) return rates
  } catch (error) {
    if (!(error instanceof ShippingProviderError)) throw error
    log.error('carrier rates failed', { error: errorMessage(error) })
    throw upstreamFailed('We could not reach the carrier for shipping rates. Please try again in a moment.')
  }
  throw invalid('We cannot ship this order to that address. Please check the address or contact us.')
}

/** One carrier rate as the shopper sees it, its id the signed quote, priced for the goods after discount. */
function rateView(
  rate: CarrierRate,
  signed: { key: Buffer; binding: QuoteBinding; expiresAt: number },
  afterDiscountCents: number,
): RateView {
  const terms = {
    carrier: rate.carrier,
    serviceName: rate.serviceName,
    serviceToken: rate.serviceToken,
    priceCents: rate.priceCents,
    freeEligible: rate.standard,
    estimatedDaysMin: rate.estimate.minDays,
    estimatedDaysMax: rate.estimate.maxDays,
    expiresAt: signed.expiresAt,
  }
  const cents = shippingPriceCents(terms, afterDiscountCents)
  return {
    id: signQuote(signed.key, terms, signed.binding),
    price: cents / 100,
    carrier: terms.carrier,
    serviceName: terms.serviceName,
    estimatedDays: terms.estimatedDaysMax,
    deliveryEstimate: { minDays: terms.estimatedDaysMin, maxDays: terms.estimatedDaysMax },
    free: cents === 0 && terms.priceCents > 0,
  }
}

export function createShippingService(deps: ShippingServiceDeps) {
  const { db, clock, catalog, discounts } = deps

  /** Read from the database once per process; a failed read is tried again on the next request. */
  let quoteKey: Promise<Buffer> | null = null
  function signingKey(): Promise<Buffer> {
    quoteKey ??= sharedSecret(db, QUOTE_KEY_SETTING, clock.now()).catch((error: unknown) => {
      quoteKey = null
      throw error
    })
    return quoteKey
  }

  const service = {
    /**
     * Quotes every service for the cart and address. Each rate's id is a signed quote the checkout can
     * verify without a lookup: nothing is written per request.
     */
    async quote(input: {
      address: AddressInput
      items: readonly RatesItem[]
      discountCode?: string | null
      /** The reservation key of the code's use the cart's own open session holds, if any. */
      heldBy?: readonly string[]
    }): Promise<{ rates: RateView[] }> {
      const address = normalizeAddress(input.address)
      const cart = await buildCart(catalog, await cartItems(catalog, input.items))
      const parcel = parcelFor(cart.itemCount, cart.weightTenthsOz)
      const rates = await carrierRates(deps.shipping, parcel, address)
      const afterDiscount =
        cart.subtotalCents -
        (await displayDiscount(discounts, input.discountCode, cart.subtotalCents, input.heldBy ?? []))
      const signed = {
        key: await signingKey(),
        binding: { cartFingerprint: cart.fingerprint, addressHash: addressHash(address) },
        expiresAt: clock.now().getTime() + QUOTE_LIFETIME_MS,
      }
      return { rates: rates.map((rate) => rateView(rate, signed, afterDiscount)) }
    },

    /**
     * The quote behind a rate id, if this shop signed it for this very cart and destination and it is
     * still live. Made-up, altered, expired and someone else's quotes all get the same answer: fetch
     * rates again.
     */
    async liveQuote(id: string, binding: QuoteBinding): Promise<Quote> {
      const quote = readQuote(await signingKey(), id, binding)
      if (!quote || quote.expiresAt <= clock.now().getTime()) throw conflict(QUOTE_EXPIRED_MESSAGE)
      return quote
    },

    /**
     * The price of the rate `quoteId` for a checkout of this cart to this address: the quote must be one
     * this shop signed for this very cart and destination, still live (else the conflict liveQuote gives).
     */
    async priceFor(
      quoteId: string,
      cart: Pick<Cart, 'fingerprint'>,
      address: ShippingAddress,
    ): Promise<ShippingPrice> {
      const binding = { cartFingerprint: cart.fingerprint, addressHash: addressHash(address) }
      const quote = await service.liveQuote(quoteId, binding)
      return { quote, centsFor: (goodsCents) => shippingPriceCents(quote, goodsCents) }
    },
  }
  return service
}

export type ShippingService = ReturnType<typeof createShippingService>
