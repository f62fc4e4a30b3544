// The large-shop scenario of `npm run bench` (docs/architecture.md#performance-budgets, "Scale with data"): the shop grown to 1,000, then
// 10,000, then 100,000 orders (scripts/bench/large-shop-data.ts), and at each size the built server, pinned
// like the API load test, asked for the staff dashboard's stats, orders, order searches (by e-mail, name
// start, number, statuses and days), webhook events and products with their stock (signed in as staff) and for a customer's order
// history (signed in as that customer). The p99 of each call at each size shows whether its cost stays
// flat as the shop grows.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { localDate } from '../../api/lib/time-zone'
import { openDatabase } from '../../db/client'
import { hashBenchPassword, insertAccounts, signIn } from './accounts'
import {
  customerEmail,
  FULL_SIZE_ORDERS,
  growShop,
  REGULAR_CUSTOMER,
  type ShopCounts,
  STAFF_EMAIL,
} from './large-shop-data'
import { runWithTimeout } from './processes'
import { startServer } from './server'
import type { LargeShopEndpoint, LargeShopLoadConfig, ScenarioResult } from './types'

export const SKIPPED_WITHOUT_DASHBOARD = 'large-shop scenario: needs /api/dashboard/* and accounts; skipped'

export interface LargeShopStage {
  orders: number
  counts: ShopCounts
  /** Seconds it took to grow the shop to this size (not part of any measurement). */
  fillSeconds: number
  results: ScenarioResult[]
}

export interface LargeShopSection {
  /** Why the scenario did not run or stopped early; absent when every size was measured. */
  skipped?: string
  failure?: string
  sizes: number[]
  connections: number
  warmupSeconds: number
  durationSeconds: number
  stages: LargeShopStage[]
}

export interface LargeShopOptions {
  workDir: string
  distDir: string
  /** The built large-shop-load.mjs (Node). */
  generator: string
  sizes: number[]
  connections: number
  warmupSeconds: number
  durationSeconds: number
  serverCore: string | null
  loadCore: string | null
  clockTicks: number
  /** Epoch milliseconds by which the scenario must be done; sizes that would not fit are left out. */
  deadline: number
}

/**
 * The searches staff make, with data every size has: customer 42 and order 500 exist from 1,000 orders on,
 * and 'Customer 42' starts the names of customers 42, 420–429 and 4200–4299 (about 1% of the orders at
 * 100,000). The days are the shop's (SHOP_TIME_ZONE, as the server reads it): shipped orders of the week
 * before yesterday, and failed ones (1 in 200) of the last 30 days.
 */
export function searchPaths(now: Date, timeZone: string): { id: string; title: string; path: string }[] {
  const day = (daysAgo: number) => localDate(new Date(now.getTime() - daysAgo * 86_400_000), timeZone)
  return [
    {
      id: 'search-email',
      title: 'Order search by e-mail (staff)',
      path: `/api/orders?q=${encodeURIComponent(customerEmail(42))}`,
    },
    {
      id: 'search-name',
      title: 'Order search by name start (staff)',
      path: `/api/orders?q=${encodeURIComponent('Customer 42')}`,
    },
    { id: 'search-number', title: 'Order search by number (staff)', path: '/api/orders?q=%23000500' },
    {
      id: 'search-shipped-week',
      title: 'Orders by status and days: shipped, a week (staff)',
      path: `/api/orders?status=shipped&from=${day(8)}&to=${day(1)}`,
    },
    {
      id: 'search-failed-month',
      title: 'Orders by status and days: failed, 30 days (staff)',
      path: `/api/orders?status=failed&from=${day(29)}&to=${day(0)}`,
    },
  ]
}

/** The calls measured: the staff dashboard's and its searches, and a customer's order history. */
function endpoints(staffCookie: string, customerCookie: string, now: Date): LargeShopEndpoint[] {
  const staff = { cookie: staffCookie }
  const timeZone = process.env.SHOP_TIME_ZONE || 'America/Chicago'
  return [
    { id: 'stats', title: 'Dashboard stats (staff)', path: '/api/dashboard/stats', headers: staff },
    { id: 'orders', title: 'Orders (staff)', path: '/api/orders', headers: staff },
    ...searchPaths(now, timeZone).map((search) => ({ ...search, headers: staff })),
    { id: 'webhooks', title: 'Webhook events (staff)', path: '/api/webhooks', headers: staff },
    // Reads every order that may still ship, for the units each product's count leaves out.
    { id: 'products', title: 'Products and stock (staff)', path: '/api/products', headers: staff },
    {
      id: 'history',
      title: 'Order history (customer with 10 orders)',
      path: '/api/user/orders',
      headers: { cookie: customerCookie },
    },
  ]
}

