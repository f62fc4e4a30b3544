import { US_STATES } from '@core/rules/address'
import { COUNTRIES } from './countries'
import { type FieldBinding, SelectField, TextField } from './fields'

/** The parts of a postal address a form may ask for. */
export type AddressPart = 'name' | 'line1' | 'line2' | 'city' | 'state' | 'postal' | 'country'

/**
 * Each part's name in the form using the fieldset: line 1, city, state, postal code and country always;
 * the full name and a second street line where the form asks for them.
 */
export type AddressKeys<Key extends string> = Record<'line1' | 'city' | 'state' | 'postal' | 'country', Key> &
  Partial<Record<'name' | 'line2', Key>>

/** Where each part sits in the fieldset's six-column grid. */
export type AddressLayout = Record<AddressPart, string>

const STATE_OPTIONS = US_STATES.map((state) => ({ value: state.code, label: state.name }))
const COUNTRY_OPTIONS = COUNTRIES.map((country) => ({ value: country.code, label: country.name }))

const WIDE: AddressLayout = {
  name: 'sm:col-span-6',
  line1: 'sm:col-span-6',
  line2: 'sm:col-span-6',
  city: 'sm:col-span-6 lg:col-span-2',
  state: 'sm:col-span-3 lg:col-span-2',
  postal: 'sm:col-span-3 lg:col-span-2',
  country: 'sm:col-span-6',
}

/**
 * The address block of every address form (checkout's shipping and billing, the profile's saved address).
 * A US address picks its state from a list and has a ZIP; elsewhere the state is free text.
 */
export function AddressFieldset<Key extends string>(props: {
  keys: AddressKeys<Key>
  bind: (key: Key) => FieldBinding
  /** The autocomplete value for a token, e.g. to put the fields in an autofill section. */
  autoComplete?: (token: string) => string
  layout?: AddressLayout
}) {
  const { keys, layout = WIDE } = props
  const part = (name: AddressPart, key: Key, token: string) => ({
    ...props.bind(key),
    autoComplete: props.autoComplete ? props.autoComplete(token) : token,
    className: layout[name],
  })
  const isUs = props.bind(keys.country).value === 'US'
  const state = part('state', keys.state, 'address-level1')
  return (
    <div className="grid gap-4 sm:grid-cols-6">
      {keys.name && (
        <TextField {...part('name', keys.name, 'name')} label="Full name" required maxLength={100} />
      )}
      <TextField
        {...part('line1', keys.line1, keys.line2 ? 'address-line1' : 'street-address')}
        label="Street address"
        required
        maxLength={100}
      />
      {keys.line2 && (
        <TextField
          {...part('line2', keys.line2, 'address-line2')}
          label="Apartment, suite, etc."
          maxLength={100}
        />
      )}
      <TextField {...part('city', keys.city, 'address-level2')} label="City" required maxLength={60} />
      {isUs ? (
        <SelectField {...state} label="State" required options={STATE_OPTIONS} placeholder="Select a state" />
      ) : (
        <TextField {...state} label="State / Province" required maxLength={60} />
      )}
      <TextField
        {...part('postal', keys.postal, 'postal-code')}
        label={isUs ? 'ZIP' : 'Postal code'}
        required
        inputMode={isUs ? 'numeric' : 'text'}
        maxLength={isUs ? 10 : 20}
      />
      <SelectField
        {...part('country', keys.country, 'country')}
        label="Country"
        required
        options={COUNTRY_OPTIONS}
      />
    </div>
  )
}
