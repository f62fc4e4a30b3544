import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { badgeText, cartLabel } from '../../../site/features/header/badge'
import {
  COMPACT_AFTER_PX,
  HIDE_AFTER_PX,
  initialScrollState,
  nextScrollState,
} from '../../../site/features/header/scroll-state'
import { searchHref } from '../../../site/features/header/search'

function scrollThrough(positions: number[]) {
  return positions.reduce(nextScrollState, initialScrollState(0))
}

describe('header scroll state', () => {
  test('starts shown and full size at the top', () => {
    expect(initialScrollState(0)).toEqual({ compact: false, hidden: false, lastY: 0 })
  })

  test('compacts strictly after 50 px', () => {
    expect(scrollThrough([50]).compact).toBe(false)
    expect(scrollThrough([51]).compact).toBe(true)
    expect(initialScrollState(80).compact).toBe(true)
  })

  test('does not hide while at or above 100 px, even scrolling down', () => {
    expect(scrollThrough([20, 60, 100]).hidden).toBe(false)
  })

  test('hides scrolling down past 100 px and comes back on any scroll up', () => {
    const hidden = scrollThrough([50, 150, 300])
    expect(hidden.hidden).toBe(true)
    expect(nextScrollState(hidden, 299).hidden).toBe(false)
  })

  test('stays as it was when the position does not change', () => {
    const hidden = scrollThrough([200, 400])
    expect(nextScrollState(hidden, 400).hidden).toBe(true)
  })

  test('treats overscroll above the top as the top', () => {
    expect(scrollThrough([300, 500, -40])).toEqual({ compact: false, hidden: false, lastY: 0 })
  })

  test('property: compact is exactly "past 50 px"; hidden only past 100 px and after moving down', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -50, max: 5000 }), { minLength: 1, maxLength: 30 }),
        (positions) => {
          let state = initialScrollState(0)
          for (const y of positions) {
            const previous = state
            state = nextScrollState(state, y)
            const top = Math.max(0, y)
            expect(state.compact).toBe(top > COMPACT_AFTER_PX)
            if (top <= HIDE_AFTER_PX) expect(state.hidden).toBe(false)
            if (top > previous.lastY && top > HIDE_AFTER_PX) expect(state.hidden).toBe(true)
            if (top < previous.lastY) expect(state.hidden).toBe(false)
          }
        },
      ),
    )
  })
})

describe('cart badge', () => {
  test('is empty for an empty cart', () => {
    expect(badgeText(0)).toBe('')
    expect(badgeText(-3)).toBe('')
    expect(badgeText(Number.NaN)).toBe('')
  })

  test('shows the count up to 99, then 99+', () => {
    expect(badgeText(1)).toBe('1')
    expect(badgeText(99)).toBe('99')
    expect(badgeText(100)).toBe('99+')
    expect(badgeText(12_345)).toBe('99+')
  })

  test('names the link with the full count', () => {
    expect(cartLabel(0)).toBe('Cart, 0 items')
    expect(cartLabel(1)).toBe('Cart, 1 item')
    expect(cartLabel(3)).toBe('Cart, 3 items')
    expect(cartLabel(150)).toBe('Cart, 150 items')
  })
})

describe('search destination', () => {
  test('is nowhere for a blank query', () => {
    expect(searchHref('')).toBeNull()
    expect(searchHref('   \t\n ')).toBeNull()
  })

  test('trims and encodes the query', () => {
    expect(searchHref('  beard oil ')).toBe('/shop?search=beard%20oil')
    expect(searchHref('oil & balm?#')).toBe('/shop?search=oil%20%26%20balm%3F%23')
  })

  test('property: the shop reads back exactly the trimmed query', () => {
    fc.assert(
      fc.property(fc.string(), (query) => {
        const href = searchHref(query)
        if (query.trim() === '') return expect(href).toBeNull()
        expect(new URL(href ?? '', 'http://shop.test').searchParams.get('search')).toBe(query.trim())
      }),
    )
  })
})
