/** Address and account field rules shared by the forms and the API. */

/** docs/product.md#catalogue: the 50 states and DC, alphabetical by name for the state picker. */
export const US_STATES = [
  { code: 'AL', name: 'Alabama' },
  { code: 'AK', name: 'Alaska' },
  { code: 'AZ', name: 'Arizona' },
  { code: 'AR', name: 'Arkansas' },
  { code: 'CA', name: 'California' },
  { code: 'CO', name: 'Colorado' },
  { code: 'CT', name: 'Connecticut' },
  { code: 'DE', name: 'Delaware' },
  { code: 'DC', name: 'District of Columbia' },
  { code: 'FL', name: 'Florida' },
  { code: 'GA', name: 'Georgia' },
  { code: 'HI', name: 'Hawaii' },
  { code: 'ID', name: 'Idaho' },
  { code: 'IL', name: 'Illinois' },
  { code: 'IN', name: 'Indiana' },
  { code: 'IA', name: 'Iowa' },
  { code: 'KS', name: 'Kansas' },
  { code: 'KY', name: 'Kentucky' },
  { code: 'LA', name: 'Louisiana' },
  { code: 'ME', name: 'Maine' },
  { code: 'MD', name: 'Maryland' },
  { code: 'MA', name: 'Massachusetts' },
  { code: 'MI', name: 'Michigan' },
  { code: 'MN', name: 'Minnesota' },
  { code: 'MS', name: 'Mississippi' },
  { code: 'MO', name: 'Missouri' },
  { code: 'MT', name: 'Montana' },
  { code: 'NE', name: 'Nebraska' },
  { code: 'NV', name: 'Nevada' },
  { code: 'NH', name: 'New Hampshire' },
  { code: 'NJ', name: 'New Jersey' },
  { code: 'NM', name: 'New Mexico' },
  { code: 'NY', name: 'New York' },
  { code: 'NC', name: 'North Carolina' },
  { code: 'ND', name: 'North Dakota' },
  { code: 'OH', name: 'Ohio' },
  { code: 'OK', name: 'Oklahoma' },
  { code: 'OR', name: 'Oregon' },
  { code: 'PA', name: 'Pennsylvania' },
  { code: 'RI', name: 'Rhode Island' },
  { code: 'SC', name: 'South Carolina' },
  { code: 'SD', name: 'South Dakota' },
  { code: 'TN', name: 'Tennessee' },
  { code: 'TX', name: 'Texas' },
  { code: 'UT', name: 'Utah' },
  { code: 'VT', name: 'Vermont' },
  { code: 'VA', name: 'Virginia' },
  { code: 'WA', name: 'Washington' },
  { code: 'WV', name: 'West Virginia' },
  { code: 'WI', name: 'Wisconsin' },
  { code: 'WY', name: 'Wyoming' },
] as const

export type UsStateCode = (typeof US_STATES)[number]['code']

/** Default shipping and billing country (docs/product.md#limits). */
export const DEFAULT_COUNTRY = 'US'

/** docs/product.md#accounts. */
export const PASSWORD_MIN_LENGTH = 6

/** Exact two-letter code as the state picker submits it ('CA', not 'ca' or 'California'). */
export function isUsState(code: unknown): code is UsStateCode {
  return US_STATES.some((state) => state.code === code)
}

/** 12345 or ZIP+4 12345-6789. */
export function isUsZip(zip: unknown): boolean {
  return typeof zip === 'string' && /^\d{5}(?:-\d{4})?$/.test(zip)
}

// RFC 5321: a path is at most 256 octets with its angle brackets, a local part at most 64, a label 63.
const EMAIL_MAX_LENGTH = 254
const LOCAL_PART_MAX_LENGTH = 64

/**
 * Characters that never belong in an address we store and mail to: control characters (a NUL or a line
 * break ends up in a mail header), bidi and invisible format characters (an address that reads
 * differently from what it is), markup and whitespace (an address shown on a page or in a log). Checked
 * on their own, before the shape, so the refusal holds even if the shape below is ever widened.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff<>"'`\s]/

/** RFC 5322 dot-atom in ASCII: letters, digits and !#$%&*+/=?^_{|}~- in dot-separated runs (no quoted forms). */
const LOCAL_PART = /^[A-Za-z0-9!#$%&*+/=?^_{|}~-]+(?:\.[A-Za-z0-9!#$%&*+/=?^_{|}~-]+)*$/
/** A host name label: letters, digits and inner hyphens, 1 to 63 characters. */
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/
/** Top-level domains are letters only (com, uk, museum); this also rules out bare IP addresses. */
const TOP_LEVEL_DOMAIN = /^[A-Za-z]{2,63}$/

/**
 * The one e-mail rule of the shop, used by every form and endpoint that takes an address: no unsafe
 * characters, one '@', a dot-atom local part of at most 64 characters, a domain of at least two labels
 * with a letters-only top-level domain, at most 254 characters in all. Deliverability is proven by the
 * mail we send, not by a regex; this only keeps out what cannot be a mailbox or would harm where it is shown.
 */
export function isEmail(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > EMAIL_MAX_LENGTH || UNSAFE_CHARACTER.test(value)) {
    return false
  }
  const parts = value.split('@')
  if (parts.length !== 2) return false
  const [local = '', domain = ''] = parts
  if (local.length > LOCAL_PART_MAX_LENGTH || !LOCAL_PART.test(local)) return false
  const labels = domain.split('.')
  const topLevel = labels[labels.length - 1] ?? ''
  return (
    labels.length >= 2 && labels.every((label) => DOMAIN_LABEL.test(label)) && TOP_LEVEL_DOMAIN.test(topLevel)
  )
}
