// `npm test`: the static checks, unit and in-process API tests and drills, a fresh build, the build-output
// tests and the browser tests against the real server. After the build, the parts that do not depend on each
// other run at the same time (see "Lanes" below): the browser tests are the long pole, and the others mostly
// wait on timers, child processes and the disk, so on two cores they fit around it.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatTally, sumTally } from './adversarial-tally'
import { recordSiteBuild, siteBuildFingerprint, siteBuildIsCurrent } from './site-build-stamp'

const bun = process.execPath

/** Totals over every runner, printed last as one plain 'N passed, N failed' line. */
const totals = { passed: 0, failed: 0 }

type Counts = { passed: number; failed: number }
const lastNumber = (output: string, pattern: RegExp) => Number([...output.matchAll(pattern)].at(-1)?.[1] ?? 0)
const bunCounts = (output: string): Counts => ({
  passed: lastNumber(output, /^\s*(\d+) pass$/gm),
  failed: lastNumber(output, /^\s*(\d+) fail$/gm),
})
const playwrightCounts = (output: string): Counts => ({
  passed: lastNumber(output, /^\s*(\d+) passed\b/gm),
  failed: lastNumber(output, /^\s*(\d+) failed\b/gm) + lastNumber(output, /^\s*(\d+) flaky\b/gm),
})

