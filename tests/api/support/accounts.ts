/** Signing up and in as a shopper would, and carrying the cookies the answers set, for the account tests. */
import { expect } from 'bun:test'
import type { TestApp } from './test-app'

export const PASSWORD = 'sawdust-and-cedar'

/** Parsed Set-Cookie headers, by cookie name. */
export function setCookies(res: Response): Map<string, { value: string; attributes: string[] }> {
  const cookies = new Map<string, { value: string; attributes: string[] }>()
  for (const header of res.headers.getSetCookie()) {
    const [pair = '', ...attributes] = header.split(';').map((part) => part.trim())
    const index = pair.indexOf('=')
    cookies.set(pair.slice(0, index), { value: decodeURIComponent(pair.slice(index + 1)), attributes })
  }
  return cookies
}

/** The Cookie header a browser would send back after this answer: live cookies only. */
export function cookieHeader(res: Response): string {
  return [...setCookies(res)]
    .filter(([, cookie]) => cookie.value !== '' && !cookie.attributes.includes('Max-Age=0'))
    .map(([name, cookie]) => `${name}=${cookie.value}`)
    .join('; ')
}

let counter = 0
/** A fresh address per call, so tests never collide on the UNIQUE e-mail. */
export function uniqueEmail(name = 'sam'): string {
  counter += 1
  return `${name}.${counter}.${Math.floor(Math.random() * 1e9)}@example.com`
}

export interface Customer {
  email: string
  password: string
  /** The Cookie header that signs this customer in. */
  cookie: string
  id: string
}

/** A client address of its own for each sign-up (when the app trusts X-Forwarded-For), as separate people have. */
export function uniqueAddress(): Record<string, string> {
  counter += 1
  return { 'x-forwarded-for': `10.200.${(counter >> 8) & 255}.${counter & 255}` }
}

export async function signUp(
  shop: TestApp,
  fields: Partial<{ firstName: string; lastName: string; email: string; password: string }> = {},
): Promise<Customer> {
  const email = fields.email ?? uniqueEmail()
  const password = fields.password ?? PASSWORD
  const body = {
    firstName: fields.firstName ?? 'Sam',
    lastName: fields.lastName ?? 'Carpenter',
    email,
    password,
  }
  const res = await shop.call('POST', '/auth/register', body, uniqueAddress())
  expect(res.status).toBe(200)
  const answer = (await res.json()) as { user: { id: string } }
  return { email: email.toLowerCase(), password, cookie: cookieHeader(res), id: answer.user.id }
}

export async function signIn(
  shop: TestApp,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return shop.call('POST', '/api/auth/login', { email, password }, headers)
}

/** GET /api/auth/user with these cookies. */
export function whoAmI(shop: TestApp, cookie: string): Promise<Response> {
  return shop.call('GET', '/api/auth/user', undefined, cookie ? { cookie } : {})
}
