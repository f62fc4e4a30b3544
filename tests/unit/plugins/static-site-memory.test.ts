import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, gunzipSync } from 'node:zlib'
import {
  builtOrigin,
  KEPT_AS_BUILT_MAX_BYTES,
  loadStaticSite,
  respond,
} from '../../../api/plugins/static-site'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

// Both larger than the files kept as built too (KEPT_AS_BUILT_MAX_BYTES), so both are kept compressed only.
const PAGE = `<!doctype html><title>Beard oil</title>${'<p>Cedar and bergamot, for a working beard.</p>'.repeat(200)}`
const ROBOTS = `User-agent: *\n${'Disallow: /api/\n'.repeat(600)}\nSitemap: https://shop.example/sitemap-index.xml\n`
// Compressed (over 512 bytes) but small enough to keep as built as well.
const SMALL_PAGE = `<!doctype html><title>About</title>${'<p>Made in small batches.</p>'.repeat(40)}`

/** A built site as `npm run build` leaves it: a page and robots.txt with their .br and .gz beside them. */
function builtSite() {
  const dir = mkdtempSync(join(tmpdir(), 'site-in-memory-'))
  dirs.push(dir)
  for (const [name, text] of [
    ['index.html', PAGE],
    ['robots.txt', ROBOTS],
    ['about.html', SMALL_PAGE],
  ] as const) {
    writeFileSync(join(dir, name), text)
    writeFileSync(join(dir, `${name}.br`), brotliCompressSync(text))
    writeFileSync(join(dir, `${name}.gz`), Bun.gzipSync(text))
  }
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  return { dir, site: loadStaticSite(dir) }
}

const get = (encodings?: string) =>
  new Request('http://shop.test/', {
    headers: encodings === undefined ? {} : { 'accept-encoding': encodings },
  })

describe('the built site in memory', () => {
  test('a large page keeps only its compressed forms; a small one keeps its bytes as well', () => {
    expect(PAGE.length).toBeGreaterThan(KEPT_AS_BUILT_MAX_BYTES)
    expect(SMALL_PAGE.length).toBeGreaterThan(512)
    expect(SMALL_PAGE.length).toBeLessThanOrEqual(KEPT_AS_BUILT_MAX_BYTES)
    const { site } = builtSite()
    const page = site.find('/index.html')
    expect(page?.body).toBeNull()
    expect(page?.br).not.toBeNull()
    expect(page?.gzip).not.toBeNull()
    const small = site.find('/about.html')
    expect(small?.body).not.toBeNull()
    expect(small?.br).not.toBeNull()
    expect(site.find('/favicon.svg')?.body).not.toBeNull()
  })

  test('every client gets the page as built: Brotli, gzip, or decompressed for one that takes neither', async () => {
    const { dir, site } = builtSite()
    const page = site.find('/index.html')
    if (!page) throw new Error('index.html not loaded')
    const built = readFileSync(join(dir, 'index.html'), 'utf8')

    const br = respond(page, get('gzip, deflate, br'))
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(new Uint8Array(await br.arrayBuffer())).toEqual(
      new Uint8Array(readFileSync(join(dir, 'index.html.br'))),
    )

    const gzip = respond(page, get('gzip'))
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(new Uint8Array(await gzip.arrayBuffer())).toString('utf8')).toBe(built)

    for (const encodings of [undefined, 'identity']) {
      const plain = respond(page, get(encodings))
      expect(plain.headers.get('content-encoding')).toBeNull()
      expect(await plain.text()).toBe(built)
      // One ETag for every form: the validator names the page, not its encoding.
      expect(plain.headers.get('etag')).toBe(br.headers.get('etag'))
    }
  })

  test('robots.txt kept compressed still tells which origin the site was built for', () => {
    const { site } = builtSite()
    expect(site.find('/robots.txt')?.body).toBeNull()
    expect(builtOrigin(site)).toBe('https://shop.example')
  })
})
