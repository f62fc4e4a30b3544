import { describe, expect, test } from 'bun:test'
import { passwordLength } from '@core/rules/account'
import {
  afterSignIn,
  googleSignInHref,
  isCheckoutLogin,
  tokenFromFragment,
} from '../../../site/features/account/redirects'
import { hasSessionHint, SIGNED_IN_GUARD_SCRIPT } from '../../../site/features/account/session-hint'
import { SIGNED_IN_CHECK_SCRIPT } from '../../../site/features/account/signed-in-check'
import {
  forgotProblem,
  loginProblem,
  resetProblem,
  signupProblem,
} from '../../../site/features/account/validation'

describe('sign-in form', () => {
  test('e-mail and password are required; the first missing one is named first', () => {
    expect(loginProblem({ email: ' ', password: '' })).toEqual({
      title: 'Missing Information',
      description: 'Please enter your email and password.',
      fields: { email: 'Enter your e-mail address.', password: 'Enter your password.' },
    })
    expect(Object.keys(loginProblem({ email: 'a@b.co', password: '' })?.fields ?? {})).toEqual(['password'])
    expect(loginProblem({ email: 'nope', password: 'x' })?.title).toBe('Invalid Email')
    expect(loginProblem({ email: ' sam@example.com ', password: 'x' })).toBeNull()
  })
})

describe('sign-up form', () => {
  const valid = {
    firstName: 'Sam',
    lastName: 'Carpenter',
    email: 'sam@example.com',
    password: 'secret1',
    confirmPassword: 'secret1',
  }

  test('all fields are required', () => {
    const problem = signupProblem({ ...valid, firstName: '', confirmPassword: '' })
    expect(problem?.title).toBe('Missing Information')
    expect(Object.keys(problem?.fields ?? {})).toEqual(['firstName', 'confirmPassword'])
  })

  test('passwords: at least 6 characters, and the confirmation must match (docs/product.md#sign-in)', () => {
    expect(signupProblem({ ...valid, password: '12345', confirmPassword: '12345' })).toEqual({
      title: 'Password Too Short',
      description: 'Password must be at least 6 characters long.',
      fields: { password: 'Password must be at least 6 characters long.' },
    })
    expect(signupProblem({ ...valid, confirmPassword: 'secret2' })?.title).toBe('Passwords do not match')
    expect(
      signupProblem({ ...valid, password: 'x'.repeat(201), confirmPassword: 'x'.repeat(201) })?.title,
    ).toBe('Password Too Long')
    expect(signupProblem(valid)).toBeNull()
  })

  test('characters are counted as a person counts them, as the server does', () => {
    const thumbs = (n: number) => ({ ...valid, password: '👍'.repeat(n), confirmPassword: '👍'.repeat(n) })
    expect(signupProblem(thumbs(5))?.title).toBe('Password Too Short')
    expect(signupProblem(thumbs(6))).toBeNull()
    expect(signupProblem(thumbs(200))).toBeNull()
    expect(signupProblem(thumbs(201))?.title).toBe('Password Too Long')
    expect(passwordLength('👍🪓 ab')).toBe(5)
  })

  test('a malformed e-mail is caught before sending', () => {
    expect(signupProblem({ ...valid, email: 'sam@' })?.fields).toEqual({
      email: 'Please enter a valid e-mail address, like name@example.com.',
    })
  })
})

