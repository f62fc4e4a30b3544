// The pure parts of staff's order search and export: what the search text means, the date filters, CSV
// cells a spreadsheet opens safely, and the shop's days and times in its own time zone.
import { describe, expect, test } from 'bun:test'
import {
  ORDER_QUERY_MAX_LENGTH,
  orderQueryProblem,
  parseCalendarDate,
  parseOrderQuery,
} from '@core/rules/order-search'
import { csvCell, csvRow } from '../../api/lib/csv'
import { DomainError } from '../../api/lib/domain-errors'
import { isoInTimeZone, lastDays, localDate, startOfLocalDate } from '../../api/lib/time-zone'
import { orderCriteria } from '../../api/modules/dashboard/service'

describe('search text', () => {
  test.each([
    ['42', { kind: 'number', number: 42 }],
    ['000042', { kind: 'number', number: 42 }],
    ['#000042', { kind: 'number', number: 42 }],
    ['  # 42 ', { kind: 'number', number: 42 }],
    ['dana@example.com', { kind: 'email', text: 'dana@example.com' }],
    ['Dana@', { kind: 'email', text: 'Dana@' }],
    ['  Dana   Cole ', { kind: 'name', text: 'Dana Cole' }],
    ['dana.c', { kind: 'name', text: 'dana.c' }],
    // Too long for an order number: a name (or an e-mail's start) made of digits.
    ['1234567890', { kind: 'name', text: '1234567890' }],
    ['#', { kind: 'name', text: '#' }],
    ['42a', { kind: 'name', text: '42a' }],
  ])('%p is %p', (raw, expected) => {
    expect(parseOrderQuery(raw)).toEqual(expected as ReturnType<typeof parseOrderQuery>)
  })

  test('blank is no search; longer than the limit is refused with a reason', () => {
    expect(parseOrderQuery('')).toBeNull()
    expect(parseOrderQuery('   ')).toBeNull()
    expect(orderQueryProblem('x'.repeat(ORDER_QUERY_MAX_LENGTH))).toBeNull()
    expect(orderQueryProblem(` ${'x'.repeat(ORDER_QUERY_MAX_LENGTH)} `)).toBeNull()
    expect(orderQueryProblem('x'.repeat(ORDER_QUERY_MAX_LENGTH + 1))).toBe(
      'q must be at most 100 characters: an order number, an e-mail or a name.',
    )
  })
})

describe('date filters', () => {
  test.each([
    ['2026-03-01', { year: 2026, month: 3, day: 1 }],
    ['2028-02-29', { year: 2028, month: 2, day: 29 }],
    ['2026-02-29', null],
    ['2026-04-31', null],
    ['2026-13-01', null],
    ['2026-3-1', null],
    ['1999-12-31', null],
    ['2026-03-01T00:00', null],
    ['yesterday', null],
  ])('%p reads as %p', (raw, expected) => {
    expect(parseCalendarDate(raw)).toEqual(expected)
  })

  test("from and to are the shop's midnights; to ends where the next day begins", () => {
    const criteria = orderCriteria({ from: '2026-03-08', to: '2026-03-08' }, 'America/Chicago')
    // March 8th 2026 in Chicago: CST at midnight, CDT by the next midnight (23 hours).
    expect(criteria.from?.toISOString()).toBe('2026-03-08T06:00:00.000Z')
    expect(criteria.to?.toISOString()).toBe('2026-03-09T05:00:00.000Z')
    const endOfYear = orderCriteria({ to: '2026-12-31' }, 'UTC')
    expect(endOfYear.to?.toISOString()).toBe('2027-01-01T00:00:00.000Z')
    expect(endOfYear.from).toBeUndefined()
  })

  test('a bad value or a reversed range is refused as invalid input, naming the field', () => {
    const refusal = (query: Record<string, string>) => {
      try {
        orderCriteria(query, 'America/Chicago')
      } catch (error) {
        if (error instanceof DomainError) return [error.kind, error.message]
      }
      return null
    }
    expect(refusal({ from: '2026-02-30' })).toEqual(['invalid', 'from must be a date like 2026-03-01.'])
    expect(refusal({ to: 'soon' })).toEqual(['invalid', 'to must be a date like 2026-03-01.'])
    expect(refusal({ from: '2026-03-02', to: '2026-03-01' })).toEqual([
      'invalid',
      'from must be on or before to.',
    ])
    expect(refusal({ status: 'shipped,lost' })?.[0]).toBe('invalid')
    expect(refusal({ q: '#42', status: 'shipped', from: '2026-03-01', to: '2026-03-01' })).toBeNull()
  })
})

