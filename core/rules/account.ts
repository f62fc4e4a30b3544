/** Account field rules shared by the account forms and the API. */
import { isUsState, isUsZip } from './address'

/** Long enough for any passphrase; short enough that hashing one is never a denial of service. */
export const PASSWORD_MAX_LENGTH = 200

/**
 * A password's length as a person counts it: each Unicode code point one character (as NIST SP 800-63B
 * counts them), not each UTF-16 unit of JavaScript's `length`, so '👍' is one character and three of them
 * are three, not the six the minimum asks for. Every rule on a password's length counts with this.
 */
export function passwordLength(password: string): number {
  let characters = 0
  for (const _ of password) characters += 1
  return characters
}

/**
 * The most UTF-16 units a password of PASSWORD_MAX_LENGTH characters can take (two for a character outside
 * the Basic Multilingual Plane): what a request body's schema caps, before the rule counts characters.
 */
export const PASSWORD_MAX_UNITS = PASSWORD_MAX_LENGTH * 2
export const NAME_MAX_LENGTH = 60
export const PHONE_MAX_LENGTH = 30
export const STREET_MAX_LENGTH = 100
export const CITY_MAX_LENGTH = 60
export const STATE_MAX_LENGTH = 60
export const ZIP_MAX_LENGTH = 20

export const USER_ROLES = ['customer', 'staff'] as const
export type UserRole = (typeof USER_ROLES)[number]

/** How a session was signed in; a sign-up counts as 'password' (the password was just typed). */
export const SIGN_IN_METHODS = ['password', 'google'] as const
export type SignInMethod = (typeof SIGN_IN_METHODS)[number]

/** How recent a Google sign-in must be to stand in for a password (deleting an account made with Google). */
export const RECENT_SIGN_IN_MS = 10 * 60 * 1000

/** Whether this session signed in with `method` within RECENT_SIGN_IN_MS of `now`. */
export function signedInRecentlyWith(
  session: { createdAt: Date; signedInWith: SignInMethod | null },
  method: SignInMethod,
  now: Date,
): boolean {
  const age = now.getTime() - session.createdAt.getTime()
  return session.signedInWith === method && age >= 0 && age <= RECENT_SIGN_IN_MS
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

/**
 * Line breaks, tabs, NUL and the like have no place in a name or an address: they break e-mails and labels.
 * Bidi overrides and isolates are refused too, so a name cannot read differently from what it is on a label
 * or a staff page. Letters of any script, accents and emoji are fine.
 */
export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text)
}

/** Digits with the usual separators: '+1 (512) 555-0100', '0151 496 0000'. */
export function isPhone(value: string): boolean {
  return /^[0-9+()\-.\s]*$/.test(value) && (value.match(/\d/g)?.length ?? 0) <= 20
}

/** A saved shipping address as the profile holds it (docs/product.md#account-calls). */
export interface ProfileAddress {
  street: string
  city: string
  state: string
  zipCode: string
  /** ISO 3166-1 alpha-2, upper case. */
  country: string
}

export type AddressField = keyof ProfileAddress

/**
 * What is wrong with an address, field by field (empty when nothing is). Required: street, city, state,
 * ZIP and a two-letter country; a US address needs a state code and a 5- or 9-digit ZIP.
 */
export function addressProblems(address: ProfileAddress): Partial<Record<AddressField, string>> {
  const problems: Partial<Record<AddressField, string>> = {}
  if (address.street.trim() === '') problems.street = 'Enter the street address.'
  if (address.city.trim() === '') problems.city = 'Enter the city.'
  if (address.state.trim() === '') problems.state = 'Choose the state.'
  else if (address.country === 'US' && !isUsState(address.state)) problems.state = 'Choose a US state.'
  if (address.zipCode.trim() === '') problems.zipCode = 'Enter the ZIP code.'
  else if (address.country === 'US' && !isUsZip(address.zipCode.trim())) {
    problems.zipCode = 'Please enter a valid ZIP code, like 12345 or 12345-6789.'
  }
  if (!/^[A-Z]{2}$/.test(address.country)) problems.country = 'Choose the country.'
  return problems
}
