import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createApp } from '../../../api/app'
import { prepareData } from '../../../api/boot'
import { type AppDeps, depsFromConfig } from '../../../api/deps'
import { readConfig } from '../../../api/env'
import { fixedClock } from '../../../api/lib/clock'
import { loadCatalogFromContent } from '../../../api/modules/catalog/content'
import { createJobRunner } from '../../../api/modules/jobs/runner'
import { waitlistsFromContent } from '../../../api/modules/newsletter/waitlists'
import { loadStaticSite } from '../../../api/plugins/static-site'
import { createServices, type Services } from '../../../api/services'
import { type DatabaseOptions, openDatabase } from '../../../db/client'

export const ORIGIN = 'http://localhost:4321'

/**
 * The configuration a production server runs with, for tests of what changes there (Secure cookies,
 * HSTS). Production refuses the demo payment provider, so Stripe keys are set; no test here pays.
 */
export const PRODUCTION_ENV: Record<string, string> = {
  NODE_ENV: 'production',
  STRIPE_SECRET_KEY: 'sk_test_production_config',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_production_config',
  STRIPE_WEBHOOK_SECRET: 'whsec_production_config',
}

export interface TestApp {
  app: ReturnType<typeof createApp>
  deps: AppDeps
  /** The services the app was built with (api/services.ts), for tests that call one directly. */
  services: Services
  clock: ReturnType<typeof fixedClock>
  /** Sends a request the way the shop's own pages would (same origin, JSON). */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>
  /** Runs the queued jobs (confirmation e-mails, label purchases) that are due at the test clock's time. */
  runDueJobs(): Promise<{ ran: number; failed: number }>
  /** Finishes payment events left unfinished (as the background loop does every few seconds). */
  sweepWebhooks(): Promise<number>
  /** The job runner's sweep: unfinished payment events finished, stock holds that ran out released, stale requests forgotten. */
  sweep(): Promise<void>
  close(): void
}

/**
 * The real app with a real database in a temporary file, a clock the test controls, and a small fixture
 * site instead of the Astro build. Each test file gets its own. Outside services are the built-in
 * stand-ins chosen from `env` (rate table, demo payments, outbox in the temporary folder) unless
 * `overrides` replaces them; pass a function to build overrides from the test's database and clock.
 * `databaseOptions` tunes the database client (scripts/bench/micro.ts compares kept statements with none).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  overrides: Partial<AppDeps> | ((base: AppDeps) => Partial<AppDeps>) = {},
  databaseOptions: DatabaseOptions = {},
): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'shop-test-'))
  const config = readConfig({
    NODE_ENV: 'test',
    // Light password hashes (api/modules/auth/passwords.ts), which only a test run may use; a test of
    // sign-in timing passes 'strong'.
    PASSWORD_HASH: (env.NODE_ENV ?? 'test') === 'test' ? 'test' : 'strong',
    PUBLIC_URL: ORIGIN,
    DATABASE_URL: `file:${join(dir, 'shop.db')}`,
    DATA_DIR: dir,
    ...env,
  })
  const database = await openDatabase(config.databaseUrl, undefined, databaseOptions)
  // In-process, as the tests load the content modules anyway; the server reads them in a child (api/content-at-boot.ts).
  await prepareData(database.db, loadCatalogFromContent())
  const clock = fixedClock(new Date('2026-03-02T15:00:00Z'))
  const base = depsFromConfig(config, database.db, {
    clock,
    site: loadStaticSite(resolve(import.meta.dir, '../../fixtures/site')),
    waitlists: waitlistsFromContent(),
  })
  const deps: AppDeps = { ...base, ...(typeof overrides === 'function' ? overrides(base) : overrides) }
  const services = createServices(deps)
  const app = createApp(deps, services)
  const jobs = createJobRunner(services)
  return {
    app,
    deps,
    services,
    clock,
    call(method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { origin: ORIGIN, ...headers } }
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body)
        ;(init.headers as Record<string, string>)['content-type'] ??= 'application/json'
      }
      return app.handle(new Request(`${ORIGIN}${path}`, init))
    },
    runDueJobs: () => jobs.runDueJobs(),
    sweepWebhooks: () => services.webhooks.sweep(),
    sweep: () => jobs.sweep(),
    close() {
      database.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
