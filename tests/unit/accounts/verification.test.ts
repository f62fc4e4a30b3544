import { describe, expect, test } from 'bun:test'
import {
  resendFailedText,
  verificationToken,
  verifyOutcome,
} from '../../../site/features/account/verification'
import { ApiError, NETWORK_ERROR_MESSAGE } from '../../../site/lib/api'

describe('/verify-email: the state for each refusal of the verify call', () => {
  test('409 is a used link, 422 an expired or an invalid one by its reason', () => {
    expect(verifyOutcome(new ApiError(409, 'x', { error: 'x', reason: 'used' }))).toEqual({ kind: 'used' })
    expect(verifyOutcome(new ApiError(422, 'x', { error: 'x', reason: 'expired' }))).toEqual({
      kind: 'expired',
    })
    expect(verifyOutcome(new ApiError(422, 'x', { error: 'x', reason: 'invalid' }))).toEqual({
      kind: 'invalid',
    })
    // A schema refusal carries no reason: the link is not one of ours.
    expect(verifyOutcome(new ApiError(422, 'x', { error: 'x' }))).toEqual({ kind: 'invalid' })
  })

  test('401 asks to sign in to the account first; 403 is a link of another account', () => {
    expect(verifyOutcome(new ApiError(401, 'Please sign in to continue.'))).toEqual({ kind: 'signIn' })
    expect(verifyOutcome(new ApiError(403, 'x', { error: 'x', reason: 'otherAccount' }))).toEqual({
      kind: 'otherAccount',
    })
    // The security check's 403 (not the shop's own request) says nothing about the link: try again later.
    expect(
      verifyOutcome(new ApiError(403, 'This request must come from the shop itself.', { error: 'x' })),
    ).toEqual({ kind: 'failed', message: 'Something went wrong. Please try again.' })
  })

  test('nothing decided: no connection, too many attempts, a server fault (the link may work later)', () => {
    expect(verifyOutcome(new ApiError(0, 'offline'))).toEqual({
      kind: 'failed',
      message: NETWORK_ERROR_MESSAGE,
    })
    expect(verifyOutcome(new TypeError('fetch failed'))).toEqual({
      kind: 'failed',
      message: NETWORK_ERROR_MESSAGE,
    })
    expect(verifyOutcome(new ApiError(429, 'Too many attempts. Wait 15 minutes.'))).toEqual({
      kind: 'failed',
      message: 'Too many attempts. Wait 15 minutes.',
    })
    expect(verifyOutcome(new ApiError(503, 'busy'))).toEqual({
      kind: 'failed',
      message: 'Something went wrong. Please try again.',
    })
  })

  test('the token is read from the address, never an oversize one', () => {
    expect(verificationToken('?token=abc234')).toBe('abc234')
    expect(verificationToken('')).toBe('')
    expect(verificationToken(`?token=${'a'.repeat(65)}`)).toBe('')
  })
})

describe("the profile's 'Send the link again'", () => {
  test('a wait to respect, an ended session, a refusal or no connection each say so', () => {
    expect(resendFailedText(new ApiError(429, 'Too many links asked for this e-mail.'))).toBe(
      'Too many links asked for this e-mail.',
    )
    expect(resendFailedText(new ApiError(401, 'Please sign in'))).toBe(
      'Your session has ended. Please sign in again.',
    )
    expect(resendFailedText(new ApiError(500, 'x'))).toBe('The link could not be sent. Please try again.')
    expect(resendFailedText(new ApiError(0, 'x'))).toBe(NETWORK_ERROR_MESSAGE)
  })
})
