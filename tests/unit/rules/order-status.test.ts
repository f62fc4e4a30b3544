import { describe, expect, test } from 'bun:test'
import {
  canMove,
  formatOrderNumber,
  isOrderStatus,
  ORDER_STATUSES,
  type OrderStatus,
  statusesThatCanMoveTo,
  statusLabel,
} from '@core/rules/order-status'

test('statuses in lifecycle order', () => {
  expect(ORDER_STATUSES).toEqual(['pending', 'processing', 'label_created', 'shipped', 'failed'])
  expect(isOrderStatus('shipped')).toBe(true)
  expect(isOrderStatus('SHIPPED')).toBe(false)
  expect(isOrderStatus('cancelled')).toBe(false)
})

describe('statusLabel (upper case, first underscore as a space)', () => {
  test.each([
    ['pending', 'PENDING'],
    ['label_created', 'LABEL CREATED'],
    ['failed', 'FAILED'],
    ['some_other_state', 'SOME OTHER_STATE'],
  ])('%p → %p', (status, label) => {
    expect(statusLabel(status)).toBe(label)
  })
})

describe('canMove', () => {
  const allowed: [OrderStatus, OrderStatus][] = [
    ['pending', 'processing'],
    ['processing', 'label_created'],
    ['label_created', 'shipped'],
    ['processing', 'failed'],
    ['label_created', 'failed'],
    ['failed', 'processing'],
  ]

  test('every pair of statuses: only the listed moves are allowed', () => {
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        const expected = allowed.some(([a, b]) => a === from && b === to)
        expect({ from, to, allowed: canMove(from, to) }).toEqual({ from, to, allowed: expected })
      }
    }
  })

  test('shipped is final and nothing skips a step', () => {
    expect(ORDER_STATUSES.some((to) => canMove('shipped', to))).toBe(false)
    expect(canMove('pending', 'shipped')).toBe(false)
    expect(canMove('pending', 'label_created')).toBe(false)
    expect(canMove('failed', 'shipped')).toBe(false)
  })

  test('statusesThatCanMoveTo gives the WHERE clause for a conditional update', () => {
    expect(statusesThatCanMoveTo('processing')).toEqual(['pending', 'failed'])
    expect(statusesThatCanMoveTo('failed')).toEqual(['processing', 'label_created'])
    expect(statusesThatCanMoveTo('shipped')).toEqual(['label_created'])
    expect(statusesThatCanMoveTo('pending')).toEqual([])
  })
})

describe('formatOrderNumber', () => {
  test.each([
    [42, '000042'],
    [1, '000001'],
    [0, '000000'],
    [123456, '123456'],
    [1234567, '1234567'],
  ])('%p → %p', (n, text) => {
    expect(formatOrderNumber(n)).toBe(text)
  })

  test('refuses numbers that are not order numbers', () => {
    expect(() => formatOrderNumber(-1)).toThrow(RangeError)
    expect(() => formatOrderNumber(4.2)).toThrow(RangeError)
    expect(() => formatOrderNumber(Number.NaN)).toThrow(RangeError)
  })
})
