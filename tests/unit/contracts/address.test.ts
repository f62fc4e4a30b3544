/** One address schema: what /shipping sends, and the order's address every order call answers with. */
import { describe, expect, test } from 'bun:test'
import { userOrderDetailSchema } from '@core/contracts/account'
import { addressSchema, orderAddressSchema } from '@core/contracts/address'
import { createSessionBody } from '@core/contracts/checkout'
import { orderDetailSchema } from '@core/contracts/dashboard'
import { accountExportSchema } from '@core/contracts/privacy'
import { ratesBody } from '@core/contracts/shipping'
import { getSchemaValidator, type TSchema } from 'elysia'

/** Whether the API would take the value as the schema describes it (Elysia's own validator). */
const accepts = (schema: TSchema, value: unknown) => getSchemaValidator(schema)?.Check(value) === true

const KEPT = {
  name: 'Sam Carpenter',
  street1: '12 Workshop Lane',
  city: 'Austin',
  state: 'TX',
  zip: '73301',
  country: 'US',
}

describe('the address schema', () => {
  test('the checkout and rate calls take the one /shipping address', () => {
    expect(ratesBody.properties.address).toEqual(addressSchema)
    expect(createSessionBody.properties.shipping_address).toEqual(addressSchema)
  })

  test('the order page, the dashboard and the data export answer with the one order address', () => {
    const exported = accountExportSchema.properties.orders.items.properties
    for (const schema of [
      userOrderDetailSchema.properties.shippingAddress,
      orderDetailSchema.properties.shippingAddress,
      orderDetailSchema.properties.billingAddress,
      exported.shippingAddress,
      exported.billingAddress,
    ]) {
      expect(schema).toEqual(orderAddressSchema)
    }
  })

  test("an order's address has the sent fields, each filled in: the country always, the apartment only when there is one", () => {
    expect(Object.keys(orderAddressSchema.properties).sort()).toEqual(
      Object.keys(addressSchema.properties).sort(),
    )
    expect(accepts(orderAddressSchema, KEPT)).toBe(true)
    expect(accepts(orderAddressSchema, { ...KEPT, street2: 'Unit 4' })).toBe(true)
    expect(accepts(orderAddressSchema, { ...KEPT, street2: null })).toBe(false)
    const { country: _country, ...withoutCountry } = KEPT
    expect(accepts(orderAddressSchema, withoutCountry)).toBe(false)
    // As sent, both may be left out (the country defaults to the US) and the apartment may be null.
    expect(accepts(addressSchema, { ...withoutCountry, street2: null })).toBe(true)
  })
})
