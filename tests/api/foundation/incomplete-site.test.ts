// The real server (`bun api/main.ts`) given a site folder a build left part way (some pages, not the home
// page): it does not open, and its log says why and what to do, instead of answering 404 where shoppers
// arrive (docs/editing.md).
import { afterAll, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { logLines } from '../support/log-lines'

const dir = mkdtempSync(join(tmpdir(), 'incomplete-site-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('a site folder without its home, shop and 404 pages keeps the shop closed, saying why', () => {
  const dist = join(dir, 'dist')
  mkdirSync(join(dist, 'about'), { recursive: true })
  writeFileSync(join(dist, 'about', 'index.html'), '<!doctype html><title>About</title>')
  const boot = Bun.spawnSync([process.execPath, 'api/main.ts'], {
    cwd: resolve(import.meta.dir, '../../..'),
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: '0',
      DIST_DIR: dist,
      DATA_DIR: join(dir, 'data'),
      DATABASE_URL: `file:${join(dir, 'shop.db')}`,
    },
    stdout: 'pipe',
    stderr: 'pipe',
    timeout: 60_000,
  })
  expect(boot.exitCode).toBe(1)
  const lines = logLines(boot.stdout.toString())
  expect(lines).toContainEqual(
    expect.objectContaining({
      level: 'error',
      msg: `The site in ${dist} is incomplete (no /index.html, /shop/index.html, /404.html): the last build stopped part way. Fix what it said and build again (npm run build, or npm start).`,
    }),
  )
})
