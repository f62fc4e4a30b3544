import { describe, expect, test } from 'bun:test'
import { afterSignIn, safeNextPath } from '../../site/features/account/redirects'
import { loginUrlFor, signedInGuardScript } from '../../site/features/account/sign-in-guard'
import {
  addressFor,
  barHeights,
  calculatorCount,
  chartMoney,
  dayZoneName,
  exportPath,
  formatDateTime,
  formatDimensions,
  isFiltered,
  ordersPath,
  RETRY_FAILED_FALLBACK,
  refusedValue,
  serverMessageOr,
  shortDay,
  viewFromAddress,
  weightFromField,
} from '../../site/features/dashboard/dashboard-logic'
import { refusedField, stockBody, stockEdit, toShipNote } from '../../site/features/dashboard/stock-edit'
import { ApiError } from '../../site/lib/api'

describe('sign-in and back', () => {
  test('/login?next= returns to a path on this site', () => {
    expect(loginUrlFor('/dashboard')).toBe('/login?next=%2Fdashboard')
    expect(afterSignIn('?next=%2Fdashboard')).toBe('/dashboard')
    expect(afterSignIn('?next=/account/orders%3Fnumber%3D000042')).toBe('/account/orders?number=000042')
    expect(afterSignIn('?checkout=true&next=/dashboard')).toBe('/shipping')
    expect(afterSignIn('')).toBe('/account')
  })

  test.each([
    ['https://evil.example/'],
    ['//evil.example/dashboard'],
    ['/\\evil.example'],
    ['\\\\evil.example'],
    ['javascript:alert(1)'],
    ['dashboard'],
    ['/%0d%0aSet-Cookie:x'.replace('%0d%0a', '\r\n')],
    [''],
  ])('next=%p is not followed', (next) => {
    expect(safeNextPath(`?next=${encodeURIComponent(next)}`)).toBeNull()
    expect(afterSignIn(`?next=${encodeURIComponent(next)}`)).toBe('/account')
  })

  test('the head guard sends visitors without the hint to the given sign-in address', () => {
    const sent: string[] = []
    const run = new Function('document', 'location', signedInGuardScript(loginUrlFor('/dashboard')))
    run({ cookie: '', documentElement: { setAttribute() {} } }, { replace: (url: string) => sent.push(url) })
    run(
      { cookie: 'signed_in=1', documentElement: { setAttribute() {} } },
      { replace: (url: string) => sent.push(url) },
    )
    expect(sent).toEqual(['/login?next=%2Fdashboard'])
  })
})

describe('dashboard fields', () => {
  test.each([
    ['1', 1],
    ['7', 7],
    ['20', 20],
    ['0', 1],
    ['21', 1],
    ['2.5', 1],
    ['', 1],
    ['abc', 1],
    ['-3', 1],
  ])('calculator %p counts as %p', (raw, count) => {
    expect(calculatorCount(raw)).toBe(count)
  })

  test('weights read as ounces with one decimal, or not at all', () => {
    expect(weightFromField('2.5')).toBe(2.5)
    expect(weightFromField('1000')).toBe(1000)
    expect(weightFromField('0')).toBeNull()
    expect(weightFromField('2.55')).toBeNull()
    expect(weightFromField('heavy')).toBeNull()
  })

  test("Retry Failed shows the server's message, else the fallback", () => {
    const conflict = new ApiError(409, 'Order 000042 is SHIPPED: only a FAILED order can be retried.', {
      error: 'Order 000042 is SHIPPED: only a FAILED order can be retried.',
    })
    expect(serverMessageOr(conflict, RETRY_FAILED_FALLBACK)).toBe(
      'Order 000042 is SHIPPED: only a FAILED order can be retried.',
    )
    expect(serverMessageOr(new ApiError(0, 'Could not reach the shop.'), RETRY_FAILED_FALLBACK)).toBe(
      'Failed to retry order processing.',
    )
    expect(serverMessageOr(new ApiError(502, '502: Bad Gateway'), RETRY_FAILED_FALLBACK)).toBe(
      'Failed to retry order processing.',
    )
    expect(serverMessageOr(new Error('boom'), RETRY_FAILED_FALLBACK)).toBe(
      'Failed to retry order processing.',
    )
  })

  test("a value the server refused (422, or 409) is a field's to show; anything else is not", () => {
    const refused = (status: number, error?: string) =>
      refusedValue(new ApiError(status, error ?? `${status}`, error ? { error } : undefined))
    expect(refused(422, 'Weight must be …')).toBe('Weight must be …')
    expect(refused(409, 'This Idempotency-Key was used …')).toBe('This Idempotency-Key was used …')
    expect(refused(404, 'Product not found.')).toBeNull()
    expect(refused(503, 'Busy.')).toBeNull()
    expect(refused(422)).toBeNull()
    expect(refusedValue(new Error('boom'))).toBeNull()
  })

  test('dimensions read as inches', () => {
    expect(formatDimensions({ width: 4.25, length: 7, height: 1 })).toBe('4.25 × 7 × 1 in')
  })
})

