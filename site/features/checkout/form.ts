/**
 * The /shipping form as data: what the shopper typed, which fields are missing for each step (docs/product.md#shipping),
 * and the shapes the API expects. Pure, so the rules are tested without a browser.
 */
import { DEFAULT_COUNTRY, isEmail, isUsZip } from '@core/rules/address'

export interface AddressFields {
  name: string
  street1: string
  street2: string
  city: string
  state: string
  zip: string
  country: string
}

export type AddressKey = keyof AddressFields

export interface CheckoutDraft {
  email: string
  shipping: AddressFields
  /** 'Use a different billing address' is ticked. */
  separateBilling: boolean
  billing: AddressFields
}

/** `email`, `shipping.city`, `billing.zip`, … : doubles as the input's id. */
export type FieldKey = 'email' | `shipping.${AddressKey}` | `billing.${AddressKey}`

export type FieldErrors = Partial<Record<FieldKey, string>>

export function emptyAddress(): AddressFields {
  return { name: '', street1: '', street2: '', city: '', state: '', zip: '', country: DEFAULT_COUNTRY }
}

export function emptyDraft(): CheckoutDraft {
  return { email: '', shipping: emptyAddress(), separateBilling: false, billing: emptyAddress() }
}

/** The text fields a shopper may type into before the island runs (the selects keep their defaults). */
export const TYPED_FIELDS: readonly FieldKey[] = [
  'email',
  ...(['shipping', 'billing'] as const).flatMap((kind) =>
    (['name', 'street1', 'street2', 'city', 'zip'] as const).map((key): FieldKey => `${kind}.${key}`),
  ),
]

/**
 * The draft restored from this tab, with what the shopper typed into the page before its island ran (each
 * field hands its text to the island's draft as it starts: FieldShell): a field typed in wins over the
 * restored one, an empty one keeps it (docs/decisions/009).
 */
export function withTypedFields(restored: CheckoutDraft, typed: CheckoutDraft): CheckoutDraft {
  let merged = restored
  for (const key of TYPED_FIELDS) {
    const [kind, field] = key.split('.') as ['shipping' | 'billing', AddressKey]
    const value = key === 'email' ? typed.email : typed[kind][field]
    if (value.trim() === '') continue
    merged = key === 'email' ? { ...merged, email: value } : withAddressField(merged, kind, field, value)
  }
  return merged
}

/** The draft with one address field typed in. */
export function withAddressField(
  draft: CheckoutDraft,
  kind: 'shipping' | 'billing',
  key: AddressKey,
  value: string,
): CheckoutDraft {
  const address = { ...draft[kind], [key]: value }
  // A US state code means nothing in another country, and the reverse.
  if (key === 'country' && value !== draft[kind].country) address.state = ''
  return { ...draft, [kind]: address }
}

/** The errors without one field's: typing in a field clears its mark. Unchanged when it had none. */
export function withoutError(errors: FieldErrors, key: FieldKey): FieldErrors {
  if (errors[key] === undefined) return errors
  const { [key]: _cleared, ...rest } = errors
  return rest
}

/** docs/product.md#shipping: what a rate quote needs; apartment/suite is optional. Form order, so focus goes to the first. */
const REQUIRED_ADDRESS: readonly AddressKey[] = ['name', 'street1', 'city', 'state', 'zip']

const MISSING_TEXT: Record<AddressKey | 'email', string> = {
  email: 'Enter your e-mail address.',
  name: 'Enter the full name.',
  street1: 'Enter the street address.',
  street2: '',
  city: 'Enter the city.',
  state: 'Choose the state.',
  zip: 'Enter the ZIP code.',
  country: 'Choose the country.',
}

export const INVALID_EMAIL_MESSAGE = 'Please enter a valid e-mail address, like name@example.com.'
export const INVALID_ZIP_MESSAGE = 'Please enter a valid ZIP code, like 12345 or 12345-6789.'

function blank(value: string): boolean {
  return value.trim() === ''
}

