import { describe, expect, test } from 'bun:test'
import { DomainError } from '../../../api/lib/domain-errors'
import { cartFingerprint } from '../../../api/modules/catalog/cart'
import { addressHash, normalizeAddress } from '../../../api/modules/shipping/address'
import { STATUS_OF } from '../../../api/plugins/errors'

const HOME = {
  name: 'Dana Cole',
  street1: '12 Mill Rd',
  city: 'Dayton',
  state: 'OH',
  zip: '45402',
  country: 'US',
}

function failure(
  input: Parameters<typeof normalizeAddress>[0],
  kind?: 'shipping' | 'billing',
): [number, string] {
  try {
    normalizeAddress(input, kind)
  } catch (error) {
    if (error instanceof DomainError) return [STATUS_OF[error.kind], error.message]
    throw error
  }
  throw new Error('expected the address to be refused')
}

describe('normalizeAddress', () => {
  test('trims, folds whitespace, upper-cases codes and defaults the country to US', () => {
    expect(
      normalizeAddress({
        ...HOME,
        name: '  Dana   Cole ',
        street2: ' ',
        state: 'oh',
        country: undefined,
        zip: ' 45402-1234 ',
      }),
    ).toEqual({ ...HOME, zip: '45402-1234' })
    expect(normalizeAddress({ ...HOME, street2: 'Apt 4' }).street2).toBe('Apt 4')
  })

  test.each([
    [{ name: '' }, 'Please enter your full name.'],
    [{ street1: '   ' }, 'Please enter your street address.'],
    [{ city: '' }, 'Please enter your city.'],
    [{ state: 'XX' }, 'Please choose a state.'],
    [{ state: '' }, 'Please choose a state.'],
    [{ state: 'California' }, 'Please choose a state.'],
    [{ zip: '4540' }, 'Please enter a valid ZIP code.'],
    [{ zip: '45402-12' }, 'Please enter a valid ZIP code.'],
    [{ zip: 'ABCDE' }, 'Please enter a valid ZIP code.'],
    [{ country: 'USA' }, 'Please choose a country.'],
    [{ name: 'x'.repeat(101) }, 'Please shorten the name to 100 characters or fewer.'],
  ])('%p → 422 %p', (change, message) => {
    expect(failure({ ...HOME, ...change })).toEqual([422, message])
  })

  test('billing address messages say which address is wrong', () => {
    expect(failure({ ...HOME, zip: '1' }, 'billing')).toEqual([
      422,
      'Billing address: Please enter a valid ZIP code.',
    ])
  })

  test('other countries need no US state or ZIP', () => {
    expect(
      normalizeAddress({
        name: 'Lea Roy',
        street1: '5 Rue Nord',
        city: 'Lyon',
        state: '',
        zip: '69001',
        country: 'fr',
      }),
    ).toMatchObject({ country: 'FR', state: '', zip: '69001' })
    expect(failure({ ...HOME, country: 'GB', zip: 'SW1A <1AA>' })).toEqual([
      422,
      'Please enter a valid postal code.',
    ])
  })

  test('control characters never reach a label', () => {
    for (const street1 of [
      '12 Mill\u0000Rd',
      '12 Mill\nRd',
      '12 Mill\tRd',
      '12 Mill\u0085Rd',
      '12 \u202eMill Rd',
    ]) {
      expect(failure({ ...HOME, street1 })).toEqual([
        422,
        'Please check the street address: it has a character that cannot be printed.',
      ])
    }
    // Around the field, a pasted line break is only whitespace.
    expect(normalizeAddress({ ...HOME, street1: ' 12  Mill Rd\n' }).street1).toBe('12 Mill Rd')
    expect(normalizeAddress({ ...HOME, name: 'José Ñúñez 山田' }).name).toBe('José Ñúñez 山田')
  })
})

describe('addressHash', () => {
  test('ignores the name and letter case, not the destination', () => {
    const base = addressHash(normalizeAddress(HOME))
    expect(addressHash(normalizeAddress({ ...HOME, name: 'Someone Else' }))).toBe(base)
    expect(addressHash(normalizeAddress({ ...HOME, city: 'DAYTON' }))).toBe(base)
    expect(addressHash(normalizeAddress({ ...HOME, zip: '45403' }))).not.toBe(base)
    expect(addressHash(normalizeAddress({ ...HOME, street2: 'Apt 4' }))).not.toBe(base)
  })
})

describe('cartFingerprint', () => {
  const OIL = { productId: 1, weightTenthsOz: 20 }
  const REPAIR = { productId: 4, weightTenthsOz: 30 }
  test('depends on products and total quantities, not on line order or splitting', () => {
    const a = cartFingerprint([
      { ...OIL, quantity: 2 },
      { ...REPAIR, quantity: 1 },
    ])
    expect(
      cartFingerprint([
        { ...REPAIR, quantity: 1 },
        { ...OIL, quantity: 1 },
        { ...OIL, quantity: 1 },
      ]),
    ).toBe(a)
    expect(cartFingerprint([{ ...OIL, quantity: 2 }])).not.toBe(a)
    expect(
      cartFingerprint([
        { ...OIL, quantity: 3 },
        { ...REPAIR, quantity: 1 },
      ]),
    ).not.toBe(a)
  })

  test('changes when a product weighs something else: a quote is for the parcel it weighed', () => {
    const before = cartFingerprint([{ ...OIL, quantity: 2 }])
    expect(cartFingerprint([{ ...OIL, weightTenthsOz: 160, quantity: 2 }])).not.toBe(before)
  })
})
