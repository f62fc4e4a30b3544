// `bun scripts/js-budget.ts [--dist <dir>]`: the gzip weight of the JavaScript each built page loads, against
// the budgets of docs/architecture.md#performance-budgets. Counted per page, each file once: inline scripts,
// module scripts and the modules they import statically, modulepreloads, and every island's component and
// renderer (with their static imports), whatever its client directive, because all of them load during a
// normal visit. Exits 1 when a page is over its budget.
// `npm run budget` (`--write-readme`) also writes the README's 'JavaScript per page' table from the
// measurement, between its two marker comments; `--check` (what `npm test` runs) exits 1 when that table
// is not what the build measures, so the README never quotes a stale number.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, posix, relative, resolve, sep } from 'node:path'
import { gzipSync } from 'node:zlib'
import { WITHOUT_GOOGLE_DIR } from '@core/rules/site-variants'
import { AFTER_PAINT_LIST_ID } from '../site/integrations/after-first-paint'
import { TARGETS } from './bench/targets'
import { filesUnder } from './files-under'

const KIB = 1024
/** Content pages: React (~67 KiB) plus about 18 KiB of islands. */
export const CONTENT_BUDGET = TARGETS.javascript.contentPageKib * KIB
/** Cart, checkout, account and staff pages carry forms and state machines; Stripe.js is not counted. */
export const APP_BUDGET = TARGETS.javascript.appPageKib * KIB
const APP_PATHS = [
  '/cart',
  '/shipping',
  '/checkout',
  '/success',
  '/login',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
  '/google-sign-in',
  // The sign-in pages built without Google buttons (core/rules/site-variants.ts).
  WITHOUT_GOOGLE_DIR,
  '/profile',
  '/account',
  '/dashboard',
]

export function budgetFor(route: string): { kind: 'content' | 'app'; bytes: number } {
  const isApp = APP_PATHS.some((path) => route === path || route.startsWith(`${path}/`))
  return isApp ? { kind: 'app', bytes: APP_BUDGET } : { kind: 'content', bytes: CONTENT_BUDGET }
}

const gzipCache = new Map<string, number>()
export function gzipSize(text: string | Uint8Array): number {
  return gzipSync(text, { level: 9 }).byteLength
}

/** Static `import … from '…'`, `import '…'` and `export … from '…'` specifiers; never `import(…)`. */
export function staticImports(code: string): string[] {
  const found = new Set<string>()
  const pattern = /(?:^|[^\w$.])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+)["']/g
  for (const match of code.matchAll(pattern)) if (match[1]) found.add(match[1])
  return [...found]
}

export interface PageScripts {
  inline: string[]
  urls: string[]
}

/** The attributes of the JSON list of modules the after-paint loader imports. */
const AFTER_PAINT_LIST = new RegExp(`\\bid=["']?${AFTER_PAINT_LIST_ID}\\b`)

/**
 * The scripts an HTML page starts: inline code and the URLs of module scripts, preloads, islands, and the
 * modules the after-paint loader imports (site/integrations/after-first-paint.ts lists them in JSON).
 */