describe('the units paid orders still have to ship, beside a stock field', () => {
  test('says how many to leave out of the count, and nothing when there are none', () => {
    expect(toShipNote(3)).toBe('3 in paid orders still to ship: leave them out of the count')
    expect(toShipNote(1)).toBe('1 in a paid order still to ship: leave it out of the count')
    expect(toShipNote(0)).toBeNull()
  })
})

describe('the stock form', () => {
  const scents = [
    { name: 'Alpine', label: 'Alpine Wash (Alpine)' },
    { name: 'Hammered Citrus', label: 'Alpine Wash (Hammered Citrus)' },
  ]
  const read = { Alpine: '5', 'Hammered Citrus': '-1' }

  test('sends only the figures changed, and units received as such', () => {
    expect(stockEdit(scents, read, read, {})).toEqual({ kind: 'nothing' })
    expect(stockEdit(scents, { ...read, Alpine: '' }, read, { 'Hammered Citrus': ' 6 ' })).toEqual({
      kind: 'edit',
      figures: { Alpine: null, 'Hammered Citrus': { received: 6 } },
    })
    expect(stockEdit(scents, read, read, { Alpine: '' })).toEqual({ kind: 'nothing' })
    // Typed before the figure stopped being counted (its field gone): not sent.
    const product = [{ name: '', label: 'Workforce Repair Original Grit' }]
    expect(stockEdit(product, { '': '' }, { '': '' }, { '': '5' })).toEqual({ kind: 'nothing' })
    expect(stockEdit(product, { '': '4' }, { '': '' }, { '': '5' })).toEqual({
      kind: 'edit',
      figures: { '': 4 },
    })
  })

  test('names the field and the rule when a figure is refused', () => {
    expect(stockEdit(scents, { ...read, Alpine: '2.5' }, read, {})).toEqual({
      kind: 'invalid',
      field: 'Alpine',
      message:
        'Alpine Wash (Alpine): Stock must be a whole number of units from 0 to 99,999, or empty to stop counting it.',
    })
    for (const typed of ['0', '-2', 'a few', '100000']) {
      expect(stockEdit(scents, read, read, { 'Hammered Citrus': typed })).toEqual({
        kind: 'invalid',
        field: 'received:Hammered Citrus',
        message: 'Alpine Wash (Hammered Citrus): Units received must be a whole number from 1 to 99,999.',
      })
    }
    // A recount and a delivery of one figure at once: which was meant is not for the form to guess.
    expect(stockEdit(scents, { ...read, 'Hammered Citrus': '4' }, read, { 'Hammered Citrus': '5' })).toEqual({
      kind: 'invalid',
      field: 'received:Hammered Citrus',
      message: 'Alpine Wash (Hammered Citrus): enter the units on the shelf or the units received, not both.',
    })
  })

  test('a refused save is the field of the one figure sent, or of the line its message names first', () => {
    const notCounted = (line: string) =>
      `${line} is not counted: enter the units on the shelf to start counting it.`
    // One figure sent: that one, its shelf or its 'Received'.
    expect(refusedField('Alpine Wash', { Alpine: 3 }, 'Anything.')).toBe('Alpine')
    expect(refusedField('Alpine Wash', { Alpine: { received: 3 } }, 'Anything.')).toBe('received:Alpine')
    expect(refusedField('The Brush & Comb Duo', { '': { received: 2 } }, 'Anything.')).toBe('received:')
    // Several: the line the message begins with, as the server names it.
    const figures = { Alpine: 4, 'Hammered Citrus': { received: 5 } }
    expect(refusedField('Alpine Wash', figures, notCounted('Alpine Wash (Hammered Citrus)'))).toBe(
      'received:Hammered Citrus',
    )
    expect(refusedField('Alpine Wash', figures, 'Alpine: Stock must be a whole number …')).toBe('Alpine')
    // A product's own figure beside a scent whose label begins with the product's name: the longer wins.
    const own = { '': 2, 'Cedar Shop': { received: 1 } }
    expect(refusedField('Hammered Citrus', own, notCounted('Hammered Citrus (Cedar Shop)'))).toBe(
      'received:Cedar Shop',
    )
    expect(refusedField('Hammered Citrus', own, notCounted('Hammered Citrus'))).toBe('')
    // Named by none: the whole form's.
    expect(refusedField('Alpine Wash', figures, 'This Idempotency-Key was used …')).toBeNull()
  })

  test("sends a former scent's figure under `variants`, and never stops counting a figure left untouched", () => {
    // A product with scents: every figure, former ones too ('' is its own figure from before its scents).
    expect(stockBody(true, { Alpine: 3, '': 0 })).toEqual({ variants: { Alpine: 3, '': 0 } })
    // Without scents: its own figure under `stock`, a scent it had under `variants`, each only if changed.
    expect(stockBody(false, { '': 4 })).toEqual({ stock: 4 })
    expect(stockBody(false, { '': null })).toEqual({ stock: null })
    expect(stockBody(false, { Unscented: 0 })).toEqual({ variants: { Unscented: 0 } })
    expect(stockBody(false, { '': { received: 2 }, Unscented: null })).toEqual({
      stock: { received: 2 },
      variants: { Unscented: null },
    })
  })
})

