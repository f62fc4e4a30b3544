/**
 * Money rules shared by the site and the API.
 *
 * Below the UI every amount is an integer number of US cents: binary floating point cannot hold 0.10
 * exactly, so dollars are parsed from their decimal text and never multiplied as floats.
 */

/**
 * The currency every checkout session is charged in (the payment providers' lower-case ISO code). A payment
 * event in any other currency is not the money the session asked for, whatever its amount says.
 */
export const CHARGE_CURRENCY = 'usd'

/** The payment provider refuses charges below $0.50 (docs/product.md#limits), so checkout stops before asking it. */
export const MIN_CHARGE_CENTS = 50

// Whole dollars, optionally followed by one or two decimals: '21', '21.5', '21.00'.
const DOLLAR_TEXT = /^(\d+)(?:\.(\d{1,2}))?$/

/**
 * Parses a dollar amount ('21.00', 21, '21') into cents, or null when it is not a usable price:
 * NaN, negative, empty, or finer than a cent. Numbers go through their shortest decimal text, so
 * 0.1 + 0.2 (0.30000000000000004) is refused instead of being silently rounded.
 */
export function dollarsToCents(value: string | number): number | null {
  let text: string
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null
    text = String(value) // exponent forms such as 1e-7 or 1e+21 fail the pattern below
  } else if (typeof value === 'string') {
    text = value.trim()
  } else {
    return null
  }
  const match = DOLLAR_TEXT.exec(text)
  if (!match) return null
  const whole = Number(match[1])
  const fraction = Number((match[2] ?? '').padEnd(2, '0'))
  const cents = whole * 100 + fraction
  return Number.isSafeInteger(cents) ? cents : null
}

function assertCents(cents: number): void {
  // A fractional cent means a bug upstream; formatting it would hide the bug behind a rounded number.
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a safe integer (got ${cents})`)
}

/** 2100 → '21.00'; the exact inverse of dollarsToCents for non-negative cents. */
export function centsToDollars(cents: number): string {
  assertCents(cents)
  const sign = cents < 0 ? '-' : ''
  const absolute = Math.abs(cents)
  const fraction = String(absolute % 100).padStart(2, '0')
  return `${sign}${Math.floor(absolute / 100)}.${fraction}`
}

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  // Values that round to zero (-0, -0.001) show as '$0.00', not '-$0.00'.
  signDisplay: 'negative',
})

// Plain decimal numerals only: Number() would also accept '0x10', 'Infinity' and '' (as 0).
const NUMERIC_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i

/**
 * Formats a dollar value for display (docs/product.md#forms): numbers and numeric strings become '$1,234.50',
 * anything else (null, 'abc', NaN, objects) becomes '$0.00' so a broken record never breaks a page.
 */
export function formatCurrency(value: unknown): string {
  let amount: number
  if (typeof value === 'number') {
    amount = value
  } else if (typeof value === 'string' && NUMERIC_TEXT.test(value.trim())) {
    amount = Number(value.trim())
  } else {
    return usd.format(0)
  }
  return Number.isFinite(amount) ? usd.format(amount) : usd.format(0)
}

/** 123450 → '$1,234.50', built from the integer so no float rounding is involved. */
export function formatCents(cents: number): string {
  assertCents(cents)
  const sign = cents < 0 ? '-' : ''
  const [whole = '0', fraction = '00'] = centsToDollars(Math.abs(cents)).split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${sign}$${grouped}.${fraction}`
}

/** No cart in this shop comes near this; a subtotal or a code's figure above it is a typo or a probe. */
export const MAX_SUBTOTAL_CENTS = 100_000_00
