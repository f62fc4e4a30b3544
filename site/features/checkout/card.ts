/**
 * The demo test-card form's input shaping and checks. The server decides whether a card pays; these catch
 * empty or half-typed fields and the fields its rules would refuse (core/rules/demo-card.ts), and say which
 * field a server message is about.
 */
import { demoCardProblems } from '@core/rules/demo-card'

export interface CardInput {
  cardNumber: string
  expiry: string
  cvc: string
  name: string
}

export type CardField = keyof CardInput

export type CardErrors = Partial<Record<CardField, string>>

export const CARD_FIELDS: readonly CardField[] = ['cardNumber', 'expiry', 'cvc', 'name']

/** '4242424242424242' → '4242 4242 4242 4242' (at most 19 digits). */
export function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 19)
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ')
}

/** '1', '12', '123' → '1', '12/', '12/3': the slash appears as the month is complete. */
export function formatExpiry(value: string, previous = ''): string {
  const digits = value.replace(/\D/g, '').slice(0, 4)
  // Deleting the slash should delete it, not have it come straight back.
  if (previous.endsWith('/') && value.length < previous.length) return digits.slice(0, 1)
  if (digits.length === 0) return ''
  // A first digit above 1 can only be a one-digit month: 4 → 04/.
  const padded = digits.length === 1 && Number(digits) > 1 ? `0${digits}` : digits
  if (padded.length < 2) return padded
  return `${padded.slice(0, 2)}/${padded.slice(2)}`
}

export function formatCvc(value: string): string {
  return value.replace(/\D/g, '').slice(0, 4)
}

/**
 * Every field to fix, in form order, all at once: an empty or half-typed one says what to type, and one the
 * demo provider would refuse (core/rules/demo-card.ts: the number's checksum, a month past or not a month,
 * a code of other than 3 digits) says what it would answer. `now` dates the expiry, as the provider will.
 */
export function cardErrors(card: CardInput, now = new Date()): CardErrors {
  const incomplete: CardErrors = {}
  if (card.cardNumber.replace(/\D/g, '').length < 12) incomplete.cardNumber = 'Enter the card number.'
  if (!/^\d{2}\/\d{2}$/.test(card.expiry.trim())) incomplete.expiry = 'Enter the expiry date as MM/YY.'
  if (!/^\d{3,4}$/.test(card.cvc.trim())) incomplete.cvc = 'Enter the 3-digit security code.'
  if (card.name.trim() === '') incomplete.name = 'Enter the name on the card.'
  const refused = demoCardProblems(card, now)
  const errors: CardErrors = {}
  for (const field of CARD_FIELDS) {
    const message = incomplete[field] ?? refused[field]
    if (message) errors[field] = message
  }
  return errors
}

/** Which field a server message is about (the demo provider names it), or null for the whole form. */
export function fieldForCardMessage(message: string): CardField | null {
  const text = message.toLowerCase()
  if (text.includes('declined')) return null
  if (text.includes('name on the card')) return 'name'
  if (text.includes('card number')) return 'cardNumber'
  // The card's date only: a checkout session that expired is about the whole page, not this field.
  if (text.includes('card has expired') || text.includes('expiry date')) return 'expiry'
  if (text.includes('security code') || text.includes('cvc')) return 'cvc'
  return null
}
