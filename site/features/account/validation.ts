/**
 * What is missing or wrong in each account form, with the toast texts of docs/product.md#sign-in, before anything is sent.
 * Pure, so the rules are tested without a browser. Each problem lists the fields to mark invalid, in form
 * order, so focus goes to the first (docs/product.md#forms).
 */
import { PASSWORD_MAX_LENGTH, passwordLength } from '@core/rules/account'
import { isEmail, PASSWORD_MIN_LENGTH } from '@core/rules/address'

export interface Problem<Field extends string> {
  title: string
  description: string
  /** Field → the message shown under it. Insertion order is form order. */
  fields: Partial<Record<Field, string>>
}

const blank = (value: string) => value.trim() === ''

export const INVALID_EMAIL = 'Please enter a valid e-mail address, like name@example.com.'
export const PASSWORD_TOO_SHORT = `Password must be at least ${PASSWORD_MIN_LENGTH} characters long.`
export const PASSWORD_TOO_LONG = `Passwords can be at most ${PASSWORD_MAX_LENGTH} characters.`

function invalidEmail<Field extends string>(field: Field): Problem<Field> {
  return {
    title: 'Invalid Email',
    description: INVALID_EMAIL,
    fields: { [field]: INVALID_EMAIL } as Partial<Record<Field, string>>,
  }
}

/** A new password's length, the same rule on sign-up and reset (core/rules/address.ts, core/rules/account.ts). */
function passwordLengthProblem(password: string): Problem<'password'> | null {
  const characters = passwordLength(password)
  if (characters < PASSWORD_MIN_LENGTH) {
    return {
      title: 'Password Too Short',
      description: PASSWORD_TOO_SHORT,
      fields: { password: PASSWORD_TOO_SHORT },
    }
  }
  if (characters > PASSWORD_MAX_LENGTH) {
    return {
      title: 'Password Too Long',
      description: PASSWORD_TOO_LONG,
      fields: { password: PASSWORD_TOO_LONG },
    }
  }
  return null
}

/** The confirmation differs from the password; each form words the title its own way. */
function mismatchProblem(form: { password: string; confirmPassword: string }, title: string) {
  if (form.password === form.confirmPassword) return null
  return {
    title,
    description: 'Please make sure both passwords are the same.',
    fields: { confirmPassword: 'The passwords do not match.' },
  } satisfies Problem<'confirmPassword'>
}

export type LoginField = 'email' | 'password'

/** docs/product.md#sign-in: e-mail and password are required. */
export function loginProblem(form: { email: string; password: string }): Problem<LoginField> | null {
  const fields: Partial<Record<LoginField, string>> = {}
  if (blank(form.email)) fields.email = 'Enter your e-mail address.'
  if (form.password === '') fields.password = 'Enter your password.'
  if (Object.keys(fields).length > 0) {
    return { title: 'Missing Information', description: 'Please enter your email and password.', fields }
  }
  if (!isEmail(form.email.trim())) return invalidEmail('email')
  return null
}

export type SignupField = 'firstName' | 'lastName' | 'email' | 'password' | 'confirmPassword'

/** docs/product.md#sign-in: all four fields required, password of 6 or more, and the confirmation must match. */
export function signupProblem(form: Record<SignupField, string>): Problem<SignupField> | null {
  const missing: Partial<Record<SignupField, string>> = {}
  if (blank(form.firstName)) missing.firstName = 'Enter your first name.'
  if (blank(form.lastName)) missing.lastName = 'Enter your last name.'
  if (blank(form.email)) missing.email = 'Enter your e-mail address.'
  if (form.password === '') missing.password = 'Choose a password.'
  if (form.confirmPassword === '') missing.confirmPassword = 'Enter the password again.'
  if (Object.keys(missing).length > 0) {
    return { title: 'Missing Information', description: 'Please fill in all fields.', fields: missing }
  }
  if (!isEmail(form.email.trim())) return invalidEmail('email')
  return passwordLengthProblem(form.password) ?? mismatchProblem(form, 'Passwords do not match')
}

/** docs/product.md#password-reset: 'Email Required' / 'Please enter your email address.' */
export function forgotProblem(form: { email: string }): Problem<'email'> | null {
  if (blank(form.email)) {
    return {
      title: 'Email Required',
      description: 'Please enter your email address.',
      fields: { email: 'Enter your e-mail address.' },
    }
  }
  if (!isEmail(form.email.trim())) return invalidEmail('email')
  return null
}

export type ResetField = 'password' | 'confirmPassword'

/** docs/product.md#password-reset, in its order: all fields, then matching, then length. */
export function resetProblem(form: Record<ResetField, string>): Problem<ResetField> | null {
  const missing: Partial<Record<ResetField, string>> = {}
  if (form.password === '') missing.password = 'Choose a new password.'
  if (form.confirmPassword === '') missing.confirmPassword = 'Enter the new password again.'
  if (Object.keys(missing).length > 0) {
    return { title: 'All Fields Required', description: 'Please fill in all fields.', fields: missing }
  }
  return mismatchProblem(form, "Passwords Don't Match") ?? passwordLengthProblem(form.password)
}
