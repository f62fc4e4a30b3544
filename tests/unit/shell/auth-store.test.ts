import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { $user, clearUser, loadUser } from '../../../site/features/account/auth-store'

const realFetch = globalThis.fetch

function answer(status: number, body: unknown) {
  let calls = 0
  globalThis.fetch = (async () => {
    calls += 1
    return new Response(body === undefined ? null : JSON.stringify(body), { status })
  }) as unknown as typeof fetch
  return () => calls
}

afterEach(() => {
  globalThis.fetch = realFetch
})

// A failed check is logged by design (spec §8); keep the test output readable.
const realWarn = console.warn
beforeAll(() => {
  console.warn = () => {}
})
afterAll(() => {
  console.warn = realWarn
})

describe('auth store', () => {
  test('starts as loading (undefined)', () => {
    expect($user.get()).toBeUndefined()
  })

  test('a 200 with a user signs in', async () => {
    answer(200, { id: 1, email: 'crew@example.com' })
    expect(await loadUser({ force: true })).toEqual({ id: 1, email: 'crew@example.com' })
    expect($user.get()).toEqual({ id: 1, email: 'crew@example.com' })
  })

  test('a wrapped user is unwrapped, and { user: null } means signed out', async () => {
    answer(200, { user: { id: 2 } })
    expect(await loadUser({ force: true })).toEqual({ id: 2 })
    answer(200, { user: null })
    expect(await loadUser({ force: true })).toBeNull()
  })

  for (const status of [401, 403, 404, 500]) {
    test(`a ${status} means signed out`, async () => {
      answer(status, { error: 'no' })
      expect(await loadUser({ force: true })).toBeNull()
      expect($user.get()).toBeNull()
    })
  }

  test('a network failure means signed out, without throwing', async () => {
    globalThis.fetch = (async () => {
      throw new TypeError('offline')
    }) as unknown as typeof fetch
    expect(await loadUser({ force: true })).toBeNull()
  })

  test('asks the server once per page unless forced', async () => {
    const calls = answer(200, { id: 3 })
    await loadUser({ force: true })
    await loadUser()
    await loadUser()
    expect(calls()).toBe(1)
  })

  test('clearUser signs out at once', async () => {
    answer(200, { id: 4 })
    await loadUser({ force: true })
    clearUser()
    expect($user.get()).toBeNull()
    expect(await loadUser()).toBeNull()
  })
})
