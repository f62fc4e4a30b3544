// `npm test`: unit and in-process API tests, then a fresh build and the browser tests against the real server.
import { existsSync, rmSync } from 'node:fs'

const bun = process.execPath

function run(label: string, cmd: string[], env: Record<string, string> = {}): void {
  console.log(`\n▶ ${label}: ${cmd.join(' ')}`)
  const result = Bun.spawnSync(cmd, { stdout: 'inherit', stderr: 'inherit', env: { ...process.env, ...env } })
  if (result.exitCode !== 0) {
    console.error(`\n✖ ${label} failed (exit ${result.exitCode})`)
    process.exit(result.exitCode ?? 1)
  }
}

/** Debian's Chromium drives the browser tests; Playwright cannot download its own browsers here. */
function findChromium(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean)
  for (const path of candidates) if (path && existsSync(path)) return path
  if (process.getuid?.() === 0) {
    console.log('Chromium not found: installing Debian package chromium')
    run('apt-get update', ['apt-get', 'update', '-qq'])
    run('apt-get install chromium', ['apt-get', 'install', '-y', '-qq', 'chromium'], { DEBIAN_FRONTEND: 'noninteractive' })
    if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium'
  }
  console.error('Chromium is needed for the browser tests: install it (apt-get install chromium) or set CHROMIUM_PATH.')
  process.exit(1)
}

const only = process.argv[2]
if (only !== 'e2e') {
  // Strict TypeScript is part of the contract between site, API and tests: a type error fails the run.
  // `astro sync` writes the content-collection types (.astro/) that a clean checkout does not have yet.
  run('content types', [bun, '--bun', 'node_modules/.bin/astro', 'sync'])
  run('type check', ['node', 'node_modules/.bin/tsc', '--noEmit', '-p', '.'])
  run('unit and API tests', [bun, 'test', 'tests/unit', 'tests/api'])
}
if (only !== 'unit') {
  const chromium = findChromium()
  run('site build', [bun, '--bun', 'node_modules/.bin/astro', 'build'])
  rmSync('./data/e2e', { recursive: true, force: true })
  run('browser tests', ['node', 'node_modules/.bin/playwright', 'test', ...process.argv.slice(3)], {
    CHROMIUM_PATH: chromium,
  })
}
console.log('\n✔ all tests passed')
