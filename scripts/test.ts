// `npm test`: unit and in-process API tests, then a fresh build and the browser tests against the real server.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatTally, sumTally } from './adversarial-tally'

const bun = process.execPath

/** Totals over both runners, printed last as one plain 'N passed, N failed' line. */
const totals = { passed: 0, failed: 0 }

async function tee(stream: ReadableStream<Uint8Array>, out: NodeJS.WriteStream): Promise<string> {
  let text = ''
  const decoder = new TextDecoder()
  for await (const chunk of stream) {
    out.write(chunk)
    text += decoder.decode(chunk, { stream: true })
  }
  return text
}

/** Runs a test runner, showing its output as it comes, and adds its pass/fail counts to the totals. */
async function runCounted(
  label: string,
  cmd: string[],
  count: (output: string) => { passed: number; failed: number },
  env: Record<string, string> = {},
): Promise<void> {
  console.log(`\n▶ ${label}: ${cmd.join(' ')}`)
  const child = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...env } })
  const [out, err] = await Promise.all([tee(child.stdout, process.stdout), tee(child.stderr, process.stderr)])
  const exitCode = await child.exited
  const counted = count(out + err)
  totals.passed += counted.passed
  totals.failed += counted.failed
  if (exitCode !== 0) {
    console.error(`\n✖ ${label} failed (exit ${exitCode})`)
    console.log(`${totals.passed} passed, ${Math.max(totals.failed, 1)} failed`)
    process.exit(exitCode)
  }
}

const lastNumber = (output: string, pattern: RegExp) => Number([...output.matchAll(pattern)].at(-1)?.[1] ?? 0)
const bunCounts = (output: string) => ({
  passed: lastNumber(output, /^\s*(\d+) pass$/gm),
  failed: lastNumber(output, /^\s*(\d+) fail$/gm),
})
const playwrightCounts = (output: string) => ({
  passed: lastNumber(output, /^\s*(\d+) passed\b/gm),
  failed: lastNumber(output, /^\s*(\d+) failed\b/gm) + lastNumber(output, /^\s*(\d+) flaky\b/gm),
})

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
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    Boolean,
  )
  for (const path of candidates) if (path && existsSync(path)) return path
  if (process.getuid?.() === 0) {
    console.log('Chromium not found: installing Debian package chromium')
    run('apt-get update', ['apt-get', 'update', '-qq'])
    run('apt-get install chromium', ['apt-get', 'install', '-y', '-qq', 'chromium'], {
      DEBIAN_FRONTEND: 'noninteractive',
    })
    if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium'
  }
  console.error(
    'Chromium is needed for the browser tests: install it (apt-get install chromium) or set CHROMIUM_PATH.',
  )
  process.exit(1)
}

/** What the adversarial suites tried and what the drills survived, as SECURITY.md's tables quote them. */
function printCounts(tallyFile: string, drillFile: string): void {
  const tally = sumTally(existsSync(tallyFile) ? readFileSync(tallyFile, 'utf8') : '')
  console.log(`\n▶ adversarial suites\n${formatTally(tally)}`)
  const drills = existsSync(drillFile) ? readFileSync(drillFile, 'utf8').trim() : ''
  console.log(`\n▶ fault drills\n${drills || 'no drill counts recorded'}`)
}

/**
 * `npm test` runs every part; `npm run test:unit`, `test:api`, `test:drills` and `test:e2e` one each. The
 * static checks (content, types, layers, references, format) come with the unit tests: they take seconds.
 */
const PARTS = ['unit', 'api', 'drills', 'e2e'] as const
type Part = (typeof PARTS)[number]
const only = process.argv[2] as Part | undefined
if (only !== undefined && !PARTS.includes(only)) {
  console.error(`Unknown part "${only}": use one of ${PARTS.join(', ')}, or nothing for all of them.`)
  process.exit(2)
}
const runs = (part: Part) => only === undefined || only === part

if (runs('unit')) {
  // Every content file, as the build reads it, first: a broken product or page fails here in a second, with
  // the file, line, field and fix, before the content-type sync would stop on it less clearly.
  run('content check', [bun, 'scripts/check-content.ts'])
  // Strict TypeScript is part of the contract between site, API and tests: a type error fails the run.
  // `astro sync` writes the content-collection types (.astro/) that a clean checkout does not have yet.
  run('content types', [bun, '--bun', 'node_modules/.bin/astro', 'sync'])
  run('type check', ['node', 'node_modules/.bin/tsc', '--noEmit', '-p', '.'])
  // The layers read one way (docs/architecture.md#layers): an import against them, or a circle, fails the run.
  run('import layers', [bun, 'scripts/check-imports.ts'])
  // Every "why" points at a document in the repository: a citation of one that is not here fails the run.
  run('document references', [bun, 'scripts/check-doc-refs.ts'])
  // Units a newcomer can read at once (docs/architecture.md): no function in api/ over 80 lines, no
  // component in site/ over 200.
  run('unit sizes', [bun, 'scripts/check-sizes.ts'])
  // One formatter and linter (docs/architecture.md#conventions): drift or a lint error fails the run like a type error.
  run('lint and format', ['node', 'node_modules/.bin/biome', 'ci', '.'])
}
const folders = (['unit', 'api', 'drills'] as const).filter(runs).map((part) => `tests/${part}`)
if (folders.length > 0) {
  // The adversarial suites count the attacks they try and the drills the faults they survive (SECURITY.md).
  const countsDir = mkdtempSync(join(tmpdir(), 'shop-test-counts-'))
  const tallyFile = join(countsDir, 'attacks.tsv')
  const drillFile = join(countsDir, 'drills.md')
  await runCounted(`tests: ${folders.join(', ')}`, [bun, 'test', ...folders], bunCounts, {
    ADVERSARIAL_TALLY: tallyFile,
    DRILL_COUNTS: drillFile,
  })
  if (runs('api') || runs('drills')) printCounts(tallyFile, drillFile)
  rmSync(countsDir, { recursive: true, force: true })
}
if (runs('e2e')) {
  const chromium = findChromium()
  // Built for the address the browser tests serve it on (playwright.config.ts), so its canonical links,
  // sitemap and cards are on the origin under test.
  run('site build', [bun, '--bun', 'node_modules/.bin/astro', 'build'], {
    PUBLIC_URL: `http://localhost:${process.env.E2E_PORT ?? 4599}`,
  })
  run('precompress', [bun, 'scripts/precompress.ts'])
  // docs/architecture.md#performance-budgets: content pages ≤ 85 KB and cart/checkout ≤ 120 KB of JavaScript (gzip); over budget fails,
  // and so does a README table that is not what this build measures (npm run budget writes it).
  run('JavaScript budget', [bun, 'scripts/js-budget.ts', '--check'])
  // The built site as search engines read it (sitemap, robots.txt, cards, JSON-LD), and a second build of a
  // copy with drafts and PUBLIC_URL set, plus `astro dev` showing the drafts.
  await runCounted('build output', [bun, 'test', 'tests/build'], bunCounts)
  // Both browser-test shops (with and without Google sign-in) start from nothing.
  for (const dir of ['./data/e2e', './data/e2e-no-google']) rmSync(dir, { recursive: true, force: true })
  await runCounted(
    'browser tests',
    ['node', 'node_modules/.bin/playwright', 'test', ...(only === 'e2e' ? process.argv.slice(3) : [])],
    playwrightCounts,
    { CHROMIUM_PATH: chromium },
  )
}
console.log('\n✔ all tests passed')
console.log(`${totals.passed} passed, ${totals.failed} failed`)
