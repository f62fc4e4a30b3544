import { US_STATES } from '../../../api/rules/address'
import { SelectField, TextField } from './fields'
import { type AddressFields, type AddressKey, COUNTRIES, type FieldErrors } from './form'

const STATE_OPTIONS = US_STATES.map((state) => ({ value: state.code, label: state.name }))
const COUNTRY_OPTIONS = COUNTRIES.map((country) => ({ value: country.code, label: country.name }))

/** The shipping or billing address block; ids are `shipping.city`, `billing.zip`, … (see FieldKey). */
export function AddressFieldset(props: {
  kind: 'shipping' | 'billing'
  address: AddressFields
  errors: FieldErrors
  onChange: (key: AddressKey, value: string) => void
}) {
  const { kind, address, errors } = props
  const id = (key: AddressKey) => `${kind}.${key}` as const
  // Autofill sections keep a browser from pouring the shipping address into the billing fields.
  const auto = (token: string) => `section-${kind} ${kind} ${token}`
  const isUs = address.country === 'US'
  return (
    <div className="grid gap-4 sm:grid-cols-6">
      <TextField
        id={id('name')}
        label="Full name"
        required
        value={address.name}
        onChange={(value) => props.onChange('name', value)}
        error={errors[id('name')]}
        autoComplete={auto('name')}
        maxLength={100}
        className="sm:col-span-6"
      />
      <TextField
        id={id('street1')}
        label="Street address"
        required
        value={address.street1}
        onChange={(value) => props.onChange('street1', value)}
        error={errors[id('street1')]}
        autoComplete={auto('address-line1')}
        maxLength={100}
        className="sm:col-span-6"
      />
      <TextField
        id={id('street2')}
        label="Apartment, suite, etc."
        value={address.street2}
        onChange={(value) => props.onChange('street2', value)}
        error={errors[id('street2')]}
        autoComplete={auto('address-line2')}
        maxLength={100}
        className="sm:col-span-6"
      />
      <TextField
        id={id('city')}
        label="City"
        required
        value={address.city}
        onChange={(value) => props.onChange('city', value)}
        error={errors[id('city')]}
        autoComplete={auto('address-level2')}
        maxLength={60}
        className="sm:col-span-6 lg:col-span-2"
      />
      {isUs ? (
        <SelectField
          id={id('state')}
          label="State"
          required
          value={address.state}
          onChange={(value) => props.onChange('state', value)}
          options={STATE_OPTIONS}
          placeholder="Select a state"
          error={errors[id('state')]}
          autoComplete={auto('address-level1')}
          className="sm:col-span-3 lg:col-span-2"
        />
      ) : (
        <TextField
          id={id('state')}
          label="State / Province"
          required
          value={address.state}
          onChange={(value) => props.onChange('state', value)}
          error={errors[id('state')]}
          autoComplete={auto('address-level1')}
          maxLength={60}
          className="sm:col-span-3 lg:col-span-2"
        />
      )}
      <TextField
        id={id('zip')}
        label={isUs ? 'ZIP' : 'Postal code'}
        required
        value={address.zip}
        onChange={(value) => props.onChange('zip', value)}
        error={errors[id('zip')]}
        autoComplete={auto('postal-code')}
        inputMode={isUs ? 'numeric' : 'text'}
        maxLength={isUs ? 10 : 20}
        className="sm:col-span-3 lg:col-span-2"
      />
      <SelectField
        id={id('country')}
        label="Country"
        required
        value={address.country}
        onChange={(value) => props.onChange('country', value)}
        options={COUNTRY_OPTIONS}
        error={errors[id('country')]}
        autoComplete={auto('country')}
        className="sm:col-span-6"
      />
    </div>
  )
}
