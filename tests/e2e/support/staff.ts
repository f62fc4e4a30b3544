import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Client } from '@libsql/client'
import type { Page } from '@playwright/test'
import { databaseBeside } from '../../support/database-beside'
import { shopOrigin } from './accounts'
import { expect, waitForIsland } from './fixtures'

const ROOT = process.cwd()
export const STAFF_PASSWORD = 'staff-bench-password'
/** The server's database (playwright.config.ts). */
export const DATABASE_URL = process.env.E2E_DATABASE_URL ?? ''

/**
 * A connection to the server's database for a test to read or write beside it. The server holds the write
 * lock while it commits a turn's writes together (docs/decisions/029-group-commit.md), so a write here
 * waits for it, as another instance of the shop would (tests/support/database-beside.ts).
 */
export async function serverDatabase(): Promise<Client> {
  return databaseBeside(DATABASE_URL)
}

/**
 * Runs `body` while no other test, in any worker, holds the lock `name`: for a test that sets figures
 * every project's copy of it sets too (both projects run at once). A folder beside the server's database,
 * made by one holder at a time.
 */
export async function oneAtATime<T>(name: string, body: () => Promise<T>): Promise<T> {
  const lock = join(dirname(DATABASE_URL.slice('file:'.length)), `${name}.lock`)
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  try {
    return await body()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/** A test's own name for what it makes: its e-mail, its session and event ids. */
export function unique(name: string): string {
  return `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}`
}

/**
 * A shipped order of one product written straight into the server's database, as one paid and shipped in
 * the past would be (`placedAt` and `updatedAt` in ms): its id.
 */
export async function insertShippedOrder(
  db: Client,
  order: { email: string; name: string; placedAt: number; updatedAt: number },
): Promise<number> {
  const key = unique('order')
  const address = JSON.stringify({
    name: order.name,
    street1: '12 Mill Rd',
    city: 'Austin',
    state: 'TX',
    zip: '78701',
    country: 'US',
  })
  const inserted = await db.execute({
    sql: `insert into orders (uid, checkout_session_id, source_event_id, email, customer_key, customer_name,
            shipping_address, billing_address, subtotal_cents, discount_cents, shipping_cents, total_cents,
            item_count, total_weight_tenths_oz, shipping_carrier, shipping_service, shipping_service_token,
            status, created_at, updated_at)
          values (lower(hex(randomblob(10))), ?, ?, ?, ?, ?, ?, ?, 2100, 0, 935, 3035, 1, 30, 'USPS',
            'USPS Priority Mail', 'usps_priority', 'shipped', ?, ?)
          returning id`,
    args: [
      `cs_test_e2e_${key}`,
      `evt_e2e_${key}`,
      order.email,
      order.email.toLowerCase(),
      order.name,
      address,
      address,
      order.placedAt,
      order.updatedAt,
    ],
  })
  return Number(inserted.rows[0]?.id)
}

/** `npm run staff -- add` against the test server's database, as staff are made on a real server. */
export function addStaff(email: string): void {
  execFileSync(
    join(ROOT, 'node_modules/.bin/bun'),
    ['scripts/staff.ts', 'add', email, '--name', 'Jo Mason'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        // The test server's light password hashes (playwright.config.ts): the strong one costs half a second.
        PASSWORD_HASH: 'test',
        DATABASE_URL,
        DATA_DIR: './data/e2e',
        STAFF_PASSWORD,
      },
      stdio: 'pipe',
    },
  )
}

/**
 * Signs a staff member made by addStaff in through the call the sign-in form makes (POST /api/auth/login,
 * in the page's context) and opens the hydrated dashboard. The sign-in form itself, and being sent there
 * from /dashboard and back, are tested in tests/e2e/dashboard.spec.ts.
 */
export async function signInToDashboard(page: Page, email: string): Promise<void> {
  const res = await page.request.post('/api/auth/login', {
    data: { email, password: STAFF_PASSWORD },
    headers: { origin: shopOrigin() },
  })
  expect(res.status(), await res.text()).toBe(200)
  await page.goto('/dashboard')
  await expect(page).toHaveURL(/\/dashboard$/)
  await waitForIsland(page, 'DashboardPage')
}
