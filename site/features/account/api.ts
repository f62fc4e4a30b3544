/** The account calls of docs/product.md#account-calls, typed from the API's own schemas (types only: no server code in the bundle). */
import type { PublicUser } from '@core/contracts/account'
import type {
  AuthenticatedResponse,
  LoginBody,
  RegisterBody,
  ResendVerificationResponse,
} from '@core/contracts/auth'
import { apiRequest } from '../../lib/api'

export type { PublicUser }

type Message = { message: string }

/**
 * Whether the auth store's user (typed loosely for the shell) is the whole GET /api/auth/user answer, as
 * the account pages and the checkout prefill need it.
 */
export function isPublicUser(value: unknown): value is PublicUser {
  if (typeof value !== 'object' || value === null) return false
  const user = value as Partial<PublicUser>
  return (
    typeof user.id === 'string' &&
    typeof user.email === 'string' &&
    typeof user.firstName === 'string' &&
    typeof user.notifications === 'object' &&
    user.address !== undefined
  )
}

export const signIn = (body: LoginBody) => apiRequest<AuthenticatedResponse>('POST', '/api/auth/login', body)

export const register = (body: RegisterBody) =>
  apiRequest<AuthenticatedResponse>('POST', '/auth/register', body)

export const signOut = () => apiRequest<Message>('POST', '/api/auth/logout')

export const requestPasswordReset = (email: string) =>
  apiRequest<Message>('POST', '/api/auth/forgot-password', { email })

export const checkResetToken = (token: string) =>
  apiRequest<Message>('POST', '/api/auth/validate-reset-token', { token })

export const resetPassword = (token: string, password: string) =>
  apiRequest<Message>('POST', '/api/auth/reset-password', { token, password })

export const verifyEmail = (token: string) => apiRequest<Message>('POST', '/api/auth/verify-email', { token })

export const resendVerification = () =>
  apiRequest<ResendVerificationResponse>('POST', '/api/auth/resend-verification')
