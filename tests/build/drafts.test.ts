// A copy of the shop built as `npm run build` builds it, with a draft product and a draft teaser added and
// PUBLIC_URL set: the drafts are nowhere on the built site (pages, sitemap, cards, the shop's lists), every
// absolute URL is on PUBLIC_URL, `npm run dev` shows the drafts, and a broken product file stops the build
// and the server's boot with the message `npm run check:content` gives.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkContent } from '../../content/check'
import { formatProblems, REPO_ROOT } from '../../content/read'
import { logLines } from '../api/support/log-lines'

setDefaultTimeout(240_000)

const PUBLIC_URL = 'https://shop.gritandwhisker.example'
const bun = process.execPath
let root = ''
let buildOutput = ''

function copyOfTheShop(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shop-build-'))
  for (const entry of [
    'astro.config.mjs',
    'tsconfig.json',
    'package.json',
    'site',
    'content',
    'core',
    'api',
    'db',
    'public',
  ]) {
    cpSync(join(REPO_ROOT, entry), join(dir, entry), { recursive: true })
  }
  // The packages, but caches of its own: Astro keeps its content store and Vite its dependencies under
  // node_modules/.astro and .vite, and this copy's drafts must never reach the shop's own.
  mkdirSync(join(dir, 'node_modules'))
  for (const name of readdirSync(join(REPO_ROOT, 'node_modules'))) {
    if (!name.startsWith('.'))
      symlinkSync(join(REPO_ROOT, 'node_modules', name), join(dir, 'node_modules', name))
  }
  symlinkSync(join(REPO_ROOT, 'node_modules', '.bin'), join(dir, 'node_modules', '.bin'))
  return dir
}

function build(dir: string, env: Record<string, string> = {}) {
  const result = Bun.spawnSync([bun, '--bun', 'node_modules/.bin/astro', 'build'], {
    cwd: dir,
    env: { ...process.env, PUBLIC_URL, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  return { exitCode: result.exitCode, output: `${result.stdout.toString()}${result.stderr.toString()}` }
}

const product = () =>
  readFileSync(join(REPO_ROOT, 'content/products/whisker-oil.mdx'), 'utf8')
    .replace(/^id: .*$/m, 'id: 6')
    .replace(/^slug: .*$/m, 'slug: beard-butter')
    .replace(/^name: .*$/m, 'name: Sawdust Beard Butter\ndraft: true')

const teaser = () =>
  readFileSync(join(REPO_ROOT, 'content/teasers/x-treme.mdx'), 'utf8')
    .replace(/^title: .*$/m, 'title: Winter Line\ndraft: true')
    .replace(/^heading: .*$/m, 'heading: Winter Line Coming Soon')

/** A published product with a photo, as an editor adds one: a 1200-pixel JPEG. */
const photoProduct = () =>
  readFileSync(join(REPO_ROOT, 'content/products/whisker-wash.mdx'), 'utf8')
    .replace(/^id: .*$/m, 'id: 7')
    .replace(/^slug: .*$/m, 'slug: photo-wash')
    .replace(/^name: .*$/m, 'name: Photo Wash')
    .replace(/^image: .*$/m, 'image: ../../site/assets/products/photo-wash.jpg')

beforeAll(async () => {
  root = copyOfTheShop()
  writeFileSync(join(root, 'content/products/beard-butter.mdx'), product())
  writeFileSync(join(root, 'content/products/photo-wash.mdx'), photoProduct())
  const { default: sharp } = await import('sharp')
  const background = { r: 120, g: 80, b: 40 }
  await sharp({ create: { width: 1200, height: 1200, channels: 3, background } })
    .jpeg()
    .toFile(join(root, 'site/assets/products/photo-wash.jpg'))
  writeFileSync(join(root, 'content/teasers/winter-line.mdx'), teaser())
  const { exitCode, output } = build(root)
  if (exitCode !== 0) throw new Error(`the build failed:\n${output}`)
  buildOutput = output
})
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true })
})

const built = (path: string) => join(root, 'dist', path)
const text = (path: string) => readFileSync(built(path), 'utf8')

describe('the build with drafts', () => {
  test('warns of nothing when every content file is right, so a warning means something to the editor', () => {
    expect(buildOutput).not.toMatch(/\[WARN\]|warning/i)
  })

  test('leaves the draft pages out, with their cards', () => {
    expect(existsSync(built('products/whisker-oil/index.html'))).toBe(true)
    expect(existsSync(built('products/beard-butter'))).toBe(false)
    expect(existsSync(built('og/products/beard-butter.png'))).toBe(false)
    expect(existsSync(built('winter-line'))).toBe(false)
    expect(existsSync(built('og/winter-line.png'))).toBe(false)
  })

  test('leaves them out of the sitemap and of the shop’s lists', () => {
    expect(text('sitemap-0.xml')).not.toContain('beard-butter')
    expect(text('sitemap-0.xml')).not.toContain('winter-line')
    for (const page of ['index.html', 'shop/index.html', 'products/whisker-oil/index.html']) {
      expect(text(page)).not.toContain('Sawdust Beard Butter')
    }
  })

  test('writes every absolute address on PUBLIC_URL', () => {
    expect(text('robots.txt')).toContain(`Sitemap: ${PUBLIC_URL}/sitemap-index.xml`)
    expect(text('sitemap-0.xml')).toContain(`<loc>${PUBLIC_URL}/about</loc>`)
    expect(text('about/index.html')).toContain(`<link rel="canonical" href="${PUBLIC_URL}/about">`)
    expect(text('about/index.html')).toContain(
      `<meta property="og:image" content="${PUBLIC_URL}/og/about.png">`,
    )
    expect(text('index.html')).not.toContain('localhost')
  })
})

