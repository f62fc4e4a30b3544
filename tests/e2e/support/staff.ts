import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, waitForIsland } from './fixtures'

const ROOT = process.cwd()
export const STAFF_PASSWORD = 'staff-bench-password'
/** The server's database (playwright.config.ts). */
export const DATABASE_URL = process.env.E2E_DATABASE_URL ?? ''

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

/** Signs a staff member made by addStaff in through the login form and lands on the hydrated dashboard. */
export async function signInToDashboard(page: Page, email: string): Promise<void> {
  await page.goto('/login?next=/dashboard')
  await waitForIsland(page, 'LoginForm')
  await page.getByLabel(/^Email/).fill(email)
  await page.getByLabel(/^Password/).fill(STAFF_PASSWORD)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await waitForIsland(page, 'DashboardPage')
}
