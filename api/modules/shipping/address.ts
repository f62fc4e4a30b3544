import type { AddressInput } from '@core/contracts/shipping'
import { hasControlCharacter } from '@core/rules/account'
import { DEFAULT_COUNTRY, isUsState, isUsZip } from '@core/rules/address'
import type { ShippingAddress } from '../../adapters/types'
import { sha256Hex } from '../../lib/digests'
import { invalid } from '../../lib/domain-errors'

const LIMITS = { name: 100, street1: 100, street2: 100, city: 60, state: 60, zip: 20 } as const

const LABELS: Record<keyof typeof LIMITS, string> = {
  name: 'name',
  street1: 'street address',
  street2: 'apartment or suite',
  city: 'city',
  state: 'state',
  zip: 'ZIP code',
}

/** Trims and folds runs of spaces: what a label printer prints. */
function clean(value: string | null | undefined): string {
  return (value ?? '').trim().replace(/ {2,}/g, ' ')
}

/**
 * Checks an address and returns it cleaned, or throws a 422 naming the first field to fix. US addresses
 * need a state code (50 states and DC) and a ZIP or ZIP+4; other countries ship with the international
 * service, so only the basic fields are required.
 */
export function normalizeAddress(
  input: AddressInput,
  kind: 'shipping' | 'billing' = 'shipping',
): ShippingAddress {
  const prefix = kind === 'billing' ? 'Billing address: ' : ''
  const fail = (message: string) => invalid(`${prefix}${message}`)
  const fields = {
    name: clean(input.name),
    street1: clean(input.street1),
    street2: clean(input.street2),
    city: clean(input.city),
    state: clean(input.state).toUpperCase(),
    zip: clean(input.zip).toUpperCase(),
  }
  const country = clean(input.country).toUpperCase() || DEFAULT_COUNTRY
  // A line break or a NUL inside a field would print as something else on the label (or add a line to an
  // e-mail), so it is refused with the field named rather than quietly changed.
  for (const key of Object.keys(LIMITS) as (keyof typeof LIMITS)[]) {
    if (hasControlCharacter(fields[key]))
      throw fail(`Please check the ${LABELS[key]}: it has a character that cannot be printed.`)
  }
  if (hasControlCharacter(country)) throw fail('Please choose a country.')
  if (fields.name === '') throw fail('Please enter your full name.')
  if (fields.street1 === '') throw fail('Please enter your street address.')
  if (fields.city === '') throw fail('Please enter your city.')
  for (const key of Object.keys(LIMITS) as (keyof typeof LIMITS)[]) {
    if (fields[key].length > LIMITS[key]) {
      throw fail(`Please shorten the ${LABELS[key]} to ${LIMITS[key]} characters or fewer.`)
    }
  }
  if (!/^[A-Z]{2}$/.test(country)) throw fail('Please choose a country.')
  if (country === 'US') {
    if (!isUsState(fields.state)) throw fail('Please choose a state.')
    if (!isUsZip(fields.zip)) throw fail('Please enter a valid ZIP code.')
  } else if (!/^[A-Z0-9 -]*$/.test(fields.zip)) {
    throw fail('Please enter a valid postal code.')
  }
  return {
    name: fields.name,
    street1: fields.street1,
    ...(fields.street2 ? { street2: fields.street2 } : {}),
    city: fields.city,
    state: fields.state,
    zip: fields.zip,
    country,
  }
}

/**
 * Identifies a destination for a quote: everything a carrier prices by, not the recipient's name, so
 * fixing a typo in the name does not make the customer fetch rates again.
 */
export function addressHash(address: ShippingAddress): string {
  const parts = [
    address.country,
    address.state,
    address.zip,
    address.city,
    address.street1,
    address.street2 ?? '',
  ]
  return sha256Hex(JSON.stringify(parts.map((part) => part.toLowerCase())))
}
