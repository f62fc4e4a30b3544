import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { type Client, createClient } from '@libsql/client'
import type { Page } from '@playwright/test'
import { shopOrigin } from './accounts'
import { expect, waitForIsland } from './fixtures'

const ROOT = process.cwd()
export const STAFF_PASSWORD = 'staff-bench-password'
/** The server's database (playwright.config.ts). */
export const DATABASE_URL = process.env.E2E_DATABASE_URL ?? ''

/**
 * A connection to the server's database for a test to read or write beside it. The server holds the write
 * lock while it commits a turn's writes together (docs/decisions/029-group-commit.md), so a write here
 * waits for it, as another instance of the shop would, instead of failing with SQLITE_BUSY at once.
 */
export async function serverDatabase(): Promise<Client> {
  const db = createClient({ url: DATABASE_URL })
  await db.execute('PRAGMA busy_timeout = 10000')
  return db
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
