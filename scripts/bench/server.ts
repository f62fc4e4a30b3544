// The built shop as `npm run serve` runs it (`bun api/main.ts`), started for the benchmark on a free port of
// 127.0.0.1 with its own database and data folder, and how long it takes to give its first answer.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { kbToMb, statusKb } from './memory'
import { startLogged, stopUnlessExited } from './processes'

const ROOT = resolve(import.meta.dir, '../..')

/**
 * Bun's own options from package.json's `serve` script (`bun --smol api/main.ts` gives ['--smol']), so the
 * benchmark starts the server exactly as `npm run serve` does.
 */
export function serveFlags(): string[] {
  const scripts = (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }
  ).scripts
  const words = (scripts?.serve ?? '').split(/\s+/)
  const entry = words.indexOf('api/main.ts')
  const flags =
    words[0] === 'bun' && entry > 0 ? words.slice(1, entry).filter((word) => word.startsWith('--')) : []
  // BENCH_CPU_PROFILE_DIR: each server process writes a CPU profile (Markdown) there when it stops.
  const profiles = process.env.BENCH_CPU_PROFILE_DIR
  return profiles ? [...flags, '--cpu-prof-md', `--cpu-prof-dir=${profiles}`] : flags
}

export interface ServerOptions {
  /** This server's folder: its data folder, its log and, unless `dbFile` is given, a fresh database. */
  dir: string
  /** An existing database to serve (one prepared beforehand, like the large shop's). */
  dbFile?: string
  /** The CPU to pin the server to (`taskset -c`), or null to leave it to the kernel. */
  core: string | null
  /** The built site. */
  distDir: string
  /** Milliseconds between health checks while it starts: short when the start itself is being timed. */
  pollMs?: number
  /** WORKERS: server processes on the one port (1 unless set). */
  workers?: number
}

export interface Server {
  url: string
  dbFile: string
  pid: number
  log: string
  /** Milliseconds from starting the process to the first 200 on /api/health. */
  firstAnswerMs: number
  stop(): Promise<void>
}

export async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const { port } = probe
  probe.stop(true)
  return port
}

export async function startServer(options: ServerOptions): Promise<Server> {
  const port = await freePort()
  mkdirSync(join(options.dir, 'data'), { recursive: true })
  const dbFile = options.dbFile ?? join(options.dir, 'shop.db')
  const url = `http://127.0.0.1:${port}`
  const env: Record<string, string> = {}
  // The stand-ins only: no key of a real payment, shipping, mail or sign-in service reaches the server.
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(STRIPE_|SHIPPO_|SMTP_|GOOGLE_|DATABASE_|NODE_ENV$)/.test(key))
      env[key] = value
  }
  Object.assign(env, {
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATABASE_URL: `file:${dbFile}`,
    DATA_DIR: join(options.dir, 'data'),
    DIST_DIR: options.distDir,
    TRUST_PROXY: 'true',
    WORKERS: String(options.workers ?? 1),
  })
  const cmd = [
    ...(options.core === null ? [] : ['taskset', '-c', options.core]),
    process.execPath,
    ...serveFlags(),
    join(ROOT, 'api/main.ts'),
  ]
  const log = join(options.dir, 'server.log')
  const spawnedAt = performance.now()
  const started = startLogged(cmd, { env, log })
  const deadline = Date.now() + 90_000
  let exitCode: number | null | undefined
  void started.exited.then((code) => {
    exitCode = code
  })
  let firstAnswerMs: number | null = null
  while (Date.now() < deadline && exitCode === undefined) {
    try {
      const response = await fetch(`${url}/api/health`)
      if (response.ok) {
        firstAnswerMs = performance.now() - spawnedAt
        break
      }
    } catch {
      // not listening yet
    }
    await Bun.sleep(options.pollMs ?? 200)
  }
  // Several workers start one after the other: the load waits until every one of them listens.
  while ((options.workers ?? 1) > 1 && firstAnswerMs !== null && Date.now() < deadline) {
    if (existsSync(log) && readFileSync(log, 'utf8').includes('"every worker is serving"')) break
    await Bun.sleep(100)
  }
  const stop = () => stopUnlessExited(started.child, 10_000)
  if (firstAnswerMs === null) {
    await stop()
    const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-15).join('\n') : ''
    throw new Error(`the server did not become healthy on ${url}:\n${tail}`)
  }
  return { url, dbFile, pid: started.pid, log, firstAnswerMs: Math.round(firstAnswerMs), stop }
}

export interface StartupResult {
  /** Spawn to first 200, one per timed start, in milliseconds. */
  startsMs: number[]
  medianMs: number
  /** RSS a second after each timed start, with nothing asked of the server, in MB. */
  restRssMb: number[]
  medianRestRssMb: number | null
  restAfterMs: number
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  if (sorted.length === 0) return 0
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

/**
 * Times `bun api/main.ts` from spawn to the first 200 on /api/health, `runs` times, on a built site and a
 * database one untimed start has already migrated and seeded (as after a deploy or a restart). Health is
 * asked every 5 ms, so a start is seen within 5 ms of the server answering.
 */
export async function measureStartup(options: {
  dir: string
  core: string | null
  distDir: string
  runs: number
}): Promise<StartupResult> {
  const restAfterMs = 1000
  const prepare = await startServer({ dir: options.dir, core: options.core, distDir: options.distDir })
  await prepare.stop()
  const startsMs: number[] = []
  const restRssMb: number[] = []
  for (let run = 0; run < options.runs; run++) {
    const server = await startServer({
      dir: options.dir,
      dbFile: prepare.dbFile,
      core: options.core,
      distDir: options.distDir,
      pollMs: 5,
    })
    try {
      startsMs.push(server.firstAnswerMs)
      await Bun.sleep(restAfterMs)
      const rss = statusKb(server.pid, 'VmRSS')
      if (rss !== null) restRssMb.push(kbToMb(rss))
    } finally {
      await server.stop()
    }
  }
  return {
    startsMs,
    medianMs: Math.round(median(startsMs)),
    restRssMb,
    medianRestRssMb: restRssMb.length > 0 ? median(restRssMb) : null,
    restAfterMs,
  }
}
