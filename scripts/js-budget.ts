// `npm run budget [-- --dist <dir>]`: the gzip weight of the JavaScript each built page loads, against the
// budgets of docs/architecture.md#performance-budgets. Counted per page, each file once: inline scripts, module scripts and the
// modules they import statically, modulepreloads, and every island's component and renderer (with their
// static imports), whatever its client directive, because all of them load during a normal visit.
// Exits 1 when a page is over its budget.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, posix, relative, resolve, sep } from 'node:path'
import { gzipSync } from 'node:zlib'
import { WITHOUT_GOOGLE_DIR } from '@core/rules/site-variants'
import { TARGETS } from './bench/targets'

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

/** The scripts an HTML page starts: inline code and the URLs of module scripts, preloads and islands. */
export function pageScripts(html: string): PageScripts {
  const inline: string[] = []
  const urls = new Set<string>()
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = match[1] ?? ''
    const body = match[2] ?? ''
    const type = /\btype=["']?([^"'\s>]+)/i.exec(attrs)?.[1]
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

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? walk(full) : [full]
  })
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

function main(): void {
  const args = process.argv.slice(2)
  const distFlag = args.indexOf('--dist')
  const distDir = resolve(distFlag >= 0 ? (args[distFlag + 1] ?? 'dist') : 'dist')
  const verbose = args.includes('--verbose')
  if (!existsSync(distDir)) {
    console.error(`No build in ${distDir}: run \`bun --bun astro build\` first.`)
    process.exit(2)
  }
  const pages = walk(distDir)
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
  if (over > 0) {
    console.error(`\n${over} page(s) over budget (docs/architecture.md#performance-budgets).`)
    process.exit(1)
  }
  console.log(`\nAll ${pages.length} pages within budget.`)
}

if (import.meta.main) main()
