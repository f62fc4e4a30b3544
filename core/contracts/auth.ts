import { t } from 'elysia'
import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MAX_UNITS } from '../rules/account'
import { publicUserSchema } from './account'

// Lengths are capped here so nothing oversize is ever hashed or stored; content rules (e-mail shape,
// password minimum) are checked in the service, with the messages docs/product.md#sign-in lists.

const email = t.String({
  maxLength: 254,
  error: 'Please enter a valid e-mail address, like name@example.com.',
})
const password = t.String({
  maxLength: PASSWORD_MAX_UNITS,
  error: `Passwords can be at most ${PASSWORD_MAX_LENGTH} characters.`,
})

/** POST /auth/register (docs/product.md#account-calls). */
export const registerBody = t.Object({
  firstName: t.String({
    maxLength: NAME_MAX_LENGTH,
    error: `First name must be at most ${NAME_MAX_LENGTH} characters.`,
  }),
  lastName: t.String({
    maxLength: NAME_MAX_LENGTH,
    error: `Last name must be at most ${NAME_MAX_LENGTH} characters.`,
  }),
  email,
  password,
})

export type RegisterBody = typeof registerBody.static

export const authenticatedResponse = t.Object({
  authenticated: t.Literal(true),
  message: t.String(),
  user: publicUserSchema,
})

export type AuthenticatedResponse = typeof authenticatedResponse.static

/** POST /api/auth/login. */
export const loginBody = t.Object({ email, password })

export type LoginBody = typeof loginBody.static

/** POST /api/auth/forgot-password. */
export const forgotPasswordBody = t.Object({ email })

export type ForgotPasswordBody = typeof forgotPasswordBody.static

/** A reset token as e-mailed: 32 lower-case base32 characters; anything longer is refused unread. */
const token = t.String({ maxLength: 64, error: 'This reset link is invalid or has expired.' })

/** POST /api/auth/validate-reset-token. */
export const resetTokenBody = t.Object({ token })

/** POST /api/auth/reset-password. */
export const resetPasswordBody = t.Object({ token, password })

export type ResetPasswordBody = typeof resetPasswordBody.static

export const messageResponse = t.Object({ message: t.String() })

/** An e-mail verification token as e-mailed: 32 lower-case base32 characters; anything longer is refused unread. */
const verificationToken = t.String({
  maxLength: 64,
  error: 'This verification link is not valid. Sign in and send a new one from your account page.',
})

/** POST /api/auth/verify-email. */
export const verifyEmailBody = t.Object({ token: verificationToken })

/** POST /api/auth/resend-verification: what happened, and whether the address is proved already. */
export const resendVerificationResponse = t.Object({ message: t.String(), emailVerified: t.Boolean() })

export type ResendVerificationResponse = typeof resendVerificationResponse.static
