/** Shipping prices and parcels: pure rules behind the quote, shared by checkout and label purchase. */

import { type PackageType, packageForItemCount } from '@core/rules/package'
import { qualifiesForFreeShipping } from '@core/rules/shipping'
import type { Parcel } from '../../adapters/types'

/** A quote is good for half an hour: long enough to pay, short enough that carrier prices hold. */
export const QUOTE_LIFETIME_MS = 30 * 60 * 1000

export const QUOTE_EXPIRED_MESSAGE = 'Your shipping rate has expired. Please get shipping rates again.'

/** The mailer itself weighs something; carriers price the parcel, not just its contents. */
export const PACKAGING_WEIGHT_OZ: Readonly<Record<PackageType, number>> = {
  small: 0.8,
  medium: 1.2,
  large: 2.0,
}

export function parcelFor(itemCount: number, productWeightTenthsOz: number): Parcel {
  const { type, dimensions } = packageForItemCount(itemCount)
  return {
    weightOz: Math.round(productWeightTenthsOz + PACKAGING_WEIGHT_OZ[type] * 10) / 10,
    lengthIn: dimensions.length,
    widthIn: dimensions.width,
    heightIn: dimensions.height,
  }
}

/**
 * What the customer pays for a quoted service: the standard service is free once the subtotal after
 * discount reaches $35.00 (docs/product.md#free-shipping); every other service costs what the carrier quoted.
 */
export function shippingPriceCents(
  quote: { priceCents: number; freeEligible: boolean },
  subtotalAfterDiscountCents: number,
): number {
  return quote.freeEligible && qualifiesForFreeShipping(subtotalAfterDiscountCents) ? 0 : quote.priceCents
}
