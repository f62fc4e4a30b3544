import { describe, expect, test } from 'bun:test'
import { badgeTone, statusLabel } from '@core/rules/order-status'
import { parseProductWeight } from '@core/rules/product-weight'
import { readConfig } from '../../api/env'
import { isTimeZone, startOfDay } from '../../api/lib/time-zone'
import { labelSource } from '../../api/modules/orders/label'

describe("the shop's day", () => {
  test('starts at midnight in the shop’s time zone, across daylight-saving moves', () => {
    const chicago = 'America/Chicago'
    // CST (UTC−6) in winter.
    expect(startOfDay(new Date('2026-03-02T15:00:00Z'), chicago).toISOString()).toBe(
      '2026-03-02T06:00:00.000Z',
    )
    // Still March 1st in Chicago at 05:59 UTC.
    expect(startOfDay(new Date('2026-03-02T05:59:00Z'), chicago).toISOString()).toBe(
      '2026-03-01T06:00:00.000Z',
    )
    // CDT (UTC−5) in summer.
    expect(startOfDay(new Date('2026-07-04T12:00:00Z'), chicago).toISOString()).toBe(
      '2026-07-04T05:00:00.000Z',
    )
    // The day clocks spring forward (March 8th 2026): midnight was still CST.
    expect(startOfDay(new Date('2026-03-08T20:00:00Z'), chicago).toISOString()).toBe(
      '2026-03-08T06:00:00.000Z',
    )
    // The day clocks fall back (November 1st 2026): midnight was still CDT.
    expect(startOfDay(new Date('2026-11-01T20:00:00Z'), chicago).toISOString()).toBe(
      '2026-11-01T05:00:00.000Z',
    )
    // Where the clocks jump over midnight (Santiago, September 6th 2026: 00:00 becomes 01:00, -04:00 to
    // -03:00), the day begins at the jump, not at a midnight that never happened on the day before.
    expect(startOfDay(new Date('2026-09-06T15:00:00Z'), 'America/Santiago').toISOString()).toBe(
      '2026-09-06T04:00:00.000Z',
    )
    expect(startOfDay(new Date('2026-03-02T15:00:00Z'), 'UTC').toISOString()).toBe('2026-03-02T00:00:00.000Z')
    expect(startOfDay(new Date('2026-03-02T15:00:00Z'), 'Asia/Tokyo').toISOString()).toBe(
      '2026-03-02T15:00:00.000Z',
    )
  })

  test('SHOP_TIME_ZONE defaults to America/Chicago and must be a real zone', () => {
    expect(readConfig({}).shopTimeZone).toBe('America/Chicago')
    expect(readConfig({ SHOP_TIME_ZONE: 'Europe/London' }).shopTimeZone).toBe('Europe/London')
    expect(() => readConfig({ SHOP_TIME_ZONE: 'Mars/Olympus' })).toThrow(
      'SHOP_TIME_ZONE must be an IANA time zone name such as America/Chicago (got "Mars/Olympus")',
    )
    expect(isTimeZone('America/Chicago')).toBe(true)
  })
})

describe('product weight', () => {
  test.each([
    [2, 20],
    [2.5, 25],
    [0.1, 1],
    [1000, 10000],
    [1.1, 11],
    [2.3, 23],
    ['3.5', 35],
    [' 12 ', 120],
  ])('%p oz is %p tenths', (input, tenths) => {
    expect(parseProductWeight(input)).toBe(tenths)
  })

  test.each([
    [0],
    [-1],
    [0.04],
    [2.55],
    [1000.1],
    [1e9],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    ['text'],
    ['NaN'],
    ['1e3'],
    [''],
    [null],
    [undefined],
    [true],
  ])('%p is refused', (input) => {
    expect(parseProductWeight(input)).toBeNull()
  })
})

describe('status badges', () => {
  test('label rule and colour families', () => {
    expect(statusLabel('label_created')).toBe('LABEL CREATED')
    expect(badgeTone('label_created')).toBe('completed')
    expect(badgeTone('processed')).toBe('completed')
    expect(badgeTone('processing')).toBe('processing')
    expect(badgeTone('pending')).toBe('processing')
    expect(badgeTone('shipped')).toBe('shipped')
    expect(badgeTone('failed')).toBe('failed')
    expect(badgeTone('ignored')).toBe('other')
    // Orders that are over: no action waits on them.
    expect(badgeTone('cancelled')).toBe('other')
    expect(badgeTone('refunded')).toBe('other')
  })
})

describe('label source', () => {
  const dir = '/srv/shop/data/labels'
  test('a file inside the labels folder, or an https address', () => {
    expect(labelSource('file:///srv/shop/data/labels/order-000042-9400.pdf', dir)).toEqual({
      kind: 'file',
      path: '/srv/shop/data/labels/order-000042-9400.pdf',
    })
    expect(labelSource('https://labels.example/x.pdf', dir)).toEqual({
      kind: 'redirect',
      url: 'https://labels.example/x.pdf',
    })
  })

  test.each([
    [null],
    [''],
    ['file:///etc/passwd'],
    ['file:///srv/shop/data/labels/../shop.db'],
    ['file:///srv/shop/data/labels/%2e%2e/secret.pdf'],
    ['file:///srv/shop/data/labels-other/x.pdf'],
    ['file:///srv/shop/data/labels/notes.txt'],
    ['http://labels.example/x.pdf'],
    ['javascript:alert(1)'],
    ['not a url'],
  ])('%p is not served', (url) => {
    expect(labelSource(url, dir)).toBeNull()
  })
})
