import { describe, expect, test } from 'bun:test'
import type { PublicUser } from '@core/contracts/account'
import { isPublicUser } from '../../../site/features/account/api'
import {
  forgotPasswordError,
  googleReturnMessage,
  loginError,
  registrationError,
  resetPasswordError,
} from '../../../site/features/account/messages'
import { emptyDraft } from '../../../site/features/checkout/form'
import { prefillFromAccount } from '../../../site/features/checkout/prefill'
import {
  addressLines,
  addressProblem,
  orderNumberFrom,
  personalBody,
  personalProblem,
  refusedPersonalField,
  SAVE_FAILED,
  saveFailedText,
  trimmedAddress,
} from '../../../site/features/profile/profile-form'
import { ApiError } from '../../../site/lib/api'

const USER: PublicUser = {
  id: 'u1',
  email: 'sam@example.com',
  firstName: 'Sam',
  lastName: 'Carpenter',
  phone: '',
  photoURL: null,
  address: { street: '12 Workshop Lane', city: 'Austin', state: 'TX', zipCode: '73301', country: 'US' },
  notifications: { email: true, sms: false },
  role: 'customer',
  hasPassword: true,
  emailVerified: false,
}

describe('docs/product.md#sign-in texts for failed account calls', () => {
  test('sign-in: the Google hint, the wait of a 429, a staff password to renew, or one generic text', () => {
    const google = new ApiError(401, 'x', { error: 'x', useGoogle: true })
    expect(loginError(google).description).toBe(
      'This email is registered with Google. Please use Google Sign In.',
    )
    expect(loginError(new ApiError(401, 'The e-mail or password is incorrect.')).description).toBe(
      'Failed to sign in. Please check your credentials.',
    )
    expect(loginError(new ApiError(0, 'offline')).description).toBe(
      'Failed to sign in. Please check your credentials.',
    )
    expect(loginError(new ApiError(429, 'Please wait 10 minutes.')).description).toBe(
      'Please wait 10 minutes.',
    )
    const staff = new ApiError(403, 'Choose Forgot Password.', { error: 'x', newPasswordNeeded: true })
    expect(loginError(staff)).toEqual({
      title: 'New Password Needed',
      description: 'Choose Forgot Password.',
    })
    expect(loginError(new ApiError(403, 'Forbidden.')).title).toBe('Sign In Failed')
    // Only a 403 says it: the flag on any other answer is not the server's refusal of a short staff password.
    expect(loginError(new ApiError(401, 'x', { error: 'x', newPasswordNeeded: true })).title).toBe(
      'Sign In Failed',
    )
  })

  test('registration, forgot and reset: the server message, or the network text', () => {
    expect(registrationError(new ApiError(409, 'Taken.'))).toEqual({
      title: 'Registration failed',
      description: 'Taken.',
    })
    expect(registrationError(new ApiError(0, 'offline')).description).toBe(
      'Registration failed. Please try again.',
    )
    expect(forgotPasswordError(new ApiError(429, 'Slow down.'))).toEqual({
      title: 'Error',
      description: 'Slow down.',
    })
    expect(forgotPasswordError(new TypeError('fetch'))).toEqual({
      title: 'Error',
      description: 'Something went wrong. Please try again.',
    })
    expect(resetPasswordError(new ApiError(422, 'Expired.'))).toEqual({
      title: 'Reset Failed',
      description: 'Expired.',
    })
    expect(resetPasswordError(new ApiError(0, 'offline')).title).toBe('Error')
  })

  test('a return from Google with a reason says what happened', () => {
    expect(googleReturnMessage('failed')?.description).toBe(
      'Google sign-in did not complete. Please try again.',
    )
    expect(googleReturnMessage('unverified')?.description).toContain('no verified e-mail')
    expect(googleReturnMessage(null)).toBeNull()
    expect(googleReturnMessage('<script>')).toBeNull()
  })
})