async function dashboardAnswers(baseUrl: string): Promise<boolean> {
  const response = await fetch(`${baseUrl}/api/dashboard/stats`)
  await response.arrayBuffer()
  return response.status !== 404
}

/** How many calls are measured at each size. */
const CALLS_MEASURED = endpoints('', '', new Date()).length

/** Rough seconds a size takes: growing (about 0.3 ms an order on a 2-core machine) plus measuring every call. */
function secondsFor(orders: number, options: LargeShopOptions): number {
  return orders * 0.0003 + CALLS_MEASURED * (options.warmupSeconds + options.durationSeconds) + 10
}

export async function runLargeShop(options: LargeShopOptions): Promise<LargeShopSection> {
  const section: LargeShopSection = {
    sizes: options.sizes,
    connections: options.connections,
    warmupSeconds: options.warmupSeconds,
    durationSeconds: options.durationSeconds,
    stages: [],
  }
  const dir = join(options.workDir, 'large-shop')
  mkdirSync(dir, { recursive: true })
  const dbFile = join(dir, 'shop.db')
  const database = await openDatabase(`file:${dbFile}`)
  // One clock for every size: the newest order is placed now, so "orders today" counts a real day.
  const now = new Date()
  try {
    const passwordHash = await hashBenchPassword()
    await insertAccounts(
      database.db,
      [{ id: 'bench-staff', email: STAFF_EMAIL, role: 'staff', firstName: 'Staff', lastName: 'Member' }],
      passwordHash,
      now,
    )
    let previous = 0
    for (const size of options.sizes) {
      const left = (options.deadline - Date.now()) / 1000
      if (left < secondsFor(size - previous, options)) {
        section.skipped = `stopped before ${size.toLocaleString('en-US')} orders: the run's time limit (${Math.round(left)} s left)`
        break
      }
      const fillStarted = performance.now()
      const counts = await growShop(database.db, size, { now, passwordHash })
      const fillSeconds = Math.round((performance.now() - fillStarted) / 100) / 10
      previous = size
      console.log(
        `  ${counts.orders.toLocaleString('en-US')} orders, ${counts.orderLines.toLocaleString('en-US')} lines, ${counts.webhookEvents.toLocaleString('en-US')} events, ${counts.customers.toLocaleString('en-US')} customers in ${fillSeconds} s`,
      )
      const server = await startServer({ dir, dbFile, core: options.serverCore, distDir: options.distDir })
      try {
        if (!(await dashboardAnswers(server.url))) {
          section.skipped = SKIPPED_WITHOUT_DASHBOARD
          return section
        }
        const staff = await signIn(server.url, STAFF_EMAIL)
        const customer = await signIn(server.url, customerEmail(REGULAR_CUSTOMER))
        if ('why' in staff) {
          section.failure = `signing in as staff failed: ${staff.why}`
          return section
        }
        if ('why' in customer) {
          section.failure = `signing in as the customer failed: ${customer.why}`
          return section
        }
        const resultFile = join(dir, `results-${size}.json`)
        const config: LargeShopLoadConfig = {
          baseUrl: server.url,
          connections: options.connections,
          warmupSeconds: options.warmupSeconds,
          durationSeconds: options.durationSeconds,
          endpoints: endpoints(staff.cookie, customer.cookie, now),
          resultFile,
          serverPid: server.pid,
          clockTicks: options.clockTicks,
        }
        const configFile = join(dir, `config-${size}.json`)
        writeFileSync(configFile, JSON.stringify(config))
        const cmd = [
          ...(options.loadCore === null ? [] : ['taskset', '-c', options.loadCore]),
          'node',
          options.generator,
          configFile,
        ]
        const code = await runWithTimeout(cmd, {
          timeoutMs: Math.max(30_000, options.deadline - Date.now()),
          label: 'large-shop load generator',
        })
        if (code !== 0 || !existsSync(resultFile)) {
          section.failure = `the large-shop load generator exited ${code} at ${size.toLocaleString('en-US')} orders (its output is above in the console).`
          return section
        }
        const results = JSON.parse(readFileSync(resultFile, 'utf8')) as ScenarioResult[]
        section.stages.push({ orders: size, counts, fillSeconds, results })
      } finally {
        await server.stop()
      }
    }
    return section
  } finally {
    database.close()
  }
}

/** The sizes of a full run, and of `--quick` (a trial that the scenario works, not a measurement of it). */
export const LARGE_SHOP_SIZES = { full: [1_000, 10_000, FULL_SIZE_ORDERS], quick: [1_000, 10_000] }
