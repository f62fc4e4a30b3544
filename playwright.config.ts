import { existsSync } from 'node:fs'
import { defineConfig, devices } from '@playwright/test'

// Browser tests run against the real built server (api/main.ts serving dist/) with its own fresh database.
const port = Number(process.env.E2E_PORT ?? 4599)
const baseURL = `http://localhost:${port}`
/** The local OpenID provider that stands in for Google (tests/fakes/openid-provider.ts). */
const openIdPort = port + 1
/**
 * A second shop, without Google sign-in, for the tests of what the pages show then
 * (tests/e2e/google-buttons.spec.ts reads its address from E2E_NO_GOOGLE_URL).
 */
const noGooglePort = port + 2
process.env.E2E_NO_GOOGLE_URL = `http://localhost:${noGooglePort}`
// Debian's Chromium headless shell when it is there: the same engine as the full browser at much less CPU
// (see findChromium in scripts/test.ts).
const chromium =
  process.env.CHROMIUM_PATH ??
  (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium')
// A fresh database per run. Set once in the runner's environment, which its workers inherit, so a test can
// put in place what a real past event left in the database (tests/e2e/dashboard.spec.ts).
const databaseUrl = process.env.E2E_DATABASE_URL ?? `file:./data/e2e/shop-${process.pid}.db`
process.env.E2E_DATABASE_URL = databaseUrl

const launchOptions = {
  executablePath: chromium,
  // Closed network: keep Chromium from calling home, which would only fail and slow every start.
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
}

export default defineConfig({
  testDir: './tests/e2e',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  outputDir: './test-results',
  use: {
    baseURL,
    // No trace: recording each action's DOM, the network and the console for every test, passed or not,
    // cost a tenth to a fifth of the run on two cores (all specs alone: 8.0 min with it, 7.1 without; shell and
    // cart specs: 145 and 182 s with it, 121 s twice without), and a screencast a third more. A failed test keeps its screenshot and its page as an accessibility tree
    // (error-context.md in its folder under test-results/); for the whole trace, run it again with
    // `--trace retain-on-failure` (README.md#test-it).
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions,
  },
  projects: [
    { name: 'phone', use: { ...devices['Pixel 7'], viewport: { width: 390, height: 844 }, launchOptions } },
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions },
    },
  ],
  webServer: [
    {
      command: 'node_modules/.bin/bun tests/fakes/openid-provider.ts',
      url: `http://localhost:${openIdPort}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { OPENID_PORT: String(openIdPort) },
    },
    {
      command: 'node_modules/.bin/bun api/main.ts',
      url: `${baseURL}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: baseURL,
        NODE_ENV: 'test',
        // Light password hashes (api/modules/auth/passwords.ts): the browser tests sign up and in often.
        PASSWORD_HASH: 'test',
        DATABASE_URL: databaseUrl,
        DATA_DIR: './data/e2e',
        // Lets each test act as its own shopper for rate limits (see tests/e2e/support/fixtures.ts).
        TRUST_PROXY: 'true',
        // The shop's day and the dashboard's times, whatever the machine's environment says
        // (tests/e2e/dashboard-time-zone.spec.ts runs its browser in another zone).
        SHOP_TIME_ZONE: 'America/Chicago',
        // Google sign-in against the local provider above.
        GOOGLE_CLIENT_ID: 'grit-and-whisker-e2e',
        GOOGLE_CLIENT_SECRET: 'e2e-secret',
        GOOGLE_ISSUER: `http://localhost:${openIdPort}`,
      },
    },
    {
      command: 'node_modules/.bin/bun api/main.ts',
      url: `http://localhost:${noGooglePort}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(noGooglePort),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://localhost:${noGooglePort}`,
        NODE_ENV: 'test',
        PASSWORD_HASH: 'test',
        DATABASE_URL: `file:./data/e2e-no-google/shop-${process.pid}.db`,
        DATA_DIR: './data/e2e-no-google',
        TRUST_PROXY: 'true',
      },
    },
  ],
})