export function pageScripts(html: string): PageScripts {
  const inline: string[] = []
  const urls = new Set<string>()
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = match[1] ?? ''
    const body = match[2] ?? ''
    const type = /\btype=["']?([^"'\s>]+)/i.exec(attrs)?.[1]
    if (AFTER_PAINT_LIST.test(attrs)) {
      for (const src of JSON.parse(body) as string[]) urls.add(src)
      continue
    }
    if (type && type !== 'module' && !type.includes('javascript')) continue // JSON, templates
    const src = /\bsrc=["']?([^"'\s>]+)/i.exec(attrs)?.[1]
    if (src) urls.add(src)
    else if (body.trim()) {
      inline.push(body)
      if (type === 'module') for (const specifier of staticImports(body)) urls.add(specifier)
    }
  }
  for (const match of html.matchAll(/<link\b[^>]*\brel=["']?modulepreload[^>]*>/gi)) {
    const href = /\bhref=["']?([^"'\s>]+)/i.exec(match[0])?.[1]
    if (href) urls.add(href)
  }
  for (const match of html.matchAll(/<astro-island\b[^>]*>/gi)) {
    for (const attr of ['component-url', 'renderer-url', 'before-hydration-url']) {
      const url = new RegExp(`\\b${attr}=["']([^"']*)["']`, 'i').exec(match[0])?.[1]
      if (url) urls.add(url)
    }
  }
  return { inline, urls: [...urls] }
}

function routeOf(distDir: string, file: string): string {
  const path = `/${relative(distDir, file).split(sep).join('/')}`
  return (
    path
      .replace(/index\.html$/, '')
      .replace(/\.html$/, '')
      .replace(/(.)\/$/, '$1') || '/'
  )
}

export interface PageWeight {
  route: string
  files: { path: string; gzip: number }[]
  inlineGzip: number
  total: number
  budget: number
  kind: 'content' | 'app'
}

/** Follows a page's scripts through their static imports and adds up the gzip sizes. */
export function measurePage(distDir: string, htmlFile: string): PageWeight {
  const route = routeOf(distDir, htmlFile)
  const html = readFileSync(htmlFile, 'utf8')
  const { inline, urls } = pageScripts(html)
  const pageUrl = `/${relative(distDir, htmlFile).split(sep).join('/')}`
  const seen = new Set<string>()
  const queue = urls.map((url) => posix.resolve(posix.dirname(pageUrl), url.split(/[?#]/)[0] ?? url))
  while (queue.length > 0) {
    const url = queue.shift() as string
    if (seen.has(url) || /^[a-z]+:/i.test(url)) continue
    seen.add(url)
    const file = join(distDir, url)
    if (!existsSync(file)) {
      console.warn(`${route}: ${url} is referenced but not in the build`)
      continue
    }
    const code = readFileSync(file, 'utf8')
    if (!gzipCache.has(url)) gzipCache.set(url, gzipSize(code))
    for (const specifier of staticImports(code)) {
      if (specifier.startsWith('.') || specifier.startsWith('/'))
        queue.push(posix.resolve(posix.dirname(url), specifier))
    }
  }
  const files = [...seen]
    .filter((url) => gzipCache.has(url))
    .map((path) => ({ path, gzip: gzipCache.get(path) ?? 0 }))
    .sort((a, b) => b.gzip - a.gzip)
  const inlineGzip = inline.reduce((sum, code) => sum + gzipSize(code), 0)
  const total = inlineGzip + files.reduce((sum, file) => sum + file.gzip, 0)
  const { kind, bytes } = budgetFor(route)
  return { route, files, inlineGzip, total, budget: bytes, kind }
}

const kib = (bytes: number) => `${(bytes / KIB).toFixed(1)} KiB`

// ---- The README table ------------------------------------------------------------------------------------

export const BUDGET_TABLE_START = '<!-- js-budget:start (npm run budget writes this table) -->'
export const BUDGET_TABLE_END = '<!-- js-budget:end -->'

interface BudgetRow {
  label: string
  matches: (route: string) => boolean
}

const exactly =
  (...routes: string[]) =>
  (route: string) =>
    routes.includes(route)

/** Every content page no other row names: the content folder's pages, the newsletter outcomes, 404 pages. */
const CONTENT_ROW = '/about, /ingredients, teasers, policies, /newsletter/*, 404 pages'

/** The table's rows, in its order: a page belongs to the first row that names it. */
const BUDGET_ROWS: readonly BudgetRow[] = [
  { label: CONTENT_ROW, matches: () => false },
  { label: '/account-deleted', matches: exactly('/account-deleted') },
  { label: '/ (home)', matches: exactly('/') },
  {
    label: '/products/{slug}',
    matches: (route) => route.startsWith('/products/') && route !== '/products/404',
  },
  { label: '/shop', matches: exactly('/shop') },
  { label: '/cart', matches: exactly('/cart') },
  { label: '/success', matches: exactly('/success') },
  { label: '/checkout (Stripe.js not counted)', matches: exactly('/checkout') },
  { label: '/shipping', matches: exactly('/shipping') },
  {
    label: '/login, /signup, /forgot-password, /reset-password',
    matches: exactly('/login', '/signup', '/forgot-password', '/reset-password'),
  },
  { label: '/verify-email', matches: exactly('/verify-email') },
  { label: '/profile, /account', matches: exactly('/profile', '/account') },
  { label: '/account/orders', matches: exactly('/account/orders') },
  { label: '/google-sign-in', matches: exactly('/google-sign-in') },
  {
    label: '/login, /signup, /google-sign-in as built without Google',
    matches: (route) => route.startsWith(`${WITHOUT_GOOGLE_DIR}/`),
  },
  { label: '/dashboard (staff)', matches: exactly('/dashboard') },
]

function rowFor(page: PageWeight): string {
  const row = BUDGET_ROWS.find((candidate) => candidate.matches(page.route))
  if (row) return row.label
  if (page.kind === 'content') return CONTENT_ROW
  throw new Error(`${page.route} is in no row of the README's JavaScript table: add one to BUDGET_ROWS.`)
}

const tenths = (bytes: number) => (bytes / KIB).toFixed(1)

/** '81.6 KiB', or '86.6–87.9 KiB' when the row's pages differ. */
function weightText(pages: readonly PageWeight[]): string {
  const totals = pages.map((page) => page.total)
  const low = tenths(Math.min(...totals))
  const high = tenths(Math.max(...totals))
  return low === high ? `${low} KiB` : `${low}–${high} KiB`
}

/** The README's 'JavaScript per page' table: a row per kind of page, its pages' weights and their budget. */
export function budgetTable(pages: readonly PageWeight[]): string {
  const byRow = new Map<string, PageWeight[]>(BUDGET_ROWS.map((row) => [row.label, []]))
  for (const page of pages) byRow.get(rowFor(page))?.push(page)
  const cells = [...byRow].map(([label, rowPages]) => {
    const first = rowPages[0]
    if (!first) throw new Error(`No built page for the row "${label}" of the README's JavaScript table.`)
    return [label, weightText(rowPages), `${first.budget / KIB} KiB`]
  })
  const rows = [['page', 'JavaScript (gzip)', 'budget'], ...cells]
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => [...(row[column] ?? '')].length))) ?? []
  const line = (row: string[]) =>
    `| ${row.map((cell, column) => cell + ' '.repeat((widths[column] ?? 0) - [...cell].length)).join(' | ')} |`
  const rule = `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`
  return [line(rows[0] ?? []), rule, ...cells.map(line)].join('\n')
}

/** The README with the table put between its markers; an error when the markers are missing. */
export function withBudgetTable(readme: string, table: string): string {
  const start = readme.indexOf(BUDGET_TABLE_START)
  const end = readme.indexOf(BUDGET_TABLE_END, start)
  if (start < 0 || end < 0) {
    throw new Error(`README.md has no ${BUDGET_TABLE_START} … ${BUDGET_TABLE_END} markers for the table.`)
  }
  return `${readme.slice(0, start + BUDGET_TABLE_START.length)}\n${table}\n${readme.slice(end)}`
}

function main(): void {
  const args = process.argv.slice(2)
  const distFlag = args.indexOf('--dist')
  const distDir = resolve(distFlag >= 0 ? (args[distFlag + 1] ?? 'dist') : 'dist')
  const verbose = args.includes('--verbose')
  if (!existsSync(distDir)) {
    console.error(`No build in ${distDir}: run \`bun --bun astro build\` first.`)
    process.exit(2)
  }
  const pages = filesUnder(distDir)
    .filter((file) => file.endsWith('.html'))
    .map((file) => measurePage(distDir, file))
    .sort((a, b) => a.route.localeCompare(b.route))

  const width = Math.max(5, ...pages.map((page) => page.route.length))
  console.log(`JavaScript per page, gzip -9 (${relative(process.cwd(), distDir) || '.'})`)
  console.log(`${'page'.padEnd(width)}  ${'total'.padStart(10)}  ${'budget'.padStart(10)}  kind     files`)
  let over = 0
  for (const page of pages) {
    const ok = page.total <= page.budget
    if (!ok) over += 1
    console.log(
      `${page.route.padEnd(width)}  ${kib(page.total).padStart(10)}  ${kib(page.budget).padStart(10)}  ${page.kind.padEnd(7)}  ${page.files.length} + inline ${kib(page.inlineGzip)}${ok ? '' : '  OVER BUDGET'}`,
    )
    if (verbose || !ok) {
      for (const file of page.files)
        console.log(`${''.padEnd(width)}    ${kib(file.gzip).padStart(10)}  ${file.path}`)
    }
  }
  const stale = readmeTable(pages, {
    write: args.includes('--write-readme'),
    check: args.includes('--check'),
  })
  if (over > 0) {
    console.error(`\n${over} page(s) over budget (docs/architecture.md#performance-budgets).`)
    process.exit(1)
  }
  if (stale) process.exit(1)
  console.log(`\nAll ${pages.length} pages within budget.`)
}

/** Writes or checks the README's table; true when checking found it stale. */
function readmeTable(pages: readonly PageWeight[], mode: { write: boolean; check: boolean }): boolean {
  if (!mode.write && !mode.check) return false
  const readmeFile = resolve(import.meta.dir, '..', 'README.md')
  const readme = readFileSync(readmeFile, 'utf8')
  const updated = withBudgetTable(readme, budgetTable(pages))
  if (mode.write) {
    if (updated !== readme) writeFileSync(readmeFile, updated)
    console.log(updated === readme ? '\nREADME.md: the table is current.' : '\nREADME.md: table written.')
    return false
  }
  if (updated === readme) return false
  console.error(
    "\nREADME.md's 'JavaScript per page' table is not what this build measures: run npm run budget.",
  )
  return true
}

if (import.meta.main) main()
