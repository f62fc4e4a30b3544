import { expect, test } from 'bun:test'
import * as rules from '../../../api/rules'

test('the rules index exposes every module', () => {
  for (const name of [
    'dollarsToCents',
    'formatCurrency',
    'allocateDiscount',
    'chargeableLines',
    'packageForItemCount',
    'qualifiesForFreeShipping',
    'normalizeCategory',
    'searchProducts',
    'canMove',
    'isEmail',
  ]) {
    expect(typeof (rules as Record<string, unknown>)[name]).toBe('function')
  }
})
