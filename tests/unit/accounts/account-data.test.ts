import { describe, expect, test } from 'bun:test'
import { sameSitePath } from '@core/rules/return-path'
import {
  DELETE_FAILED,
  DELETE_FRAGMENT,
  deleteErrorText,
  GOOGLE_AGAIN_HREF,
  reauthenticateFrom,
  SESSION_ENDED,
} from '../../../site/features/profile/account-data'
import { ApiError, NETWORK_ERROR_MESSAGE } from '../../../site/lib/api'

describe("the profile's delete dialog", () => {
  test("shows the server's own message for a refusal it can act on, and a plain retry otherwise", () => {
    for (const status of [403, 409, 422, 429]) {
      expect(deleteErrorText(new ApiError(status, `message ${status}`))).toBe(`message ${status}`)
    }
    expect(deleteErrorText(new ApiError(401, 'Please sign in to continue.'))).toBe(SESSION_ENDED)
    expect(deleteErrorText(new ApiError(0, 'x'))).toBe(NETWORK_ERROR_MESSAGE)
    expect(deleteErrorText(new ApiError(500, '500: Internal'))).toBe(DELETE_FAILED)
    expect(deleteErrorText(new Error('boom'))).toBe(DELETE_FAILED)
  })

  test('knows when the server asks for a fresh Google sign-in or the password', () => {
    const google = new ApiError(403, 'x', { error: 'x', reauthenticate: 'google' })
    expect(reauthenticateFrom(google)).toBe('google')
    expect(reauthenticateFrom(new ApiError(403, 'x', { reauthenticate: 'password' }))).toBe('password')
    expect(reauthenticateFrom(new ApiError(403, 'x', { reauthenticate: 'admin' }))).toBeNull()
    expect(reauthenticateFrom(new ApiError(422, 'x', { reauthenticate: 'google' }))).toBeNull()
    expect(reauthenticateFrom(new Error('x'))).toBeNull()
  })

  test("'Sign in with Google again' comes back to the profile with the dialog open, a path the server keeps", () => {
    const next = new URL(GOOGLE_AGAIN_HREF, 'https://shop.example').searchParams.get('next')
    expect(next).toBe(`/profile${DELETE_FRAGMENT}`)
    expect(sameSitePath(next)).toBe('/profile#delete-account')
  })
})
