import { describe, expect, test } from 'bun:test'
import { isNoindex } from '../../../scripts/bench/robots'

describe('noindex pages', () => {
  test('are found by their robots meta tag, as the layout writes it', () => {
    expect(isNoindex('<head><meta name="robots" content="noindex" /></head>')).toBe(true)
  })

  test('whatever the attribute order, quoting or case', () => {
    expect(isNoindex("<meta content='NoIndex, nofollow' name=ROBOTS>")).toBe(true)
    expect(isNoindex('<META NAME="robots" CONTENT="none">')).toBe(true)
  })

  test('or by the X-Robots-Tag header', () => {
    expect(isNoindex('<html></html>', 'noindex')).toBe(true)
  })

  test('an indexable page is not taken for one', () => {
    expect(
      isNoindex('<meta name="robots" content="index, follow"><meta name="description" content="noindex">'),
    ).toBe(false)
    expect(isNoindex('<meta name="googlebot-news" content="noindex">')).toBe(false)
    expect(isNoindex('<p>noindex</p>', null)).toBe(false)
  })
})
