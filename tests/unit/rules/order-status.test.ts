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
  expect(ORDER_STATUSES).toEqual([
    'pending',
    'processing',
    'label_created',
    'shipped',
    'failed',
    'cancelled',
    'refunded',
  ])
  expect(isOrderStatus('shipped')).toBe(true)
  expect(isOrderStatus('cancelled')).toBe(true)
  expect(isOrderStatus('SHIPPED')).toBe(false)
  expect(isOrderStatus('canceled')).toBe(false)
})

describe('statusLabel (upper case, first underscore as a space)', () => {
  test.each([
    ['pending', 'PENDING'],
    ['label_created', 'LABEL CREATED'],
    ['failed', 'FAILED'],
    ['cancelled', 'CANCELLED'],
    ['refunded', 'REFUNDED'],
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
    // Cancel: any order that has not shipped (the server also checks that it never shipped).
    ...(['pending', 'processing', 'label_created', 'failed', 'refunded'] as const).map(
      (from) => [from, 'cancelled'] as [OrderStatus, OrderStatus],
    ),
    // Nothing left to refund: any order not cancelled, shipped ones too.
    ...(['pending', 'processing', 'label_created', 'shipped', 'failed'] as const).map(
      (from) => [from, 'refunded'] as [OrderStatus, OrderStatus],
    ),
    // A refund that fails later gives the order back the status it had.
    ...(['pending', 'processing', 'label_created', 'shipped', 'failed'] as const).map(
      (to) => ['refunded', to] as [OrderStatus, OrderStatus],
    ),
  ]

  test('every pair of statuses: only the listed moves are allowed', () => {
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        const expected = allowed.some(([a, b]) => a === from && b === to)
        expect({ from, to, allowed: canMove(from, to) }).toEqual({ from, to, allowed: expected })
      }
    }
  })

  test('cancelled is final, shipped only refunds, and nothing skips a step', () => {
    expect(ORDER_STATUSES.some((to) => canMove('cancelled', to))).toBe(false)
    expect(ORDER_STATUSES.filter((to) => canMove('shipped', to))).toEqual(['refunded'])
    expect(canMove('shipped', 'cancelled')).toBe(false)
    expect(canMove('pending', 'shipped')).toBe(false)
    expect(canMove('pending', 'label_created')).toBe(false)
    expect(canMove('failed', 'shipped')).toBe(false)
  })

  test('statusesThatCanMoveTo gives the WHERE clause for a conditional update', () => {
    expect(statusesThatCanMoveTo('processing')).toEqual(['pending', 'failed', 'refunded'])
    expect(statusesThatCanMoveTo('failed')).toEqual(['processing', 'label_created', 'refunded'])
    expect(statusesThatCanMoveTo('shipped')).toEqual(['label_created', 'refunded'])
    expect(statusesThatCanMoveTo('cancelled')).toEqual([
      'pending',
      'processing',
      'label_created',
      'failed',
      'refunded',
    ])
    // Only a failed refund gives an order back its first status.
    expect(statusesThatCanMoveTo('pending')).toEqual(['refunded'])
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

test('an order may not have shipped yet in the statuses Cancel takes; a refunded one only if it never shipped', () => {
  // What a count of the shelf leaves out is held by these orders (docs/decisions/026): never shipped or
  // cancelled ones. A refunded order goes back to the status it had when a refund fails, shipped too, so
  // the shop asks its history; the others have never shipped.
  const beforeShipping = statusesThatCanMoveTo('cancelled')
  expect(beforeShipping).toEqual(['pending', 'processing', 'label_created', 'failed', 'refunded'])
  expect(beforeShipping).not.toContain('shipped')
  expect(beforeShipping).not.toContain('cancelled')
})
