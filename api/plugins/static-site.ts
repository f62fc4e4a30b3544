import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { extname, join, relative, sep } from 'node:path'
import { pathWithoutGoogleStandsFor } from '@core/rules/site-variants'
import { Elysia } from 'elysia'
import { identityBody, MIN_COMPRESSED_BYTES, prepareFile, type StaticFile } from '../lib/prepared-file'
import { jsonError } from './errors'
import { methodNotAllowed, type RouteTable } from './request-shape'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
  '.pdf': 'application/pdf',
}

const COMPRESSIBLE = new Set([
  '.html',
  '.css',
  '.js',
  '.mjs',
  '.json',
  '.svg',
  '.txt',
  '.xml',
  '.webmanifest',
])

/** Astro puts content-hashed bundles under /_astro/: their names change when their bytes do. */
function cacheControlFor(path: string): string {
  if (path.startsWith('/_astro/')) return 'public, max-age=31536000, immutable'
  if (path.endsWith('.html')) return 'public, max-age=0, must-revalidate'
  return 'public, max-age=3600'
}

/** Every built file, without the compressed copies beside them. */
export function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) return walk(full)
    return name.endsWith('.br') || name.endsWith('.gz') ? [] : [full]
  })
}

/** Whether a built file is served compressed (and so precompressed by scripts/precompress.ts). */
export function isCompressible(path: string, byteLength: number): boolean {
  return COMPRESSIBLE.has(extname(path).toLowerCase()) && byteLength > MIN_COMPRESSED_BYTES
}

/** The .br and .gz files `npm run build` writes beside each compressible file, if they are newer than it. */
function precompressedForms(file: string) {
  const br = `${file}.br`
  const gzip = `${file}.gz`
  if (!existsSync(br) || !existsSync(gzip)) return null
  const built = statSync(file).mtimeMs
  if (statSync(br).mtimeMs < built || statSync(gzip).mtimeMs < built) return null
  return { br: new Uint8Array(readFileSync(br)), gzip: new Uint8Array(readFileSync(gzip)) }
}

/**
 * Files larger than this keep only their compressed forms in memory; smaller ones (about 0.15 MB of the
 * whole site) keep their bytes too, so a client that takes no compressed form costs them nothing
 * (docs/decisions/001-one-process-static-site-in-memory.md).
 */
export const KEPT_AS_BUILT_MAX_BYTES = 8 * 1024

function load(distDir: string, file: string): StaticFile {
  const ext = extname(file).toLowerCase()
  const urlPath = `/${relative(distDir, file).split(sep).join('/')}`
  const bytes = new Uint8Array(readFileSync(file))
  // Start-up reads the forms the build compressed; compressing the whole site here would take seconds.
  return prepareFile(bytes, {
    type: TYPES[ext] ?? 'application/octet-stream',
    cacheControl: cacheControlFor(urlPath),
    compressible: COMPRESSIBLE.has(ext),
    precompressed: precompressedForms(file),
    compressedOnly: bytes.byteLength > KEPT_AS_BUILT_MAX_BYTES,
  })
}

export interface StaticSite {
  /** The file for a URL path: exact file, or the directory's index.html. */
  find(pathname: string): StaticFile | undefined
  /** The nearest 404 page above a path (e.g. products/404 for /products/x), else the site's 404.html. */
  notFoundPage(pathname: string): StaticFile | undefined
  size: number
  /**
   * The site as served when Google sign-in is not configured: the pages built without their Google
   * buttons stand in for the usual ones (core/rules/site-variants.ts).
   */
  withoutGoogle(): StaticSite
}

function siteOf(files: Map<string, StaticFile>, withoutGoogle: () => StaticSite): StaticSite {
  return {
    size: files.size,
    find(pathname) {
      const exact = files.get(pathname)
      if (exact && !pathname.endsWith('/')) return exact
      const base = pathname.endsWith('/') ? pathname : `${pathname}/`
      return files.get(`${base}index.html`)
    },
    notFoundPage(pathname) {
      const parts = pathname.split('/').filter(Boolean)
      for (let depth = parts.length - 1; depth > 0; depth--) {
        const scoped = files.get(`/${parts.slice(0, depth).join('/')}/404/index.html`)
        if (scoped) return scoped
      }
      return files.get('/404.html')
    },
    withoutGoogle,
  }
}

/**
 * Reads the Astro build into memory. A missing build is not fatal: the API still answers. The pages built
 * without Google buttons are kept aside, never at their own address.
 */
