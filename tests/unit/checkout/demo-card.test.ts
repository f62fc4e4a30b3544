import { describe, expect, test } from 'bun:test'
import { demoCardProblems } from '@core/rules/demo-card'
import { checkDemoCard } from '../../../api/adapters/demo-payments'

const NOW = new Date('2026-03-02T15:00:00Z')
const GOOD = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', name: 'Dana Cole' }

describe('demo card rules', () => {
  test('the 4242 test card pays with any future expiry and any 3-digit code', () => {
    for (const card of [
      GOOD,
      { ...GOOD, cardNumber: '4242424242424242', expiry: '03/26', cvc: '000' },
      { ...GOOD, cardNumber: '4242-4242-4242-4242', expiry: '1 / 2031' },
      { ...GOOD, expiry: '07/2029' },
    ]) {
      expect(checkDemoCard(card, NOW)).toEqual({ ok: true })
    }
  })

  test('the 0002 test card is declined with 402 and a clear message', () => {
    expect(checkDemoCard({ ...GOOD, cardNumber: '4000 0000 0000 0002' }, NOW)).toEqual({
      ok: false,
      status: 402,
      message: 'Your card was declined. No payment was taken.',
    })
  })

  test('any other valid number is declined, naming the test card', () => {
    const result = checkDemoCard({ ...GOOD, cardNumber: '5555 5555 5555 4444' }, NOW)
    expect(result).toMatchObject({ ok: false, status: 402 })
    expect(result.ok ? '' : result.message).toContain('4242 4242 4242 4242')
  })

  test.each([
    [{ cardNumber: '4242 4242 4242 4241' }, 'Your card number is invalid.'],
    [{ cardNumber: '4242' }, 'Your card number is invalid.'],
    [{ cardNumber: 'abcd efgh ijkl mnop' }, 'Your card number is invalid.'],
    [{ expiry: '02/26' }, 'Your card has expired.'],
    [{ expiry: '13/30' }, 'Please enter the expiry date as MM/YY.'],
    [{ expiry: '1230' }, 'Please enter the expiry date as MM/YY.'],
    [{ cvc: '12' }, "Please enter the card's 3-digit security code."],
    [{ cvc: '12a' }, "Please enter the card's 3-digit security code."],
    [{ name: '  ' }, 'Please enter the name on the card.'],
  ])('%p → 422 %p', (change, message) => {
    expect(checkDemoCard({ ...GOOD, ...change }, NOW)).toEqual({ ok: false, status: 422, message })
  })

  test('the rules name every field at once (for the form); the provider answers the first, the name first', () => {
    const card = { cardNumber: '4242 4242 4242 4241', expiry: '02/26', cvc: '12', name: '' }
    expect(demoCardProblems(card, NOW)).toEqual({
      cardNumber: 'Your card number is invalid.',
      expiry: 'Your card has expired.',
      cvc: "Please enter the card's 3-digit security code.",
      name: 'Please enter the name on the card.',
    })
    expect(checkDemoCard(card, NOW)).toEqual({
      ok: false,
      status: 422,
      message: 'Please enter the name on the card.',
    })
    expect(checkDemoCard({ ...card, name: 'Dana Cole' }, NOW)).toMatchObject({
      message: 'Your card number is invalid.',
    })
  })

  test('a card is good through the last day of its expiry month', () => {
    expect(checkDemoCard({ ...GOOD, expiry: '03/26' }, new Date('2026-03-31T23:59:59Z')).ok).toBe(true)
    expect(checkDemoCard({ ...GOOD, expiry: '03/26' }, new Date('2026-04-01T00:00:00Z')).ok).toBe(false)
  })
})
