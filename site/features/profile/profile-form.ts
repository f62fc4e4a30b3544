/**
 * The profile's editable sections as data: what the customer types, what is missing (docs/product.md#forms),
 * and the bodies PUT /api/auth/update-profile takes. Pure, so it is tested without a browser.
 */
import {
  type AddressField,
  addressProblems,
  hasControlCharacter,
  isPhone,
  type ProfileAddress,
} from '@core/rules/account'
import { DEFAULT_COUNTRY } from '@core/rules/address'
import { ApiError } from '../../lib/api'
import type { Problem } from '../account/validation'
import type { PublicUser } from './api'

export interface PersonalFields {
  firstName: string
  lastName: string
  phone: string
}

export type PersonalField = keyof PersonalFields

export function personalFrom(user: PublicUser): PersonalFields {
  return { firstName: user.firstName, lastName: user.lastName, phone: user.phone }
}

/** What 'Personal Information' sends: the three fields, trimmed. */
export function personalBody(fields: PersonalFields): PersonalFields {
  return { firstName: fields.firstName.trim(), lastName: fields.lastName.trim(), phone: fields.phone.trim() }
}

export function addressFrom(user: PublicUser): ProfileAddress {
  return user.address ?? { street: '', city: '', state: '', zipCode: '', country: DEFAULT_COUNTRY }
}

const MISSING = { title: 'Missing Information', description: 'Please fill in all required fields.' }

export function personalProblem(fields: PersonalFields): Problem<PersonalField> | null {
  const missing: Partial<Record<PersonalField, string>> = {}
  if (fields.firstName.trim() === '') missing.firstName = 'Enter your first name.'
  if (fields.lastName.trim() === '') missing.lastName = 'Enter your last name.'
  return Object.keys(missing).length > 0 ? { ...MISSING, fields: missing } : null
}

/** The same rules the server applies (core/rules/account.ts), in form order. */
export function addressProblem(address: ProfileAddress): Problem<AddressField> | null {
  const found = addressProblems(address)
  const order: AddressField[] = ['street', 'city', 'state', 'zipCode', 'country']
  const fields: Partial<Record<AddressField, string>> = {}
  for (const field of order) if (found[field]) fields[field] = found[field]
  if (Object.keys(fields).length === 0) return null
  const blank = order.some((field) => fields[field] && address[field].trim() === '')
  return blank
    ? { ...MISSING, fields }
    : { title: 'Check the Address', description: Object.values(fields)[0] ?? '', fields }
}

export function trimmedAddress(address: ProfileAddress): ProfileAddress {
  return {
    street: address.street.trim(),
    city: address.city.trim(),
    state: address.state.trim(),
    zipCode: address.zipCode.trim(),
    country: address.country,
  }
}

/** '12 Workshop Lane', 'Austin, TX 73301', 'US' */
export function addressLines(address: ProfileAddress): string[] {
  return [
    address.street,
    `${address.city}, ${[address.state, address.zipCode].filter(Boolean).join(' ')}`,
    address.country,
  ]
}

/** 'March 2, 2026' in the shopper's own time zone. */
export function orderDate(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })
}

/** The digits of an order number from the page URL (?number=000042), or null when it is not one. */
export function orderNumberFrom(search: string): string | null {
  const number = new URLSearchParams(search).get('number')?.trim() ?? ''
  return /^\d{1,9}$/.test(number) ? number : null
}

export const SAVED = 'Changes saved successfully!'
export const SAVE_FAILED = 'Failed to save changes. Please try again.'

/** The failure text of docs/product.md#account-page, or the server's reason when it refused a value (a ZIP, a name). */
export function saveFailedText(error: unknown): string {
  return refusedMessage(error) ?? SAVE_FAILED
}

/** The server's reason when it refused a value it was sent (422), else null. */
export function refusedMessage(error: unknown): string | null {
  return error instanceof ApiError && error.status === 422 ? error.message : null
}

/**
 * Which field of 'Personal Information' the server refused (its 422 names no field): the first of those
 * sent that the rules it applies refuse (core/rules/account.ts), in the order it checks them. A name
 * must not be blank nor hold a control character; a phone number is digits and separators. Null when
 * none is, and the reason is not a field's.
 */
export function refusedPersonalField(sent: Partial<PersonalFields>): PersonalField | null {
  for (const field of ['firstName', 'lastName'] as const) {
    const name = sent[field]?.trim()
    if (name !== undefined && (name === '' || hasControlCharacter(name))) return field
  }
  const phone = sent.phone?.trim()
  return phone !== undefined && !isPhone(phone) ? 'phone' : null
}
