import { describe, expect, test } from 'bun:test'
import { isEmail, isUsState, isUsZip, PASSWORD_MIN_LENGTH, US_STATES } from '@core/rules/address'
import { postalAddressLines } from '@core/rules/postal-address'

describe('US_STATES', () => {
  test('50 states and DC, unique codes, alphabetical by name', () => {
    expect(US_STATES).toHaveLength(51)
    expect(new Set(US_STATES.map((s) => s.code)).size).toBe(51)
    const names = US_STATES.map((s) => s.name)
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')))
    expect(US_STATES).toContainEqual({ code: 'DC', name: 'District of Columbia' })
    expect(US_STATES[0]).toEqual({ code: 'AL', name: 'Alabama' })
    expect(US_STATES[50]).toEqual({ code: 'WY', name: 'Wyoming' })
    for (const state of US_STATES) expect(state.code).toMatch(/^[A-Z]{2}$/)
  })

  test.each([['CA'], ['DC'], ['WY'], ['NY']])('%p is a state', (code) => {
    expect(isUsState(code)).toBe(true)
  })

  test.each([['ca'], ['PR'], ['California'], [''], [null], ['C A']])('%p is not a state code', (code) => {
    expect(isUsState(code)).toBe(false)
  })
})

describe('isUsZip', () => {
  test.each([['12345'], ['02134'], ['12345-6789']])('%p is a ZIP', (zip) => {
    expect(isUsZip(zip)).toBe(true)
  })

  test.each([['1234'], ['123456'], ['12345-678'], ['12345 6789'], ['abcde'], [' 12345'], [''], [12345]])(
    '%p is not a ZIP',
    (zip) => {
      expect(isUsZip(zip)).toBe(false)
    },
  )
})

describe('isEmail', () => {
  test.each([
    ['joe@example.com'],
    ['a.b+shop@mail.co.uk'],
    ['JOE.O-NEIL_2@Sub-Domain.Example.ORG'],
    ['x@y.io'],
    ['first.last@example.museum'],
  ])('%p is accepted', (email) => {
    expect(isEmail(email)).toBe(true)
  })

  test.each([
    ['joe'],
    ['joe@example'],
    ['joe@@example.com'],
    ['jo@e@example.com'],
    ['@example.com'],
    ['joe@.com'],
    ['joe@example.'],
    ['joe@example..com'],
    ['joe smith@example.com'],
    ['joe@example.com '],
    ['.joe@example.com'],
    ['joe.@example.com'],
    ['jo..e@example.com'],
    ['x@y.z'], // the top-level domain has at least two letters
    ['joe@example.c0m'],
    ['joe@-example.com'],
    ['joe@example-.com'],
    ['joe@exa_mple.com'],
    ['joe@[127.0.0.1]'],
    [`${'a'.repeat(65)}@example.com`], // local part over 64
    [`joe@${'a'.repeat(64)}.com`], // a domain label over 63
    [''],
    [null],
    [`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`], // 255 characters
  ])('%p is refused', (email) => {
    expect(isEmail(email)).toBe(false)
  })

  // Each would pass a loose check; each breaks a mail header, a log line or a page that shows it.
  test.each([
    ['NUL', 'a\u0000b@example.com'],
    ['tab', 'a\tb@example.com'],
    ['line feed', 'joe@example.com\nBcc: all@example.com'],
    ['DEL', 'a\u007fb@example.com'],
    ['right-to-left override', '\u202eevil@example.com'],
    ['zero-width space', 'jo\u200be@example.com'],
    ['left-to-right isolate', 'joe\u2066@example.com'],
    ['byte order mark', '\ufeffjoe@example.com'],
    ['script tag', '<script>alert(1)</script>@example.org'],
    ['angle brackets', 'joe<x>@example.com'],
    ['double quote', '"joe"@example.com'],
    ['single quote', "o'brien@example.com"],
    ['backtick', 'jo`e@example.com'],
    ['non-breaking space', 'jo\u00a0e@example.com'],
  ])('%s is refused', (_name, email) => {
    expect(isEmail(email)).toBe(false)
  })

  test('254 characters is the longest accepted', () => {
    const longest = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`
    expect(longest).toHaveLength(254)
    expect(isEmail(longest)).toBe(true)
  })
})

test('passwords need at least 6 characters', () => {
  expect(PASSWORD_MIN_LENGTH).toBe(6)
})

describe('postalAddressLines', () => {
  test('a line each, the second street only when there is one, as a label prints it', () => {
    const address = {
      name: 'Dana Cole',
      street1: '12 Mill Rd',
      city: 'Austin',
      state: 'TX',
      zip: '73301',
      country: 'US',
    }
    expect(postalAddressLines(address)).toEqual(['Dana Cole', '12 Mill Rd', 'Austin, TX 73301', 'US'])
    expect(postalAddressLines({ ...address, street2: 'Unit 4' })).toEqual([
      'Dana Cole',
      '12 Mill Rd',
      'Unit 4',
      'Austin, TX 73301',
      'US',
    ])
    expect(postalAddressLines({ ...address, street2: null, state: '', country: 'GB' })).toEqual([
      'Dana Cole',
      '12 Mill Rd',
      'Austin, 73301',
      'GB',
    ])
  })
})