export function loadStaticSite(distDir: string): StaticSite {
  const files = new Map<string, StaticFile>()
  const withoutGoogleFiles = new Map<string, StaticFile>()
  if (existsSync(distDir)) {
    for (const file of walk(distDir)) {
      const urlPath = `/${relative(distDir, file).split(sep).join('/')}`
      const standsFor = pathWithoutGoogleStandsFor(urlPath)
      if (standsFor) withoutGoogleFiles.set(standsFor, load(distDir, file))
      else files.set(urlPath, load(distDir, file))
    }
  }
  let plain: StaticSite | null = null
  const withoutGoogle = (): StaticSite => {
    plain ??= siteOf(new Map([...files, ...withoutGoogleFiles]), withoutGoogle)
    return plain
  }
  return siteOf(files, withoutGoogle)
}

/** The origin the site was built for (PUBLIC_URL at build time), as its robots.txt names the sitemap. */
export function builtOrigin(site: StaticSite): string | null {
  const robots = site.find('/robots.txt')
  const sitemap = robots
    ? /^Sitemap:\s*(\S+)/m.exec(new TextDecoder().decode(identityBody(robots)))?.[1]
    : undefined
  if (!sitemap) return null
  try {
    return new URL(sitemap).origin
  } catch {
    return null
  }
}

/**
 * What to say at boot when the build was made for another address than the server's PUBLIC_URL (`npm run
 * build` without it, then `npm run serve` with it): the pages still work, but their canonical links,
 * sitemap and cards send search engines and link previews to the other address.
 */
export function builtOriginWarning(
  site: StaticSite,
  config: { publicUrl: string; distDir: string },
): string | null {
  const built = builtOrigin(site)
  if (!built || built === new URL(config.publicUrl).origin) return null
  return `The site in ${config.distDir} was built for ${built}, but PUBLIC_URL is ${config.publicUrl}: its canonical links, sitemap and social cards point at the other address. Build it again with this PUBLIC_URL (npm run build, or npm start).`
}

/** Pages every build writes: without one of them the folder holds what a failed build left. */
const PAGES_EVERY_BUILD_WRITES = ['/index.html', '/shop/index.html', '/404.html']

/**
 * Why the built site cannot be served, or null: a build that stopped part way (a content file the build
 * could not run, the disk full) leaves some files and not others, and a shop without its home page and
 * shop page answers 404 where shoppers arrive. An empty folder is not this (the API may run alone).
 */
export function incompleteSiteError(site: StaticSite, distDir: string): string | null {
  if (site.size === 0) return null
  const missing = PAGES_EVERY_BUILD_WRITES.filter((path) => !site.find(path))
  if (missing.length === 0) return null
  return `The site in ${distDir} is incomplete (no ${missing.join(', ')}): the last build stopped part way. Fix what it said and build again (npm run build, or npm start).`
}

/** The ready answer in the encoding the client accepts, or 304 when it already holds these bytes. */
export function respond(file: StaticFile, request: Request, status = 200): Response {
  const headers: Record<string, string> = {
    'content-type': file.type,
    'cache-control': status === 200 ? file.cacheControl : 'no-store',
    etag: file.etag,
    vary: 'Accept-Encoding',
  }
  if (status === 200 && request.headers.get('if-none-match') === file.etag) {
    return new Response(null, { status: 304, headers })
  }
  const accepts = request.headers.get('accept-encoding') ?? ''
  if (file.br && /\bbr\b/.test(accepts)) {
    headers['content-encoding'] = 'br'
    return new Response(file.br, { status, headers })
  }
  if (file.gzip && /\bgzip\b/.test(accepts)) {
    headers['content-encoding'] = 'gzip'
    return new Response(file.gzip, { status, headers })
  }
  return new Response(identityBody(file), { status, headers })
}

/** The nearest 404 page for a path, with status 404 (plain text when the site is not built). */
export function notFoundResponse(site: StaticSite, pathname: string, request: Request): Response {
  const page = site.notFoundPage(pathname)
  if (page) return respond(page, request, 404)
  return new Response('Page Not Found. The requested page could not be found.', {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  })
}

/**
 * Serves the prerendered shop for every GET that no API route took. An API path that exists for other
 * methods only (GET /api/newsletter) is a 405 naming them, not a 404.
 */
export function staticSite(site: StaticSite, routes: Pick<RouteTable, 'methodsAt'>) {
  return new Elysia({ name: 'static-site' }).get('/*', ({ request }) => {
    const { pathname } = new URL(request.url)
    if (pathname.startsWith('/api/') || pathname.startsWith('/auth/')) {
      const methods = routes.methodsAt(pathname)
      return methods.length > 0 ? methodNotAllowed(methods) : jsonError(404, 'Not found.')
    }
    let decoded: string
    try {
      decoded = decodeURIComponent(pathname)
    } catch {
      decoded = pathname
    }
    // Paths are only looked up in the in-memory map, so '..' can never reach the file system.
    const file = site.find(decoded)
    if (file) return respond(file, request, 200)
    return notFoundResponse(site, decoded, request)
  })
}
