/**
 * WORKERS=N (N > 1): this process serves nothing itself. It starts N server processes (api/server.ts, each
 * started as `bun api/main.ts` with SHOP_WORKER set) that listen on the same port with SO_REUSEPORT, so
 * the kernel spreads new connections over them and every core serves. They share the database file (WAL:
 * readers never wait, writers take turns, each waiting up to the busy timeout), and background work stays
 * exactly-once because every job, payment event and sweep is claimed with one conditional UPDATE.
 *
 * The first worker migrates the database and syncs the catalogue before the others start, so they never
 * race a migration. A worker that dies is started again (after a pause that grows while it keeps dying
 * young); one that dies before the shop first opened stops the start, since the others would fail the
 * same way. SIGTERM and SIGINT are passed to every worker, which drains as a single server does
 * (README: Stopping); the supervisor exits once all have, 0 when all stopped cleanly.
 *
 * It imports next to nothing (no app, no database client), so it adds only Bun's own memory to the shop.
 */
import { type Subprocess, spawn } from 'bun'
import { log } from './lib/log'

/** Set in each worker's environment: its number, 1 to N. */
export const WORKER_ENV = 'SHOP_WORKER'
/** Set for the first worker of a start only: it migrates and prepares the data before the others start. */
export const PREPARE_ENV = 'SHOP_PREPARE'
/** What a worker sends the supervisor (over Bun's IPC channel) once it listens. */
export const READY_MESSAGE = 'shop-worker-ready'

/** This process's worker number, or null when it was not started by a supervisor. */
export function workerNumber(env: Record<string, string | undefined> = process.env): number | null {
  const value = Number(env[WORKER_ENV] ?? '')
  return Number.isInteger(value) && value > 0 ? value : null
}

/** The pause before a dead worker is started again; doubled while it keeps dying young, up to the cap. */
const FIRST_RESTART_MS = 250
const MAX_RESTART_MS = 10_000
/** A worker that served this long before it died is started again after the first pause. */
const STEADY_MS = 10_000

export interface SupervisorOptions {
  workers: number
  /** The command that starts one worker: this same entry point. */
  command: string[]
  env?: Record<string, string | undefined>
}

interface Worker {
  number: number
  process: Subprocess | null
  startedAt: number
  /** Whether this run of it has said it listens. */
  listening: boolean
  restartMs: number
  timer?: ReturnType<typeof setTimeout>
}

/** Runs the workers until SIGTERM or SIGINT; resolves with the exit code the supervisor should end with. */
export function supervise(options: SupervisorOptions): Promise<number> {
  const workers: Worker[] = Array.from({ length: options.workers }, (_, i) => ({
    number: i + 1,
    process: null,
    startedAt: 0,
    listening: false,
    restartMs: FIRST_RESTART_MS,
  }))
  let open = false
  let stopping = false
  let finish: (code: number) => void = () => {}
  const finished = new Promise<number>((resolve) => {
    finish = resolve
  })

  /** Starts one worker; resolves true once it listens, false if it exits before. */
  function start(worker: Worker, prepare: boolean): Promise<boolean> {
    return new Promise((listening) => {
      worker.startedAt = performance.now()
      worker.listening = false
      const child = spawn(options.command, {
        env: {
          ...(options.env ?? process.env),
          [WORKER_ENV]: String(worker.number),
          [PREPARE_ENV]: prepare ? '1' : '',
        },
        stdio: ['ignore', 'inherit', 'inherit'],
        ipc(message) {
          if (message !== READY_MESSAGE) return
          worker.listening = true
          listening(true)
        },
      })
      worker.process = child
      void child.exited.then(() => {
        listening(false)
        exited(worker, child)
      })
    })
  }

  function exited(worker: Worker, child: Subprocess): void {
    if (worker.process !== child) return
    worker.process = null
    // While stopping, stop() counts the exits; one that never listened during the start is the start's
    // to report.
    if (stopping || (!open && !worker.listening)) return
    const lived = performance.now() - worker.startedAt
    worker.restartMs = lived >= STEADY_MS ? FIRST_RESTART_MS : Math.min(worker.restartMs * 2, MAX_RESTART_MS)
    log.error('a worker stopped unexpectedly: starting it again', {
      worker: worker.number,
      pid: child.pid,
      exitCode: child.exitCode,
      signal: child.signalCode,
      restartInMs: worker.restartMs,
    })
    worker.timer = setTimeout(() => {
      worker.timer = undefined
      if (!stopping) void start(worker, false)
    }, worker.restartMs)
  }

  function stop(signal: NodeJS.Signals, code: number): void {
    if (stopping) return
    stopping = true
    log.info('stopping the workers', { signal, workers: options.workers })
    for (const worker of workers) {
      if (worker.timer) clearTimeout(worker.timer)
      worker.process?.kill(signal)
    }
    const all = workers.map((worker) => worker.process?.exited ?? Promise.resolve(0))
    void Promise.all(all).then((codes) =>
      finish(code !== 0 ? code : codes.every((each) => each === 0) ? 0 : 1),
    )
  }

  process.on('SIGTERM', () => stop('SIGTERM', 0))
  process.on('SIGINT', () => stop('SIGINT', 0))

  void (async () => {
    const [first, ...rest] = workers as [Worker, ...Worker[]]
    const started =
      (await start(first, true)) &&
      (await Promise.all(rest.map((worker) => start(worker, false)))).every(Boolean)
    if (stopping) return
    if (!started) {
      log.error('a worker stopped before the shop opened: stopping (see its message above)')
      stop('SIGTERM', 1)
      return
    }
    open = true
    log.info('every worker is serving', {
      workers: options.workers,
      pids: workers.map((worker) => worker.process?.pid).join(' '),
    })
  })()
  return finished
}