const elapsed = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`

/** Runs one command in the foreground, its output straight to the terminal; a failure ends the run. */
function run(label: string, cmd: string[], env: Record<string, string> = {}): void {
  console.log(`\n▶ ${label}: ${cmd.join(' ')}`)
  const result = Bun.spawnSync(cmd, { stdout: 'inherit', stderr: 'inherit', env: { ...process.env, ...env } })
  if (result.exitCode !== 0) {
    console.error(`\n✖ ${label} failed (exit ${result.exitCode})`)
    console.log(`${totals.passed} passed, ${Math.max(totals.failed, 1)} failed`)
    process.exit(result.exitCode ?? 1)
  }
}

/** One command of a lane; `count` reads its pass/fail counts for the totals. */
interface Step {
  label: string
  cmd: string[]
  env?: Record<string, string>
  count?: (output: string) => Counts
  /** Printed into the lane's output after the step passed. */
  after?: () => string
}

/**
 * A lane runs its steps one after another and stops at the first that fails. Lanes run side by side: one
 * shows its output as it comes (whole lines only), the others keep theirs and print it in one block when
 * they end, so no runner's lines are ever mixed with another's.
 */
interface Lane {
  name: string
  steps: Step[]
  live?: boolean
  /** Its niceness (see PRIORITY); 0 when not given. */
  nice?: number
}

/**
 * CPU priorities (nice values) of the lanes. Some unit, API and drill tests measure time (a drill's deadline,
 * equal answer times for known and unknown e-mails, a rate counter's cost per request), so they must never
 * wait behind the browsers: they run first in line, the browser tests next, and the static checks and the
 * build-output tests, which measure nothing, take what is left. Raising a priority needs root (as CI runs):
 * then the timed tests go ahead even of Chromium, which as root raises its browser and GPU processes to -8.
 * Without root the browser tests step back instead, for as long as they run.
 */
const isRoot = process.getuid?.() === 0
const PRIORITY = {
  timed: isRoot ? -10 : 0,
  browser: isRoot ? 0 : 5,
  untimed: 10,
}

/** Writes whole lines as they come; holds a partial line until its end arrives. */
function lineWriter(out: NodeJS.WriteStream) {
  let pending = ''
  return {
    write(text: string) {
      pending += text
      const end = pending.lastIndexOf('\n')
      if (end < 0) return
      out.write(pending.slice(0, end + 1))
      pending = pending.slice(end + 1)
    },
    flush() {
      if (pending) out.write(`${pending}\n`)
      pending = ''
    },
  }
}

async function collect(stream: ReadableStream<Uint8Array>, onText: (text: string) => void): Promise<string> {
  let text = ''
  const decoder = new TextDecoder()
  for await (const chunk of stream) {
    const piece = decoder.decode(chunk, { stream: true })
    text += piece
    onText(piece)
  }
  return text
}

/**
 * Why a lane failed, repeated at the run's very end, where a log cut to its tail (as CI keeps it) still shows
 * it: each failed test's line with the lines before it (the test runners print a failure's error and stack
 * there), passing tests' lines left out; from a check that names no test, its last lines.
 */
const FAILURE_CONTEXT = 25
const FAILURE_LINES = 120
const failureDigests = new Map<string, string>()
function failureDigest(output: string): string {
  const lines = Bun.stripANSI(output)
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^\s*(\(pass\)|✓)/.test(line))
  // bun test's "(fail) name" and Playwright's "✘ name"; a test named again in a closing summary adds nothing.
  const failures = lines.flatMap((line, index) => (/^\s*(\(fail\)|✘)/.test(line) ? [index] : []))
  if (failures.length === 0) return lines.slice(-FAILURE_LINES / 2).join('\n')
  const kept = new Set<number>()
  const named = new Set<string>()
  for (const index of failures) {
    const name = (lines[index] ?? '').replace(/\s*\[[\d.]+m?s\]$|\s*\([\d.]+m?s\)$/, '').trim()
    if (named.has(name)) continue
    named.add(name)
    for (let at = Math.max(0, index - FAILURE_CONTEXT); at <= index; at += 1) kept.add(at)
  }
  return [...kept]
    .sort((a, b) => a - b)
    .slice(-FAILURE_LINES)
    .map((index) => lines[index])
    .join('\n')
}

async function runLane(lane: Lane): Promise<boolean> {
  const started = performance.now()
  let buffer = ''
  let everything = ''
  const stdout = lineWriter(process.stdout)
  const stderr = lineWriter(process.stderr)
  const keep = (text: string) => {
    buffer += text
  }
  const say = (text: string) => (lane.live ? stdout.write(text) : keep(text))
  console.log(`▶ ${lane.name}: started${lane.live ? '' : ' (its output follows when it ends)'}`)
  let passed = true
  for (const step of lane.steps) {
    const cmd = lane.nice ? ['nice', '-n', String(lane.nice), ...step.cmd] : step.cmd
    say(`\n▶ ${step.label}: ${step.cmd.join(' ')}\n`)
    const child = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...step.env } })
    const [out, err] = await Promise.all([
      collect(child.stdout, (text) => say(text)),
      collect(child.stderr, (text) => (lane.live ? stderr.write(text) : keep(text))),
    ])
    const exitCode = await child.exited
    everything += out + err
    if (step.count) {
      const counted = step.count(out + err)
      totals.passed += counted.passed
      totals.failed += counted.failed
    }
    if (exitCode !== 0) {
      say(`\n✖ ${step.label} failed (exit ${exitCode})\n`)
      passed = false
      break
    }
    if (step.after) say(step.after())
  }
  stdout.flush()
  stderr.flush()
  if (!passed) failureDigests.set(lane.name, failureDigest(everything))
  const header = `\n━━━ ${lane.name}: ${passed ? 'passed' : 'FAILED'} in ${elapsed(started)} ━━━`
  if (lane.live) console.log(header)
  else process.stdout.write(`${header}\n${buffer.replace(/\n?$/, '\n')}━━━ end of ${lane.name} ━━━\n`)
  return passed
}

/**
 * Debian's Chromium drives the browser tests; Playwright cannot download its own browsers here. Its headless
 * shell (package chromium-headless-shell, Chromium's old headless mode without the browser's own UI) runs
 * the same pages with about 40% less CPU than the full browser, which on two cores is most of the run's
 * time; the full browser is the fallback when the shell is missing and cannot be installed.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'
function findChromium(): string {
  if (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH
  if (existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL
  if (process.getuid?.() === 0) {
    console.log("Chromium's headless shell not found: installing Debian package chromium-headless-shell")
    run('apt-get update', ['apt-get', 'update', '-qq'])
    run(
      'apt-get install chromium-headless-shell',
      ['apt-get', 'install', '-y', '-qq', 'chromium-headless-shell'],
      {
        DEBIAN_FRONTEND: 'noninteractive',
      },
    )
    if (existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL
  }
  for (const path of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) if (existsSync(path)) return path
  console.error(
    'Chromium is needed for the browser tests: install it (apt-get install chromium-headless-shell) or set CHROMIUM_PATH.',
  )
  process.exit(1)
}

/** What the adversarial suites tried and what the drills survived, as SECURITY.md's tables quote them. */
function countsReport(tallyFile: string, drillFile: string): string {
  const tally = sumTally(existsSync(tallyFile) ? readFileSync(tallyFile, 'utf8') : '')
  const drills = existsSync(drillFile) ? readFileSync(drillFile, 'utf8').trim() : ''
  return `\n▶ adversarial suites\n${formatTally(tally)}\n\n▶ fault drills\n${drills || 'no drill counts recorded'}\n`
}

/**
 * `npm test` runs every part; `npm run test:unit`, `test:api`, `test:drills` and `test:e2e` one each. The
 * static checks (content, types, layers, references, format) come with the unit tests.
 */
const PARTS = ['unit', 'api', 'drills', 'e2e'] as const
type Part = (typeof PARTS)[number]
const only = process.argv[2] as Part | undefined
if (only !== undefined && !PARTS.includes(only)) {
  console.error(`Unknown part "${only}": use one of ${PARTS.join(', ')}, or nothing for all of them.`)
  process.exit(2)
}
const runs = (part: Part) => only === undefined || only === part
const started = performance.now()

// First, one after another (each seconds): what the later parts read. Astro's sync and build write the same
// caches (.astro/, node_modules/.astro), so they never run at the same time.
if (runs('unit')) {
  // Every content file, as the build reads it, first: a broken product or page fails here in a second, with
  // the file, line, field and fix, before the content-type sync would stop on it less clearly.
  run('content check', [bun, 'scripts/check-content.ts'])
  // `astro sync` writes the content-collection types (.astro/) that a clean checkout does not have yet and the
  // type check reads.
  run('content types', [bun, '--bun', 'node_modules/.bin/astro', 'sync'])
}
const chromium = runs('e2e') ? findChromium() : ''
if (runs('e2e')) {
  // Built for the address the browser tests serve it on (playwright.config.ts), so its canonical links,
  // sitemap and cards are on the origin under test.
  const publicUrl = `http://localhost:${process.env.E2E_PORT ?? 4599}`
  // `npm run test:e2e` alone, run again and again on one spec while working on it, keeps a build of the
  // very same files; `npm test` always builds.
  const fingerprint = siteBuildFingerprint(process.cwd(), publicUrl)
  if (only === 'e2e' && siteBuildIsCurrent(process.cwd(), fingerprint)) {
    console.log('\n▶ site build: dist/ was built from these very files for this address; not built again')
  } else {
    run('site build', [bun, '--bun', 'node_modules/.bin/astro', 'build'], { PUBLIC_URL: publicUrl })
    run('precompress', [bun, 'scripts/precompress.ts'])
    recordSiteBuild(process.cwd(), fingerprint)
  }
  // docs/architecture.md#performance-budgets: content pages ≤ 85 KB and cart/checkout ≤ 120 KB of JavaScript (gzip); over budget fails,
  // and so does a README table that is not what this build measures (npm run budget writes it).
  run('JavaScript budget', [bun, 'scripts/js-budget.ts', '--check'])
}