describe('the orders search in the address and the calls', () => {
  const none = { q: '', status: '', from: '', to: '', limit: 10 }

  test("the dashboard's address keeps the filters, and only them", () => {
    const view = viewFromAddress('?q=dana%40example.com&status=failed&from=2026-03-01&to=2026-03-02&x=1', 10)
    expect(view).toEqual({
      q: 'dana@example.com',
      status: 'failed',
      from: '2026-03-01',
      to: '2026-03-02',
      limit: 10,
    })
    expect(addressFor('/dashboard', view)).toBe(
      '/dashboard?q=dana%40example.com&status=failed&from=2026-03-01&to=2026-03-02',
    )
    expect(addressFor('/dashboard', none)).toBe('/dashboard')
    expect(viewFromAddress('', 10)).toEqual(none)
    expect(viewFromAddress(`?q=${'x'.repeat(500)}`, 10).q).toHaveLength(200)
  })

  test('the list asks for its filters and page size; the export for the same filters', () => {
    expect(ordersPath(none)).toBe('/api/orders?limit=10')
    expect(exportPath(none)).toBe('/api/orders/export.csv')
    const view = { ...none, q: ' #000042 ', status: 'pending,processing', limit: 20 }
    expect(ordersPath(view)).toBe('/api/orders?q=%23000042&status=pending%2Cprocessing&limit=20')
    expect(exportPath(view)).toBe('/api/orders/export.csv?q=%23000042&status=pending%2Cprocessing')
    expect(isFiltered(none)).toBe(false)
    expect(isFiltered({ ...none, q: '   ' })).toBe(false)
    expect(isFiltered({ ...none, to: '2026-03-01' })).toBe(true)
  })
})

describe('the chart', () => {
  test('bars are shares of the tallest; a small non-zero day still shows', () => {
    expect(barHeights([0, 5, 10], 100)).toEqual([0, 50, 100])
    expect(barHeights([0, 0], 100)).toEqual([0, 0])
    expect(barHeights([1, 1000], 100)).toEqual([1, 100])
    expect(barHeights([], 100)).toEqual([])
  })

  test('days read as calendar dates, money as dollars', () => {
    expect(shortDay('2026-03-08')).toBe('Mar 8')
    expect(shortDay('2026-12-31')).toBe('Dec 31')
    expect(shortDay('soon')).toBe('soon')
    expect(chartMoney(1234.5)).toBe('$1,234.50')
    expect(chartMoney(0)).toBe('$0.00')
  })
})

describe("the dashboard's times", () => {
  test("read on the shop's clock with its zone's short name, whatever zone the browser is in", () => {
    const chicago = 'America/Chicago'
    // 00:05 UTC on November 28th is still the 27th in Chicago (CST, UTC−6): the day 'From 2026-11-27' finds it in.
    expect(formatDateTime('2026-11-28T00:05:00Z', chicago)).toBe('Nov 27, 2026, 6:05 PM CST')
    expect(formatDateTime('2026-07-04T17:00:00Z', chicago)).toBe('Jul 4, 2026, 12:00 PM CDT')
    // Another shop's zone, whose short name is its offset in en-US.
    expect(formatDateTime('2026-11-28T00:05:00Z', 'Asia/Tokyo')).toBe('Nov 28, 2026, 9:05 AM GMT+9')
    // A zone the browser does not know: UTC, and it says so.
    expect(formatDateTime('2026-11-28T00:05:00Z', 'Mars/Olympus_Mons')).toBe('Nov 28, 2026, 12:05 AM UTC')
    expect(formatDateTime('soon', chicago)).toBe('soon')
  })

  test("the day filters name the shop's zone as it is said all year, whatever the browser's", () => {
    expect(dayZoneName('America/Chicago')).toBe('CT')
    expect(dayZoneName('America/New_York')).toBe('ET')
    expect(dayZoneName('Mars/Olympus_Mons')).toBe('UTC')
  })
})
