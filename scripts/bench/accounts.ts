// Accounts for the benchmark: customers of the large shop, and the staff member and customer Lighthouse and
// the large-shop scenario sign in as. They are rows of the real users table, made directly (the shop has
// no sign-up for staff), and signed in through the shop's own password sign-in.
import type { UserRole } from '@core/rules/account'
import type { Database } from '../../db/client'
import { users } from '../../db/schema'

export type Role = UserRole

export interface AccountRow {
  id: string
  email: string
  role: Role
  firstName: string
  lastName: string
}

/** The password of every account the benchmark makes (a local, throwaway database). */
export const BENCH_PASSWORD = 'bench-Passw0rd-not-secret'

/**
 * Inserts accounts in batches of multi-row INSERTs, all with one password hash: hashing is slow on
 * purpose (argon2id), and 10,000 hashes would take minutes without telling anything about the shop.
 */
export async function insertAccounts(
  db: Database,
  accounts: AccountRow[],
  passwordHash: string,
  createdAt: Date,
): Promise<void> {
  const perStatement = 500
  await db.transaction(async (tx) => {
    for (let start = 0; start < accounts.length; start += perStatement) {
      await tx.insert(users).values(
        accounts.slice(start, start + perStatement).map((account) => ({
          ...account,
          passwordHash,
          createdAt,
          updatedAt: createdAt,
        })),
      )
    }
  })
}

export const hashBenchPassword = () => Bun.password.hash(BENCH_PASSWORD, { algorithm: 'argon2id' })

/** A cookie the shop set at sign-in, as a browser would store it. */
export interface SessionCookie {
  name: string
  value: string
  httpOnly: boolean
}

export interface Session {
  /** The Cookie header a browser sends afterwards. */
  cookie: string
  cookies: SessionCookie[]
}

/**
 * Signs in through the shop's own password sign-in (POST /api/auth/login) and returns the cookies it set,
 * or why it could not.
 */
export async function signIn(
  baseUrl: string,
  email: string,
  password = BENCH_PASSWORD,
): Promise<Session | { why: string }> {
  let response: Response
  try {
    response = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl },
      body: JSON.stringify({ email, password }),
      redirect: 'manual',
    })
  } catch (error) {
    return { why: `POST /api/auth/login failed: ${error instanceof Error ? error.message : String(error)}` }
  }
  const body = await response.text()
  if (response.status === 404) return { why: 'POST /api/auth/login answers 404 (no password sign-in yet)' }
  if (!response.ok) return { why: `POST /api/auth/login answered ${response.status}: ${body.slice(0, 200)}` }
  const cookies: SessionCookie[] = []
  for (const header of response.headers.getSetCookie()) {
    const [pair = '', ...attributes] = header.split(';')
    const equals = pair.indexOf('=')
    if (equals <= 0) continue
    cookies.push({
      name: pair.slice(0, equals).trim(),
      value: pair.slice(equals + 1).trim(),
      httpOnly: attributes.some((attribute) => attribute.trim().toLowerCase() === 'httponly'),
    })
  }
  if (cookies.length === 0) return { why: 'POST /api/auth/login answered 200 without setting a cookie' }
  return { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '), cookies }
}