// Lanes: from here on nothing writes what another part reads (the build's dist/ is only read), so the parts
// run side by side and a failure in any of them fails the run once all have ended.
const lanes: Lane[] = []
if (runs('unit')) {
  lanes.push({
    name: 'static checks',
    nice: PRIORITY.untimed,
    steps: [
      // Strict TypeScript is part of the contract between site, API and tests: a type error fails the run.
      { label: 'type check', cmd: ['node', 'node_modules/.bin/tsc', '--noEmit', '-p', '.'] },
      // The layers read one way (docs/architecture.md#layers): an import against them, or a circle, fails the run.
      { label: 'import layers', cmd: [bun, 'scripts/check-imports.ts'] },
      // Every "why" points at a document in the repository: a citation of one that is not here fails the run.
      { label: 'document references', cmd: [bun, 'scripts/check-doc-refs.ts'] },
      // Units a newcomer can read at once (docs/architecture.md): no function in api/ over 80 lines, no
      // component in site/ over 200.
      { label: 'unit sizes', cmd: [bun, 'scripts/check-sizes.ts'] },
      // One formatter and linter (docs/architecture.md#conventions): drift or a lint error fails the run like a type error.
      { label: 'lint and format', cmd: ['node', 'node_modules/.bin/biome', 'ci', '.'] },
    ],
  })
}
const folders = (['unit', 'api', 'drills'] as const).filter(runs).map((part) => `tests/${part}`)
const countsDir = mkdtempSync(join(tmpdir(), 'shop-test-counts-'))
if (folders.length > 0) {
  // The adversarial suites count the attacks they try and the drills the faults they survive (SECURITY.md).
  const tallyFile = join(countsDir, 'attacks.tsv')
  const drillFile = join(countsDir, 'drills.md')
  lanes.push({
    name: `tests: ${folders.join(', ')}`,
    nice: PRIORITY.timed,
    steps: [
      {
        label: `tests: ${folders.join(', ')}`,
        cmd: [bun, 'test', ...folders],
        env: { ADVERSARIAL_TALLY: tallyFile, DRILL_COUNTS: drillFile },
        count: bunCounts,
        after: () => (runs('api') || runs('drills') ? countsReport(tallyFile, drillFile) : ''),
      },
    ],
  })
}
if (runs('e2e')) {
  lanes.push({
    name: 'build output',
    nice: PRIORITY.untimed,
    steps: [
      // The built site as search engines read it (sitemap, robots.txt, cards, JSON-LD), and a second build of
      // a copy with drafts and PUBLIC_URL set, plus `astro dev` showing the drafts.
      { label: 'build output', cmd: [bun, 'test', 'tests/build'], count: bunCounts },
    ],
  })
  // Both browser-test shops (with and without Google sign-in) start from nothing.
  for (const dir of ['./data/e2e', './data/e2e-no-google']) rmSync(dir, { recursive: true, force: true })
  lanes.push({
    name: 'browser tests',
    nice: PRIORITY.browser,
    steps: [
      {
        label: 'browser tests',
        cmd: [
          'node',
          'node_modules/.bin/playwright',
          'test',
          ...(only === 'e2e' ? process.argv.slice(3) : []),
        ],
        env: { CHROMIUM_PATH: chromium },
        count: playwrightCounts,
      },
    ],
  })
}
// The longest lane shows its progress as it comes; the others print theirs in one block each when they end.
const live = lanes.at(-1)
if (live) live.live = true
console.log('')
const results = await Promise.all(lanes.map(runLane))
rmSync(countsDir, { recursive: true, force: true })

const failed = lanes.filter((_, index) => !results[index]).map((lane) => lane.name)
if (failed.length > 0) {
  for (const [name, digest] of failureDigests) {
    console.error(`\n━━━ why ${name} failed ━━━\n${digest}`)
  }
  console.error(`\n✖ failed: ${failed.join('; ')} (${elapsed(started)})`)
  console.log(`${totals.passed} passed, ${Math.max(totals.failed, 1)} failed`)
  process.exit(1)
}
console.log(`\n✔ all tests passed in ${elapsed(started)}`)
console.log(`${totals.passed} passed, ${totals.failed} failed`)
