/**
 * Shippo's adapter, loaded when it is first used. Its SDK and models weigh about 34 MB of memory once
 * imported — a fifth of the server's budget (docs/architecture.md#performance-budgets) — and a shop on the built-in rate table never
 * calls it, so only a shop configured for Shippo pays for it, and only from its first quote.
 */
import type { ShippoOptions } from './shippo'
import type { ShippingProvider } from './types'

export function createShippoShippingOnDemand(options: ShippoOptions): ShippingProvider {
  let loaded: Promise<ShippingProvider> | null = null
  const provider = () => {
    loaded ??= import('./shippo').then(({ createShippoShipping }) => createShippoShipping(options))
    return loaded
  }
  return {
    name: 'shippo',
    quoteRates: async (parcel, address) => (await provider()).quoteRates(parcel, address),
    buyLabel: async (request) => (await provider()).buyLabel(request),
    findLabel: async (reference) => (await provider()).findLabel(reference),
    voidLabel: async (label) => (await provider()).voidLabel(label),
    forgetAddress: async (reference) => (await provider()).forgetAddress(reference),
  }
}
