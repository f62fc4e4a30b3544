import { t } from 'elysia'
import { CITY_MAX_LENGTH, STATE_MAX_LENGTH, STREET_MAX_LENGTH, ZIP_MAX_LENGTH } from '../rules/account'

/**
 * The shop's one address schema: an address as the /shipping form sends it (rates and the checkout session).
 * Presence and type are checked here; content (state codes, ZIP format, lengths) in
 * api/modules/shipping/address.ts so every message names the field to fix.
 */
export const addressSchema = t.Object({
  name: t.String({ error: 'Please enter your full name.' }),
  street1: t.String({ error: 'Please enter your street address.' }),
  street2: t.Optional(t.Nullable(t.String({ error: 'Please check the apartment or suite.' }))),
  city: t.String({ error: 'Please enter your city.' }),
  state: t.String({ error: 'Please choose a state.' }),
  zip: t.String({ error: 'Please enter a valid ZIP code.' }),
  country: t.Optional(t.String({ error: 'Please choose a country.' })),
})

export type AddressInput = typeof addressSchema.static

/**
 * The same address as an order keeps it, and as the order page, the dashboard and the data export answer
 * with it: the country always filled in (the US when none was sent), the apartment only when there is one.
 */
export const orderAddressSchema = t.Object({
  ...addressSchema.properties,
  street2: t.Optional(t.String()),
  country: t.String(),
})

/** The profile's saved shipping address (docs/product.md#account-calls). Content rules are in core/rules/account.ts. */
export const profileAddressSchema = t.Object({
  street: t.String({
    maxLength: STREET_MAX_LENGTH,
    error: `Street must be at most ${STREET_MAX_LENGTH} characters.`,
  }),
  city: t.String({
    maxLength: CITY_MAX_LENGTH,
    error: `City must be at most ${CITY_MAX_LENGTH} characters.`,
  }),
  state: t.String({
    maxLength: STATE_MAX_LENGTH,
    error: `State must be at most ${STATE_MAX_LENGTH} characters.`,
  }),
  zipCode: t.String({
    maxLength: ZIP_MAX_LENGTH,
    error: `ZIP must be at most ${ZIP_MAX_LENGTH} characters.`,
  }),
  country: t.String({ maxLength: 2, error: 'Choose the country.' }),
})
