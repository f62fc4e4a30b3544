import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
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

/** A stand-in for the browser's cookies as `document.cookie` shows them: 'a=1; b=2'. */
function setCookies(initial: string) {
  const jar = new Map<string, string>()
  for (const pair of initial.split('; ').filter(Boolean)) {
    const [name = '', value = ''] = pair.split('=')
    jar.set(name, value)
  }
  ;(globalThis as { document?: unknown }).document = {
    get cookie() {
      return [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
    },
    set cookie(text: string) {
      const [pair = '', ...attributes] = text.split(';').map((part) => part.trim())
      const [name = '', value = ''] = pair.split('=')
      if (attributes.some((attribute) => attribute.toLowerCase() === 'max-age=0')) jar.delete(name)
      else jar.set(name, value)
    },
  }
  return jar
}

beforeEach(() => {
  setCookies('theme=dark; signed_in=1')
})

afterEach(() => {
  globalThis.fetch = realFetch
  delete (globalThis as { document?: unknown }).document
})

// A failed check is logged by design (docs/product.md#sign-in); keep the test output readable.
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

  test('without the signed-in cookie the visitor is signed out and the server is not asked', async () => {
    for (const cookies of ['', 'theme=dark', 'signed_in=0', 'not_signed_in=1', 'signed_in=10']) {
      setCookies(cookies)
      const calls = answer(200, { id: 1 })
      expect(await loadUser({ force: true })).toBeNull()
      expect($user.get()).toBeNull()
      expect(calls()).toBe(0)
    }
  })

  test('with it, a 200 with a user signs in', async () => {
    const calls = answer(200, { id: 1, email: 'crew@example.com' })
    expect(await loadUser({ force: true })).toEqual({ id: 1, email: 'crew@example.com' })
    expect($user.get()).toEqual({ id: 1, email: 'crew@example.com' })
    expect(calls()).toBe(1)
  })

  test('the cookie is found wherever it sits among the others', async () => {
    setCookies('signed_in=1')
    answer(200, { id: 5 })
    expect(await loadUser({ force: true })).toEqual({ id: 5 })
    setCookies('a=1; signed_in=1; b=2')
    expect(await loadUser({ force: true })).toEqual({ id: 5 })
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

  test('a 401 (the session has ended) drops the stale cookie, so the next page does not ask', async () => {
    const jar = setCookies('theme=dark; signed_in=1')
    const calls = answer(401, { error: 'Not signed in.' })
    await loadUser({ force: true })
    expect(jar.has('signed_in')).toBe(false)
    expect(jar.get('theme')).toBe('dark')
    await loadUser({ force: true })
    expect(calls()).toBe(1)
  })

  test('a server failure keeps the cookie: the session may well be fine', async () => {
    const jar = setCookies('signed_in=1')
    answer(500, { error: 'down' })
    await loadUser({ force: true })
    expect(jar.get('signed_in')).toBe('1')
  })

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
