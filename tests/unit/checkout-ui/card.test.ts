import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import {
  cardErrors,
  fieldForCardMessage,
  formatCardNumber,
  formatCvc,
  formatExpiry,
} from '../../../site/features/checkout/card'

describe('card input shaping', () => {
  test('card numbers are grouped by four', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242')
    expect(formatCardNumber('4000-0000 0000x0002')).toBe('4000 0000 0000 0002')
    expect(formatCardNumber('42424')).toBe('4242 4')
  })

  test('formatting is idempotent and keeps at most 19 digits', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const once = formatCardNumber(text)
        expect(formatCardNumber(once)).toBe(once)
        expect(once.replace(/\D/g, '').length).toBeLessThanOrEqual(19)
      }),
    )
  })

  test('expiry gets its slash', () => {
    expect(formatExpiry('1')).toBe('1')
    expect(formatExpiry('12')).toBe('12/')
    expect(formatExpiry('1230')).toBe('12/30')
    expect(formatExpiry('4')).toBe('04/')
    expect(formatExpiry('12/345')).toBe('12/34')
  })

  test('deleting the slash deletes it', () => {
    expect(formatExpiry('12', '12/')).toBe('1')
  })

  test('cvc keeps digits only', () => {
    expect(formatCvc('1a2b3c4d5')).toBe('1234')
  })
})

describe('cardErrors', () => {
  test('empty form names every field', () => {
    expect(Object.keys(cardErrors({ cardNumber: '', expiry: '', cvc: '', name: '' }))).toEqual([
      'cardNumber',
      'expiry',
      'cvc',
      'name',
    ])
  })

  const NOW = new Date('2026-03-02T15:00:00Z')

  test("a card the demo provider takes has none (whether it pays is the server's to say)", () => {
    const good = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', name: 'Sam' }
    expect(cardErrors(good, NOW)).toEqual({})
    expect(cardErrors({ ...good, cardNumber: '4000 0000 0000 0002' }, NOW)).toEqual({})
    expect(cardErrors({ ...good, expiry: '03/26' }, NOW)).toEqual({})
  })

  test('every field the demo provider would refuse is named at once, in form order, as it words it', () => {
    expect(
      cardErrors({ cardNumber: '4242 4242 4242 4241', expiry: '02/26', cvc: '1234', name: 'Sam' }, NOW),
    ).toEqual({
      cardNumber: 'Your card number is invalid.',
      expiry: 'Your card has expired.',
      cvc: "Please enter the card's 3-digit security code.",
    })
    expect(
      cardErrors({ cardNumber: '4242 4242 4242 4242', expiry: '13/30', cvc: '123', name: ' ' }, NOW),
    ).toEqual({ expiry: 'Please enter the expiry date as MM/YY.', name: 'Enter the name on the card.' })
  })

  test('a half-typed field says what to type, beside the others refused', () => {
    const errors = cardErrors({ cardNumber: '4242', expiry: '01/20', cvc: '', name: 'Sam' }, NOW)
    expect(errors).toEqual({
      cardNumber: 'Enter the card number.',
      expiry: 'Your card has expired.',
      cvc: 'Enter the 3-digit security code.',
    })
  })
})

describe('fieldForCardMessage', () => {
  test('maps the demo provider messages to fields', () => {
    expect(fieldForCardMessage('Please enter the name on the card.')).toBe('name')
    expect(fieldForCardMessage('Your card number is invalid.')).toBe('cardNumber')
    expect(fieldForCardMessage('Your card has expired.')).toBe('expiry')
    expect(fieldForCardMessage('Please enter the expiry date as MM/YY.')).toBe('expiry')
    expect(fieldForCardMessage("Please enter the card's 3-digit security code.")).toBe('cvc')
  })

  test('a decline, and a session that ended, are about the whole form', () => {
    expect(fieldForCardMessage('Your card was declined. No payment was taken.')).toBeNull()
    expect(
      fieldForCardMessage('This checkout session has expired. Please return to your cart and try again.'),
    ).toBeNull()
    expect(fieldForCardMessage('Checkout session not found.')).toBeNull()
    expect(
      fieldForCardMessage(
        'Your card was declined. This demo checkout accepts the test card 4242 4242 4242 4242.',
      ),
    ).toBeNull()
  })
})
