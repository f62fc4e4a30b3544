import { describe, expect, test } from 'bun:test'
import {
  countsAsRefunded,
  linePaidCents,
  lineRefundCents,
  parseRefundRequest,
  REFUND_REASON_MAX,
  refundedByLine,
  refundStatusAfter,
  unitsRefundCents,
} from '@core/rules/refunds'
import fc from 'fast-check'

describe('a line refund is its share of what was paid', () => {
  const line = { unitCents: 1800, quantity: 3, discountCents: 100 }

  test('what the line paid: price × quantity less its share of the discount', () => {
    expect(linePaidCents(line)).toBe(5300)
  })

  test('units refunded one by one add up to exactly what the line paid', () => {
    const parts = [0, 1, 2].map((already) => lineRefundCents(line, already, 1))
    expect(parts.reduce((sum, part) => sum + part, 0)).toBe(5300)
    // The discount is spread over the units, never more than a cent apart.
    expect(Math.max(...parts) - Math.min(...parts)).toBeLessThanOrEqual(1)
  })

  test("the staff page's figure from the line's paid amount is the server's, to the cent", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 100 }),
        fc.nat(),
        fc.nat(),
        (unitCents, quantity, discountPercent, alreadySeed, unitsSeed) => {
          const discountCents = Math.floor((unitCents * quantity * discountPercent) / 100)
          const paid = { unitCents, quantity, discountCents }
          const already = alreadySeed % quantity
          const units = 1 + (unitsSeed % (quantity - already))
          // The page has the paid amount in dollars, as the staff API answers it.
          const paidDollars = linePaidCents(paid) / 100
          expect(unitsRefundCents(Math.round(paidDollars * 100), quantity, already, units)).toBe(
            lineRefundCents(paid, already, units),
          )
        },
      ),
    )
  })

  test('the whole line at once is what it paid; shipping is never part of it', () => {
    expect(lineRefundCents(line, 0, 3)).toBe(5300)
    expect(lineRefundCents({ unitCents: 2100, quantity: 1, discountCents: 0 }, 0, 1)).toBe(2100)
  })

  test('any split of a line, in any order of refunds, adds up to what it paid', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 100 }),
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 20 }),
        (unitCents, quantity, discountPercent, steps) => {
          const discountCents = Math.floor((unitCents * quantity * discountPercent) / 100)
          const paid = { unitCents, quantity, discountCents }
          let refunded = 0
          let cents = 0
          for (const step of steps) {
            const units = Math.min(step, quantity - refunded)
            if (units === 0) break
            cents += lineRefundCents(paid, refunded, units)
            refunded += units
          }
          if (refunded === quantity) expect(cents).toBe(linePaidCents(paid))
          else expect(cents).toBeLessThanOrEqual(linePaidCents(paid))
        },
      ),
    )
  })

  test('refunds of a line, some of which fail, add up to what it paid once every unit stands refunded', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 100 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 12 }), fc.boolean()), { minLength: 1, maxLength: 30 }),
        (unitCents, quantity, discountPercent, steps) => {
          const paid = {
            unitCents,
            quantity,
            discountCents: Math.floor((unitCents * quantity * discountPercent) / 100),
          }
          // The refunds standing, each its units and cents; a step either refunds more units or fails one.
          const standing: { units: number; cents: number }[] = []
          const sum = (key: 'units' | 'cents') => standing.reduce((total, each) => total + each[key], 0)
          for (const [size, fails] of steps) {
            if (fails && standing.length > 0) {
              standing.splice(size % standing.length, 1)
              continue
            }
            const units = Math.min(size, quantity - sum('units'))
            if (units === 0) continue
            standing.push({ units, cents: lineRefundCents(paid, sum('units'), units, sum('cents')) })
          }
          const left = quantity - sum('units')
          if (left > 0) {
            standing.push({ units: left, cents: lineRefundCents(paid, sum('units'), left, sum('cents')) })
          }
          expect(sum('cents')).toBe(linePaidCents(paid))
        },
      ),
    )
  })

  test('refuses units the line does not have', () => {
    expect(() => lineRefundCents(line, 2, 2)).toThrow(RangeError)
    expect(() => lineRefundCents(line, 0, 0)).toThrow(RangeError)
  })
})

