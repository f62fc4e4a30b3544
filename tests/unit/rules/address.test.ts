import { describe, expect, test } from 'bun:test'
import { isEmail, isUsState, isUsZip, PASSWORD_MIN_LENGTH, US_STATES } from '../../../api/rules/address'

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
  test.each([['joe@example.com'], ['a.b+shop@mail.co.uk'], ['x@y.z']])('%p is accepted', (email) => {
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
    [''],
    [null],
    [`${'a'.repeat(243)}@example.com`], // 255 characters
  ])('%p is refused', (email) => {
    expect(isEmail(email)).toBe(false)
  })

  test('254 characters is the longest accepted', () => {
    expect(isEmail(`${'a'.repeat(242)}@example.com`)).toBe(true)
  })
})

test('passwords need at least 6 characters', () => {
  expect(PASSWORD_MIN_LENGTH).toBe(6)
})