function missingAddress(address: AddressFields, prefix: 'shipping' | 'billing'): FieldErrors {
  const errors: FieldErrors = {}
  for (const key of REQUIRED_ADDRESS) {
    if (blank(address[key])) errors[`${prefix}.${key}`] = MISSING_TEXT[key]
  }
  return errors
}

/** A US ZIP that is present but malformed: caught here so the shopper is told which field before a call. */
function badZip(address: AddressFields, prefix: 'shipping' | 'billing'): FieldErrors {
  const zip = address.zip.trim()
  return address.country === 'US' && zip !== '' && !isUsZip(zip)
    ? { [`${prefix}.zip`]: INVALID_ZIP_MESSAGE }
    : {}
}

export type Problem =
  | { kind: 'none' }
  | {
      kind: 'missing' | 'missing-billing' | 'invalid'
      title: string
      description: string
      fields: FieldErrors
    }

const NONE: Problem = { kind: 'none' }

/** docs/product.md#shipping: before 'Get Shipping Rates'. */
export function ratesProblem(draft: CheckoutDraft): Problem {
  const missing = missingAddress(draft.shipping, 'shipping')
  if (Object.keys(missing).length > 0) {
    return {
      kind: 'missing',
      title: 'Missing Information',
      description: 'Please fill in all required shipping address fields.',
      fields: missing,
    }
  }
  const zip = badZip(draft.shipping, 'shipping')
  if (Object.keys(zip).length > 0) {
    return { kind: 'invalid', title: 'Shipping Error', description: INVALID_ZIP_MESSAGE, fields: zip }
  }
  return NONE
}

/** docs/product.md#shipping: before 'Continue to Payment' (a chosen rate is checked by the caller). */
export function paymentProblem(draft: CheckoutDraft): Problem {
  const missing: FieldErrors = {
    ...(blank(draft.email) ? { email: MISSING_TEXT.email } : {}),
    ...missingAddress(draft.shipping, 'shipping'),
  }
  if (Object.keys(missing).length > 0) {
    return {
      kind: 'missing',
      title: 'Missing Information',
      description: 'Please fill in all required shipping fields',
      fields: missing,
    }
  }
  if (draft.separateBilling) {
    const billing = missingAddress(draft.billing, 'billing')
    if (Object.keys(billing).length > 0) {
      return {
        kind: 'missing-billing',
        title: 'Missing Billing Information',
        description: 'Please fill in all required billing address fields',
        fields: billing,
      }
    }
  }
  if (!isEmail(draft.email.trim())) {
    return {
      kind: 'invalid',
      title: 'Payment Error',
      description: INVALID_EMAIL_MESSAGE,
      fields: { email: INVALID_EMAIL_MESSAGE },
    }
  }
  const zips = {
    ...badZip(draft.shipping, 'shipping'),
    ...(draft.separateBilling ? badZip(draft.billing, 'billing') : {}),
  }
  if (Object.keys(zips).length > 0) {
    return { kind: 'invalid', title: 'Payment Error', description: INVALID_ZIP_MESSAGE, fields: zips }
  }
  return NONE
}

/** Form order of every field, so focus lands on the first one that needs attention. */
export const FIELD_ORDER: readonly FieldKey[] = [
  'email',
  ...(['name', 'street1', 'street2', 'city', 'state', 'zip', 'country'] as const).map(
    (key) => `shipping.${key}` as const,
  ),
  ...(['name', 'street1', 'street2', 'city', 'state', 'zip', 'country'] as const).map(
    (key) => `billing.${key}` as const,
  ),
]

export function firstField(errors: FieldErrors): FieldKey | undefined {
  return FIELD_ORDER.find((key) => errors[key] !== undefined)
}

/** The address as the API's schema takes it: trimmed, optional apartment left out when empty. */
export function toApiAddress(address: AddressFields) {
  const street2 = address.street2.trim()
  return {
    name: address.name.trim(),
    street1: address.street1.trim(),
    ...(street2 ? { street2 } : {}),
    city: address.city.trim(),
    state: address.state.trim(),
    zip: address.zip.trim(),
    country: address.country || DEFAULT_COUNTRY,
  }
}