describe('profile forms', () => {
  test('names are required', () => {
    expect(personalProblem({ firstName: ' ', lastName: 'C', phone: '' })?.fields).toEqual({
      firstName: 'Enter your first name.',
    })
    expect(personalProblem({ firstName: 'S', lastName: 'C', phone: '' })).toBeNull()
  })

  test('what each card sends is trimmed, and only its own fields', () => {
    expect(personalBody({ firstName: ' Sam ', lastName: 'Carpenter\t', phone: ' 555 0100 ' })).toEqual({
      firstName: 'Sam',
      lastName: 'Carpenter',
      phone: '555 0100',
    })
    expect(
      trimmedAddress({
        street: ' 1 A St ',
        city: ' Austin',
        state: 'TX ',
        zipCode: ' 73301 ',
        country: 'US',
      }),
    ).toEqual({ street: '1 A St', city: 'Austin', state: 'TX', zipCode: '73301', country: 'US' })
  })

  test('an address follows the server rules, missing fields first', () => {
    const address = { street: '', city: '', state: '', zipCode: '', country: 'US' }
    const missing = addressProblem(address)
    expect(missing?.title).toBe('Missing Information')
    expect(Object.keys(missing?.fields ?? {})).toEqual(['street', 'city', 'state', 'zipCode'])
    const badZip = addressProblem({
      street: '1 A St',
      city: 'Austin',
      state: 'TX',
      zipCode: '123',
      country: 'US',
    })
    expect(badZip).toEqual({
      title: 'Check the Address',
      description: 'Please enter a valid ZIP code, like 12345 or 12345-6789.',
      fields: { zipCode: 'Please enter a valid ZIP code, like 12345 or 12345-6789.' },
    })
    expect(
      addressProblem({ street: '1 High St', city: 'Leeds', state: 'Yorks', zipCode: 'LS1', country: 'GB' }),
    ).toBeNull()
    expect(addressLines(USER.address ?? address)).toEqual(['12 Workshop Lane', 'Austin, TX 73301', 'US'])
  })

  test('a save failure shows the server reason for a refused value, the fallback text otherwise', () => {
    expect(saveFailedText(new ApiError(422, 'Choose a US state.'))).toBe('Choose a US state.')
    expect(saveFailedText(new ApiError(400, 'The request body is not valid JSON.'))).toBe(SAVE_FAILED)
    expect(saveFailedText(new ApiError(500, 'boom'))).toBe(SAVE_FAILED)
    expect(saveFailedText(new ApiError(0, 'offline'))).toBe('Failed to save changes. Please try again.')
  })

  test("a refusal of 'Personal Information' is the field the server's rules refuse, in its order", () => {
    const sent = { firstName: 'Sam', lastName: 'Carpenter', phone: '(512) 555-0100' }
    expect(refusedPersonalField({ ...sent, phone: 'call me' })).toBe('phone')
    expect(refusedPersonalField({ ...sent, phone: '1'.repeat(21) })).toBe('phone')
    expect(refusedPersonalField({ ...sent, lastName: 'Car\u202epenter', phone: 'call me' })).toBe('lastName')
    expect(refusedPersonalField({ ...sent, firstName: ' ' })).toBe('firstName')
    // Nothing the rules refuse: the reason is not a field's, and shows under the buttons.
    expect(refusedPersonalField(sent)).toBeNull()
    expect(refusedPersonalField({})).toBeNull()
  })

  test('the order page reads only digits from its URL', () => {
    expect(orderNumberFrom('?number=000042')).toBe('000042')
    expect(orderNumberFrom('?number=42abc')).toBeNull()
    expect(orderNumberFrom('?number=../1')).toBeNull()
    expect(orderNumberFrom('')).toBeNull()
  })
})

describe('checkout prefill for a signed-in customer', () => {
  test('fills an empty form with the e-mail and saved address', () => {
    const filled = prefillFromAccount(emptyDraft(), USER)
    expect(filled.email).toBe('sam@example.com')
    expect(filled.shipping).toEqual({
      name: 'Sam Carpenter',
      street1: '12 Workshop Lane',
      street2: '',
      city: 'Austin',
      state: 'TX',
      zip: '73301',
      country: 'US',
    })
  })

  test('never overwrites what the shopper typed', () => {
    const draft = emptyDraft()
    draft.email = 'gift@example.com'
    draft.shipping.street1 = '9 Other Rd'
    const filled = prefillFromAccount(draft, USER)
    expect(filled.email).toBe('gift@example.com')
    expect(filled.shipping.street1).toBe('9 Other Rd')
    expect(filled.shipping.city).toBe('')
  })

  test('without a saved address only the e-mail is filled', () => {
    const filled = prefillFromAccount(emptyDraft(), { ...USER, address: null })
    expect(filled.email).toBe('sam@example.com')
    expect(filled.shipping).toEqual(emptyDraft().shipping)
  })

  test('the loose auth-store user is checked before use', () => {
    expect(isPublicUser(USER)).toBe(true)
    expect(isPublicUser({ email: 'x@y.z' })).toBe(false)
    expect(isPublicUser(null)).toBe(false)
  })
})
