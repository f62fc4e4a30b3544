/**
 * What the demo payment provider asks of a test card's fields (docs/product.md#checkout), shared by the
 * provider (api/adapters/demo-payments.ts), which refuses the first it finds, and the demo card form, which
 * names every one before anything is sent. Whether a good card pays is the provider's alone.
 */

export interface DemoCardFields {
  cardNumber: string
  expiry: string
  cvc: string
  name: string
}

export type DemoCardField = keyof DemoCardFields

export const CARD_NUMBER_INVALID = 'Your card number is invalid.'
export const EXPIRY_INVALID = 'Please enter the expiry date as MM/YY.'
export const CARD_EXPIRED = 'Your card has expired.'
export const CVC_INVALID = "Please enter the card's 3-digit security code."
export const NAME_MISSING = 'Please enter the name on the card.'

/** The Luhn checksum every card number carries. */
function luhn(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

/** The card number's digits, without the spaces and dashes people type between them. */
export function cardDigits(cardNumber: string): string {
  return cardNumber.replace(/[\s-]/g, '')
}

/**
 * Every field of the card that cannot pay, in form order (number, expiry, code, name), each with what to
 * fix: a number of 12 to 19 digits passing its checksum, an expiry 'MM/YY' (or 'MM/YYYY') not past on
 * `now` (a card is good through the last day of its month), a 3-digit code and a name. Empty when none.
 */
export function demoCardProblems(card: DemoCardFields, now: Date): Partial<Record<DemoCardField, string>> {
  const problems: Partial<Record<DemoCardField, string>> = {}
  const number = cardDigits(card.cardNumber)
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) problems.cardNumber = CARD_NUMBER_INVALID
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(card.expiry)
  const month = Number(expiry?.[1])
  if (!expiry || month < 1 || month > 12) problems.expiry = EXPIRY_INVALID
  else {
    const yearText = expiry[2] ?? ''
    const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText)
    if (now.getTime() >= Date.UTC(year, month, 1)) problems.expiry = CARD_EXPIRED
  }
  if (!/^\d{3}$/.test(card.cvc.trim())) problems.cvc = CVC_INVALID
  if (card.name.trim() === '') problems.name = NAME_MISSING
  return problems
}