describe('CSV cells', () => {
  test.each([
    ['Dana Cole', 'Dana Cole'],
    ['12.50', '12.50'],
    ['Cole, Dana', '"Cole, Dana"'],
    ['Dana "The Beard" Cole', '"Dana ""The Beard"" Cole"'],
    ['two\nlines', '"two\nlines"'],
    ['=1+2', "'=1+2"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1+2', "'\t=1+2"],
    ['\r=1+2', `"'\r=1+2"`],
    ['=HYPERLINK("x","y")', `"'=HYPERLINK(""x"",""y"")"`],
    ['Dana=Cole', 'Dana=Cole'],
    ['', ''],
  ])('%p is written %p', (value, written) => {
    expect(csvCell(value)).toBe(written)
  })

  test('a row ends with CRLF; numbers are written as they are', () => {
    expect(csvRow(['000042', 3, '=x'])).toBe("000042,3,'=x\r\n")
  })
})

describe("the shop's days and times", () => {
  test('an instant as the wall time and offset in the shop', () => {
    expect(isoInTimeZone(new Date('2026-03-02T15:00:00.900Z'), 'America/Chicago')).toBe(
      '2026-03-02T09:00:00-06:00',
    )
    expect(isoInTimeZone(new Date('2026-07-04T15:00:00Z'), 'America/Chicago')).toBe(
      '2026-07-04T10:00:00-05:00',
    )
    expect(isoInTimeZone(new Date('2026-03-01T18:15:00Z'), 'Asia/Kathmandu')).toBe(
      '2026-03-02T00:00:00+05:45',
    )
    expect(isoInTimeZone(new Date('2026-03-01T18:15:00Z'), 'UTC')).toBe('2026-03-01T18:15:00+00:00')
    expect(localDate(new Date('2026-03-02T05:59:00Z'), 'America/Chicago')).toBe('2026-03-01')
  })

  test("a date's midnight, also where clocks change at midnight (Santiago, September 6th 2026)", () => {
    expect(startOfLocalDate({ year: 2026, month: 3, day: 8 }, 'America/Chicago').toISOString()).toBe(
      '2026-03-08T06:00:00.000Z',
    )
    expect(startOfLocalDate({ year: 2026, month: 3, day: 2 }, 'Asia/Tokyo').toISOString()).toBe(
      '2026-03-01T15:00:00.000Z',
    )
    // Chile springs forward at 00:00 to 01:00: the day begins at 01:00 (-03:00), 04:00 UTC.
    expect(startOfLocalDate({ year: 2026, month: 9, day: 6 }, 'America/Santiago').toISOString()).toBe(
      '2026-09-06T04:00:00.000Z',
    )
  })

  test('the last days run back from today, each from its midnight to the next', () => {
    const days = lastDays(new Date('2026-03-10T17:00:00Z'), 'America/Chicago', 30)
    expect(days).toHaveLength(30)
    expect(days[29]).toEqual({
      date: '2026-03-10',
      start: new Date('2026-03-10T05:00:00Z'),
      end: new Date('2026-03-11T05:00:00Z'),
    })
    const changeDay = days.find((day) => day.date === '2026-03-08')
    expect(changeDay && (changeDay.end.getTime() - changeDay.start.getTime()) / 3_600_000).toBe(23)
    expect(days[0]?.date).toBe('2026-02-09')
    for (let index = 1; index < days.length; index++)
      expect(days[index]?.start).toEqual(days[index - 1]?.end as Date)
  })
})