describe('refundedByLine', () => {
  test("each line's units and cents from the refunds that count: asked, pending or made, not failed", () => {
    const line = (lineId: number, quantity: number, amountCents: number) => ({
      lineId,
      quantity,
      amountCents,
    })
    const byLine = refundedByLine([
      { status: 'succeeded', lines: [line(7, 1, 1133), line(8, 2, 2600)] },
      { status: 'failed', lines: [line(7, 1, 1134)] },
      { status: 'requested', lines: [line(7, 1, 1134)] },
      { status: 'canceled', lines: [line(8, 1, 1300)] },
    ])
    expect([...byLine]).toEqual([
      [7, { units: 2, cents: 2267 }],
      [8, { units: 2, cents: 2600 }],
    ])
  })
})

describe('parseRefundRequest', () => {
  test('by lines and quantities', () => {
    expect(
      parseRefundRequest({ lines: [{ lineId: 7, quantity: 2 }], restock: true, reason: ' Damaged jar ' }),
    ).toEqual({
      ok: true,
      request: {
        lines: [{ lineId: 7, quantity: 2 }],
        amountCents: null,
        restock: true,
        reason: 'Damaged jar',
      },
    })
  })

  test('an amount with restock is refused: it names no units to put back', () => {
    expect(parseRefundRequest({ amount: '12.50', restock: true })).toEqual({
      ok: false,
      message: 'A refund by amount puts no units back on the shelf: refund by items to restock them.',
    })
  })

  test('by an amount in dollars', () => {
    expect(parseRefundRequest({ amount: '12.50', restock: false })).toEqual({
      ok: true,
      request: { lines: null, amountCents: 1250, restock: false, reason: null },
    })
  })

  test.each([
    [null, 'The refund must be a JSON object'],
    [[], 'The refund must be a JSON object'],
    [{ restock: false }, 'Refund either lines (with quantities) or an amount'],
    [{ amount: '5.00', lines: [{ lineId: 1, quantity: 1 }], restock: false }, 'either lines'],
    [{ amount: '5.00' }, 'restock must be true or false'],
    [{ amount: '5.00', restock: 'yes' }, 'restock must be true or false'],
    [{ amount: '0', restock: false }, 'more than $0.00'],
    [{ amount: '-1', restock: false }, 'dollar amount'],
    [{ amount: '1.005', restock: false }, 'dollar amount'],
    [{ amount: 'ten', restock: false }, 'dollar amount'],
    [{ amount: true, restock: false }, 'dollar amount'],
    [{ lines: [], restock: false }, 'at least one line'],
    [{ lines: 'all', restock: false }, 'at least one line'],
    [{ lines: [{ lineId: 1 }], restock: false }, 'quantity'],
    [{ lines: [{ lineId: 1, quantity: 0 }], restock: false }, 'quantity'],
    [{ lines: [{ lineId: 1, quantity: 1.5 }], restock: false }, 'quantity'],
    [{ lines: [{ lineId: 'a', quantity: 1 }], restock: false }, 'lineId'],
    [{ lines: [{ lineId: -3, quantity: 1 }], restock: false }, 'lineId'],
    [
      {
        lines: [
          { lineId: 1, quantity: 1 },
          { lineId: 1, quantity: 1 },
        ],
        restock: false,
      },
      'once',
    ],
    [{ amount: '5.00', restock: false, reason: 42 }, 'reason'],
    [{ amount: '5.00', restock: false, reason: 'x'.repeat(REFUND_REASON_MAX + 1) }, 'reason'],
  ])('%p is refused: %p', (body, message) => {
    const parsed = parseRefundRequest(body)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.message).toContain(message)
  })
})

describe('refund statuses only move forward', () => {
  test('what counts as refunded: asked, pending or succeeded', () => {
    expect(['requested', 'pending', 'succeeded', 'failed', 'canceled'].map(countsAsRefunded)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ])
  })

  test.each([
    ['requested', 'succeeded', 'succeeded'],
    ['requested', 'pending', 'pending'],
    ['pending', 'succeeded', 'succeeded'],
    ['succeeded', 'failed', 'failed'],
    ['pending', 'canceled', 'canceled'],
    // Late or repeated news changes nothing.
    ['succeeded', 'pending', null],
    ['succeeded', 'succeeded', null],
    ['failed', 'succeeded', null],
    ['canceled', 'failed', null],
    ['failed', 'pending', null],
  ] as const)('%p on news of %p → %p', (current, news, after) => {
    expect(refundStatusAfter(current, news)).toBe(after)
  })
})
