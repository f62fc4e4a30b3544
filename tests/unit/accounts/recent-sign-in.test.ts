import { describe, expect, test } from 'bun:test'
import { RECENT_SIGN_IN_MS, signedInRecentlyWith } from '@core/rules/account'

const now = new Date('2026-03-02T15:00:00Z')
const ago = (ms: number) => new Date(now.getTime() - ms)

describe('a recent sign-in, which stands in for a password when an account made with Google is deleted', () => {
  test('a Google sign-in up to 10 minutes old counts; older does not', () => {
    expect(RECENT_SIGN_IN_MS).toBe(10 * 60 * 1000)
    expect(signedInRecentlyWith({ createdAt: now, signedInWith: 'google' }, 'google', now)).toBe(true)
    expect(
      signedInRecentlyWith({ createdAt: ago(RECENT_SIGN_IN_MS), signedInWith: 'google' }, 'google', now),
    ).toBe(true)
    expect(
      signedInRecentlyWith({ createdAt: ago(RECENT_SIGN_IN_MS + 1), signedInWith: 'google' }, 'google', now),
    ).toBe(false)
  })

  test('only the method asked for counts, and a session from before methods were recorded never does', () => {
    expect(signedInRecentlyWith({ createdAt: now, signedInWith: 'password' }, 'google', now)).toBe(false)
    expect(signedInRecentlyWith({ createdAt: now, signedInWith: null }, 'google', now)).toBe(false)
  })

  test('a sign-in dated in the future (a clock gone wrong) does not count', () => {
    expect(
      signedInRecentlyWith(
        { createdAt: new Date(now.getTime() + 1000), signedInWith: 'google' },
        'google',
        now,
      ),
    ).toBe(false)
  })
})