describe('forgot and reset password forms', () => {
  const signup = { firstName: 'Sam', lastName: 'Carpenter', email: 'sam@example.com' }

  test("'Email Required' when blank", () => {
    expect(forgotProblem({ email: '  ' })).toMatchObject({
      title: 'Email Required',
      description: 'Please enter your email address.',
    })
    expect(forgotProblem({ email: 'sam@example.com' })).toBeNull()
  })

  test('reset checks all fields, then matching, then length, with the form texts', () => {
    expect(resetProblem({ password: '', confirmPassword: '' })).toMatchObject({
      title: 'All Fields Required',
      description: 'Please fill in all fields.',
    })
    expect(resetProblem({ password: 'abc', confirmPassword: 'abd' })).toMatchObject({
      title: "Passwords Don't Match",
      description: 'Please make sure both passwords are the same.',
    })
    expect(resetProblem({ password: 'abc', confirmPassword: 'abc' })).toMatchObject({
      title: 'Password Too Short',
      description: 'Password must be at least 6 characters long.',
    })
    expect(resetProblem({ password: 'abcdef', confirmPassword: 'abcdef' })).toBeNull()
  })

  test('sign-up and reset give the same length and mismatch messages, each under its own title', () => {
    const long = 'x'.repeat(201)
    const tooLong = {
      title: 'Password Too Long',
      description: 'Passwords can be at most 200 characters.',
      fields: { password: 'Passwords can be at most 200 characters.' },
    }
    expect(resetProblem({ password: long, confirmPassword: long })).toEqual(tooLong)
    expect(signupProblem({ ...signup, password: long, confirmPassword: long })).toEqual(tooLong)
    expect(resetProblem({ password: 'abcdef', confirmPassword: 'abcdeg' })?.fields).toEqual({
      confirmPassword: 'The passwords do not match.',
    })
    expect(signupProblem({ ...signup, password: 'secret1', confirmPassword: 'other1' })).toEqual({
      title: 'Passwords do not match',
      description: 'Please make sure both passwords are the same.',
      fields: { confirmPassword: 'The passwords do not match.' },
    })
  })
})

describe('where sign-in leads', () => {
  test("'Checkout Options' continues at the shipping step; otherwise the account", () => {
    expect(isCheckoutLogin('?checkout=true')).toBe(true)
    expect(isCheckoutLogin('?checkout=false')).toBe(false)
    expect(afterSignIn('?checkout=true')).toBe('/shipping')
    expect(afterSignIn('')).toBe('/account')
  })

  test("'Sign in with Google' carries where sign-in leads, and only a path on this site", () => {
    expect(googleSignInHref('')).toBe('/google-sign-in')
    expect(googleSignInHref('?checkout=true')).toBe('/google-sign-in?next=%2Fshipping')
    expect(googleSignInHref('?next=%2Fdashboard')).toBe('/google-sign-in?next=%2Fdashboard')
    expect(googleSignInHref('?next=%2F%2Fevil.example')).toBe('/google-sign-in')
    expect(googleSignInHref('?next=https%3A%2F%2Fevil.example')).toBe('/google-sign-in')
  })

  test('a token in the fragment is read; anything else is not', () => {
    expect(tokenFromFragment('#token=abc.def')).toBe('abc.def')
    expect(tokenFromFragment('#state=1&token=xyz')).toBe('xyz')
    expect(tokenFromFragment('#')).toBeNull()
    expect(tokenFromFragment('#token=')).toBeNull()
    expect(tokenFromFragment(`#token=${'a'.repeat(5000)}`)).toBeNull()
  })
})

describe('the signed_in hint', () => {
  test('is read from the cookie string, exactly', () => {
    expect(hasSessionHint('signed_in=1')).toBe(true)
    expect(hasSessionHint('theme=dark; signed_in=1; other=2')).toBe(true)
    expect(hasSessionHint('signed_in=0')).toBe(false)
    expect(hasSessionHint('not_signed_in=1')).toBe(false)
    expect(hasSessionHint('signed_in=10')).toBe(false)
    expect(hasSessionHint('')).toBe(false)
  })

  test('the head guard sends a visitor without it to /login and hides the page meanwhile', () => {
    for (const [cookie, expected] of [
      ['', '/login'],
      ['theme=dark', '/login'],
      ['signed_in=1', null],
    ] as const) {
      let replaced = null as string | null
      const attributes: Record<string, string> = {}
      const run = new Function('document', 'location', SIGNED_IN_GUARD_SCRIPT)
      run(
        {
          cookie,
          documentElement: { setAttribute: (name: string, value: string) => (attributes[name] = value) },
        },
        { replace: (to: string) => (replaced = to) },
      )
      expect(replaced).toBe(expected)
      expect('data-leaving' in attributes).toBe(expected !== null)
    }
  })

  test("the sign-in pages' head script hides the page with it, and sends nobody anywhere", () => {
    for (const [cookie, hidden] of [
      ['', false],
      ['theme=dark', false],
      ['signed_in=1', true],
    ] as const) {
      const attributes: Record<string, string> = {}
      const run = new Function('document', 'location', SIGNED_IN_CHECK_SCRIPT)
      run(
        {
          cookie,
          documentElement: { setAttribute: (name: string, value: string) => (attributes[name] = value) },
        },
        {},
      )
      expect('data-signed-in-check' in attributes).toBe(hidden)
    }
  })
})
