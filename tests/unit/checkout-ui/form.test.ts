import { describe, expect, test } from 'bun:test'
import {
  type CheckoutDraft,
  emptyAddress,
  emptyDraft,
  firstField,
  INVALID_EMAIL_MESSAGE,
  paymentProblem,
  ratesProblem,
  TYPED_FIELDS,
  toApiAddress,
  withAddressField,
  withoutError,
  withTypedFields,
} from '../../../site/features/checkout/form'

const ADDRESS = {
  name: 'Sam Carpenter',
  street1: '12 Workshop Lane',
  street2: '',
  city: 'Austin',
  state: 'TX',
  zip: '73301',
  country: 'US',
}

function draft(overrides: Partial<CheckoutDraft> = {}): CheckoutDraft {
  return { ...emptyDraft(), email: 'sam@example.com', shipping: { ...ADDRESS }, ...overrides }
}

describe('ratesProblem (docs/product.md#shipping)', () => {
  test('a complete address has none; e-mail and apartment are not needed for rates', () => {
    expect(ratesProblem(draft({ email: '' })).kind).toBe('none')
  })

  test('names every missing required field, with the form toast', () => {
    const problem = ratesProblem(emptyDraft())
    expect(problem).toMatchObject({
      kind: 'missing',
      title: 'Missing Information',
      description: 'Please fill in all required shipping address fields.',
    })
    if (problem.kind === 'none') throw new Error('expected a problem')
    expect(Object.keys(problem.fields)).toEqual([
      'shipping.name',
      'shipping.street1',
      'shipping.city',
      'shipping.state',
      'shipping.zip',
    ])
  })

  test('whitespace counts as missing', () => {
    const problem = ratesProblem(draft({ shipping: { ...ADDRESS, city: '   ' } }))
    expect(problem.kind === 'missing' && Object.keys(problem.fields)).toEqual(['shipping.city'])
  })

  test('a malformed US ZIP is caught before the call', () => {
    const problem = ratesProblem(draft({ shipping: { ...ADDRESS, zip: '7330' } }))
    expect(problem).toMatchObject({ kind: 'invalid', title: 'Shipping Error' })
  })

  test('other countries take any postal code', () => {
    expect(
      ratesProblem(draft({ shipping: { ...ADDRESS, country: 'GB', state: 'Kent', zip: 'CT1 2EH' } })).kind,
    ).toBe('none')
  })
})

describe('paymentProblem (docs/product.md#shipping)', () => {
  test('missing e-mail gives the paying toast and points at the e-mail field', () => {
    const problem = paymentProblem(draft({ email: '' }))
    expect(problem).toMatchObject({
      kind: 'missing',
      title: 'Missing Information',
      description: 'Please fill in all required shipping fields',
    })
    if (problem.kind === 'none') throw new Error('expected a problem')
    expect(firstField(problem.fields)).toBe('email')
  })

  test('separate billing needs its own required fields', () => {
    const problem = paymentProblem(
      draft({ separateBilling: true, billing: { ...emptyAddress(), name: 'Pat' } }),
    )
    expect(problem).toMatchObject({
      kind: 'missing-billing',
      title: 'Missing Billing Information',
      description: 'Please fill in all required billing address fields',
    })
    if (problem.kind === 'none') throw new Error('expected a problem')
    expect(firstField(problem.fields)).toBe('billing.street1')
  })

  test('billing fields are ignored while billing is the shipping address', () => {
    expect(paymentProblem(draft({ separateBilling: false, billing: emptyAddress() })).kind).toBe('none')
  })

  test('a malformed e-mail is named', () => {
    const problem = paymentProblem(draft({ email: 'sam@' }))
    expect(problem).toMatchObject({ kind: 'invalid', fields: { email: INVALID_EMAIL_MESSAGE } })
  })

  test('shipping fields are checked before billing', () => {
    const problem = paymentProblem(
      draft({ shipping: { ...ADDRESS, name: '' }, separateBilling: true, billing: emptyAddress() }),
    )
    expect(problem.kind).toBe('missing')
  })
})

describe('toApiAddress', () => {
  test('trims and leaves out an empty apartment', () => {
    expect(toApiAddress({ ...ADDRESS, name: '  Sam  ', street2: '  ' })).toEqual({
      name: 'Sam',
      street1: '12 Workshop Lane',
      city: 'Austin',
      state: 'TX',
      zip: '73301',
      country: 'US',
    })
  })

  test('keeps an apartment when given', () => {
    expect(toApiAddress({ ...ADDRESS, street2: 'Unit 4' }).street2).toBe('Unit 4')
  })
})

describe('typing in the form', () => {
  test('a changed country clears the state, which belongs to the old one; anything else keeps it', () => {
    const start = draft()
    const canada = withAddressField(start, 'shipping', 'country', 'CA')
    expect(canada.shipping).toEqual({ ...ADDRESS, country: 'CA', state: '' })
    expect(withAddressField(start, 'shipping', 'country', 'US').shipping.state).toBe('TX')
    expect(withAddressField(start, 'billing', 'city', 'Dallas').billing.city).toBe('Dallas')
    expect(withAddressField(start, 'billing', 'city', 'Dallas').shipping).toEqual(start.shipping)
    expect(start.shipping.country).toBe('US')
  })

  test("a field's mark goes when it is typed in; the errors are the same object when it had none", () => {
    const errors = { email: 'Enter your e-mail address.', 'shipping.zip': 'Enter the ZIP code.' }
    expect(withoutError(errors, 'email')).toEqual({ 'shipping.zip': 'Enter the ZIP code.' })
    expect(withoutError(errors, 'billing.city')).toBe(errors)
  })
})

describe('withTypedFields (what was typed before the island ran)', () => {
  test('a field typed in wins over the restored one; an empty one keeps it', () => {
    const restored = withAddressField(
      { ...emptyDraft(), email: 'saved@example.com' },
      'shipping',
      'city',
      'Austin',
    )
    let typed = withAddressField(
      { ...emptyDraft(), email: 'typed@example.com' },
      'shipping',
      'name',
      'Sam Carpenter',
    )
    typed = withAddressField(typed, 'billing', 'zip', '   ')
    const merged = withTypedFields(restored, typed)
    expect(merged.email).toBe('typed@example.com')
    expect(merged.shipping.name).toBe('Sam Carpenter')
    expect(merged.shipping.city).toBe('Austin')
    expect(merged.billing.zip).toBe('')
  })

  test('the typed fields are the text inputs of both addresses and the e-mail', () => {
    expect(TYPED_FIELDS).toEqual([
      'email',
      'shipping.name',
      'shipping.street1',
      'shipping.street2',
      'shipping.city',
      'shipping.zip',
      'billing.name',
      'billing.street1',
      'billing.street2',
      'billing.city',
      'billing.zip',
    ])
  })
})
