/**
 * Where a visitor goes after signing in: only ever a path on this site. The value returned is used as it is
 * (a `Location` header, `location.assign`), so it is checked as a browser would read it, not only as sent.
 */
import { describe, expect, test } from 'bun:test'
import { sameSitePath } from '@core/rules/return-path'
import fc from 'fast-check'
import { afterSignIn, safeNextPath } from '../../../site/features/account/redirects'

const SHOP = 'https://shop.example'

/**
 * Whether a browser on the shop, told to go to `target` (as a Location header or `location.assign`), stays
 * on the shop. Browsers resolve it as the URL standard says, which is what `new URL(target, base)` does;
 * tabs and newlines are dropped before parsing, so they are dropped here too.
 */
function staysOnTheShop(target: string, page = `${SHOP}/login?next=x`): boolean {
  try {
    return new URL(target, page).origin === SHOP
  } catch {
    return false
  }
}

/** A path that can never be read as another host: one leading slash, then no slash or backslash. */
function isPlainPath(path: string): boolean {
  return (
    /^\/(?![/\\])/.test(path) && ![...path].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
  )
}

describe('the path after sign-in', () => {
  test.each([
    ['/dashboard', '/dashboard'],
    ['/account/orders?number=000042', '/account/orders?number=000042'],
    ['/products/beard-oil#reviews', '/products/beard-oil#reviews'],
    ['/a/./b/../c', '/a/c'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
  ])('%p is kept as %p', (next, kept) => {
    expect(sameSitePath(next)).toBe(kept)
  })

  // Each of these resolves, on a real browser, to another host once its dots are taken away: the value
  // returned must never be that normalised, protocol-relative form.
  test.each([
    ['/.//evil.example/phish'],
    ['/..//evil.example/phish'],
    ['/a/..//evil.example'],
    ['/./../..//evil.example'],
    ['/.%2e//evil.example'],
    ['/%2e//evil.example'],
    ['/%2e%2e//evil.example'],
    ['/.\\/evil.example'],
    ['/..\\\\evil.example'],
    ['/.\\\\evil.example'],
    ['/./\\evil.example'],
    ['/.\t//evil.example'],
    ['/.\n//evil.example'],
    ['/\t/evil.example'],
    ['/\r\n/evil.example'],
    ['/ /evil.example'.replace(' ', '\u0000')],
    ['//evil.example'],
    ['/\\evil.example'],
    ['\\/evil.example'],
    ['https://evil.example/'],
    ['javascript:alert(1)'],
    ['evil.example'],
  ])('%p never leads off the site', (next) => {
    const path = sameSitePath(next)
    if (path !== null) {
      expect(isPlainPath(path)).toBe(true)
      expect(staysOnTheShop(path)).toBe(true)
    }
    expect(path === null || !path.startsWith('//')).toBe(true)
  })

  test('/login?next=%2F.%2F%2Fevil.example%2Fphish lands on the account, not on evil.example', () => {
    expect(afterSignIn('?next=%2F.%2F%2Fevil.example%2Fphish')).toBe('/account')
    expect(safeNextPath('?next=%2F..%2F%2Fevil.example')).toBeNull()
    expect(safeNextPath('?next=%2F.%5C%2Fevil.example')).toBeNull()
    expect(safeNextPath('?next=%2F.%09%2F%2Fevil.example')).toBeNull()
  })

  // Strings built from the pieces that matter (slashes, backslashes, dots, their encodings, tabs, hosts)
  // as well as arbitrary text: whatever comes in, what comes out is a plain path on the shop, and checking
  // it again gives it back unchanged (the Google round trip checks it twice).
  const piece = fc.constantFrom(
    '/',
    '\\',
    '.',
    '..',
    '%2e',
    '%2E',
    '%2f',
    '%5c',
    '%09',
    '\t',
    '\n',
    '\r',
    ' ',
    '?',
    '#',
    '@',
    ':',
    'evil.example',
    'http:',
    'a',
  )
  // Starting with '/' gets past the first check, where the interesting cases are.
  const crafted = fc.array(piece, { maxLength: 12 }).map((parts) => `/${parts.join('')}`)
  const anything = fc.oneof(crafted, fc.string(), fc.string({ unit: 'grapheme-ascii' }))

  test('property: any value gives null or a plain path on the shop, stable when checked again', () => {
    fc.assert(
      fc.property(anything, (next) => {
        const path = sameSitePath(next)
        if (path === null) return true
        return isPlainPath(path) && staysOnTheShop(path) && sameSitePath(path) === path
      }),
      { numRuns: 20_000 },
    )
  })

  test('property: resolved from any page of the shop, the path stays on the shop', () => {
    const page = fc.constantFrom(
      `${SHOP}/`,
      `${SHOP}/login?next=x`,
      `${SHOP}/a/b/c/`,
      `${SHOP}/auth/google/callback`,
    )
    fc.assert(
      fc.property(anything, page, (next, from) => {
        const path = sameSitePath(next)
        return path === null || staysOnTheShop(path, from)
      }),
      { numRuns: 5_000 },
    )
  })
})