describe("the cart's picture of a product", () => {
  test('is a small copy the build made, not the editor’s photo', async () => {
    const carried = /data-product="([^"]+)"/.exec(text('products/photo-wash/index.html'))?.[1] ?? ''
    const image = JSON.parse(carried.replaceAll('&quot;', '"').replaceAll('&amp;', '&')).image as string
    expect(image).toMatch(/^\/_astro\/photo-wash\..+/)
    const { default: sharp } = await import('sharp')
    const { width, height } = await sharp(built(image.slice(1))).metadata()
    expect([width, height]).toEqual([192, 192])
  })
})

describe('npm run dev', () => {
  test('shows the drafts', async () => {
    const asked = await freePort()
    const dev = Bun.spawn([bun, '--bun', 'node_modules/.bin/astro', 'dev', '--port', String(asked)], {
      cwd: root,
      env: { ...process.env, PUBLIC_URL },
      stdout: 'pipe',
      stderr: 'ignore',
    })
    try {
      // Astro takes the next port when the one asked for was taken in the meantime (other tests run beside
      // this one): the port is the one it says it listens on.
      const port = await listeningPort(dev.stdout)
      const draft = await servedPage(`http://localhost:${port}/products/beard-butter`)
      expect(draft.status).toBe(200)
      expect(draft.text).toContain('Sawdust Beard Butter')
      const winter = await servedPage(`http://localhost:${port}/winter-line`)
      expect(winter.status).toBe(200)
      expect(winter.text).toContain('Winter Line Coming Soon')

      // A product copied to start a new one, as docs/editing.md says, then given its own slug: the original
      // stays (Astro would have named both entries by the slug they shared, and dropped the original).
      const copy = join(root, 'content/products/balm-copy.mdx')
      writeFileSync(copy, readFileSync(join(root, 'content/products/whisker-tamer.mdx'), 'utf8'))
      await Bun.sleep(1500)
      writeFileSync(
        copy,
        readFileSync(copy, 'utf8')
          .replace(/^slug: .*$/m, 'slug: balm-copy')
          .replace(/^id: .*$/m, 'id: 7'),
      )
      // The dev server rebuilds its content when it sees the file change (a page asked for in the middle of
      // that can fail until the next change, so not at once).
      await Bun.sleep(1500)
      expect((await servedPage(`http://localhost:${port}/products/balm-copy`)).status).toBe(200)
      expect((await servedPage(`http://localhost:${port}/products/whisker-tamer`)).status).toBe(200)
    } finally {
      dev.kill()
      await dev.exited
    }
  })
})

describe('a broken product file', () => {
  test('stops the build and the server with the message npm run check:content gives', () => {
    const broken = copyOfTheShop()
    try {
      const file = join(broken, 'content/products/repair.mdx')
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^price: .*$/m, 'price: thirteen'))
      const expected = formatProblems(checkContent(broken).problems)
      expect(expected).toBe(
        `content/products/repair.mdx, line 6: price: write it in dollars and cents, like 19.00 (got "thirteen")`,
      )
      const { exitCode, output } = build(broken)
      expect(exitCode).not.toBe(0)
      expect(output).toContain(`content/ has a mistake, so nothing was built:\n${expected}\n`)
      expect(existsSync(join(broken, 'dist'))).toBe(false)

      // The shop's server reads the same file at boot and does not open.
      const boot = Bun.spawnSync([bun, 'api/main.ts'], {
        cwd: broken,
        env: { ...process.env, NODE_ENV: 'test', PORT: '0', DATABASE_URL: `file:${join(broken, 'shop.db')}` },
        stdout: 'pipe',
        stderr: 'pipe',
        timeout: 60_000,
      })
      expect(boot.exitCode).toBe(1)
      const lines = logLines(boot.stdout.toString())
      expect(lines).toContainEqual(expect.objectContaining({ level: 'error', msg: expected }))
    } finally {
      rmSync(broken, { recursive: true, force: true })
    }
  })
})

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/**
 * The port the dev server says it listens on ('Local    http://localhost:4321/'); what it writes after
 * that is read and dropped, so its output never fills the pipe.
 */
async function listeningPort(output: ReadableStream<Uint8Array>): Promise<number> {
  const reader = output.getReader()
  const decoder = new TextDecoder()
  let seen = ''
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    const { value, done } = await reader.read()
    if (done) break
    // Colour codes sit between the words Astro prints.
    seen += Bun.stripANSI(decoder.decode(value, { stream: true }))
    const match = /https?:\/\/localhost:(\d+)/.exec(seen)
    if (match) {
      void (async () => {
        while (!(await reader.read()).done) {}
      })()
      return Number(match[1])
    }
  }
  throw new Error(`the dev server never said where it listens:\n${seen.slice(-2000)}`)
}

/**
 * The page once the dev server answers it with 200, or its last answer after 90 s. The dev server compiles a
 * page on its first request and rebuilds its content after a file changes; on a machine busy with the browser
 * tests either can take tens of seconds, and a request in the middle of it can fail or answer 404.
 */
async function servedPage(url: string): Promise<{ status: number; text: string }> {
  const deadline = Date.now() + 90_000
  for (;;) {
    try {
      const response = await fetch(url)
      const text = await response.text()
      if (response.status === 200 || Date.now() > deadline) return { status: response.status, text }
    } catch (error) {
      if (Date.now() > deadline) throw error
    }
    await Bun.sleep(250)
  }
}
