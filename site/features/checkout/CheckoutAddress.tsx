import { AddressFieldset } from '../../components/form/AddressFieldset'
import type { AddressFields, AddressKey, FieldErrors } from './form'

const KEYS = {
  name: 'name',
  line1: 'street1',
  line2: 'street2',
  city: 'city',
  state: 'state',
  postal: 'zip',
  country: 'country',
} as const

/** The shipping or billing address block; ids are `shipping.city`, `billing.zip`, … (see FieldKey). */
export function CheckoutAddress(props: {
  kind: 'shipping' | 'billing'
  address: AddressFields
  errors: FieldErrors
  onChange: (key: AddressKey, value: string) => void
}) {
  const { kind, address, errors } = props
  return (
    <AddressFieldset
      keys={KEYS}
      bind={(key: AddressKey) => {
        const id = `${kind}.${key}` as const
        return { id, value: address[key], onChange: (value) => props.onChange(key, value), error: errors[id] }
      }}
      // Autofill sections keep a browser from pouring the shipping address into the billing fields.
      autoComplete={(token) => `section-${kind} ${kind} ${token}`}
    />
  )
}
