import { expect, test } from 'bun:test'
import { statedMinimumCents, termsFromAnswer } from '../../../site/features/cart/discount'

test('percentage answers keep their percent', () => {
  expect(termsFromAnswer({ code: 'GRIT15', type: 'percentage', amount: 15, discountCents: 315 })).toEqual({
    code: 'GRIT15',
    type: 'percentage',
    amount: 15,
  })
})

test('fixed answers travel in dollars and are kept in cents', () => {
  expect(termsFromAnswer({ code: 'SAVE5', type: 'fixed', amount: 5, discountCents: 500 })).toEqual({
    code: 'SAVE5',
    type: 'fixed',
    amount: 500,
  })
})

test('a stated minimum is kept in cents; none, or one that is not an amount, is left out', () => {
  const answer = { code: 'SAVE5', type: 'fixed', amount: 5, discountCents: 500 }
  expect(termsFromAnswer({ ...answer, minSubtotal: 20 })).toEqual({
    code: 'SAVE5',
    type: 'fixed',
    amount: 500,
    minSubtotalCents: 2000,
  })
  for (const minSubtotal of [0, -5, 'twenty', Number.NaN]) {
    expect(termsFromAnswer({ ...answer, minSubtotal })).toEqual({ code: 'SAVE5', type: 'fixed', amount: 500 })
  }
})

test('anything that is not a discount is refused', () => {
  for (const answer of [
    null,
    'GRIT15',
    {},
    { code: '', type: 'percentage', amount: 10 },
    { code: 'X', type: 'bogus', amount: 5 },
    { code: 'X', type: 'fixed', amount: 0 },
    { code: 'X', type: 'percentage', amount: 1.5 },
  ]) {
    expect(termsFromAnswer(answer)).toBeNull()
  }
})

test('a refusal that names the minimum gives it in cents; any other refusal names none', () => {
  expect(statedMinimumCents({ error: 'This code needs an order of at least $20.00.', minSubtotal: 20 })).toBe(
    2000,
  )
  for (const data of [
    { error: 'This discount code has expired.' },
    { minSubtotal: 0 },
    { minSubtotal: '20' },
    { minSubtotal: -1 },
    null,
    undefined,
  ]) {
    expect(statedMinimumCents(data)).toBeNull()
  }
})
