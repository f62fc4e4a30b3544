// Processes the benchmark starts, and the guarantee that it stops every one of them, by process id, also
// when it fails or is interrupted.

import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs'

type Cleanup = () => void | Promise<void>
const cleanups: Cleanup[] = []

/** Runs at exit, newest first. */
export function onCleanup(cleanup: Cleanup): void {
  cleanups.push(cleanup)
}

export async function cleanupAll(): Promise<void> {
  while (cleanups.length > 0) {
    const cleanup = cleanups.pop() as Cleanup
    try {
      await cleanup()
    } catch (error) {
      console.error(`cleanup failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}

let interrupted = false
/** True once the run was told to stop: nothing more is measured and no report is written. */
export function isInterrupted(): boolean {
  return interrupted
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    interrupted = true
    console.error(`\n${signal}: stopping everything the benchmark started`)
    void cleanupAll().finally(() => process.exit(130))
  })
}

function parentOf(pid: number): number | null {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[1])
  } catch {
    return null
  }
}

function livePids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
}

/** The process and everything below it, deepest first. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>()
  for (const pid of livePids()) {
    const parent = parentOf(pid)
    if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), pid])
  }
  const ordered: number[] = []
  const visit = (pid: number) => {
    for (const child of children.get(pid) ?? []) visit(child)
    ordered.push(pid)
  }
  visit(root)
  return ordered
}

/** Processes whose command line holds this token: how a detached browser we caused is found again. */
export function pidsWithToken(token: string): number[] {
  return livePids().filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(token)
    } catch {
      return false
    }
  })
}

export function isAlive(pid: number): boolean {
  return existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')
}

function signal(pids: number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name)
    } catch {
      // already gone
    }
  }
}

/** SIGTERM to the process and its descendants, SIGKILL to whatever still runs after the grace period. */
export async function stopTree(root: number, graceMs = 5000): Promise<void> {
  const pids = processTree(root).filter(isAlive)
  if (pids.length === 0) return
  signal(pids, 'SIGTERM')
  const deadline = Date.now() + graceMs
  while (Date.now() < deadline && pids.some(isAlive)) await Bun.sleep(100)
  signal(pids.filter(isAlive), 'SIGKILL')
}

/** Once stopping has begun, nothing new is started: it could outlive the cleanup. */
function refuseAfterInterrupt(command: string[]): void {
  if (interrupted) throw new Error(`interrupted: not starting ${command[0]}`)
}

/** A child that has exited is never signalled: its process id may already belong to someone else. */
export function stopUnlessExited(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve()
  return stopTree(child.pid, graceMs)
}

export interface Started {
  child: ChildProcess
  pid: number
  exited: Promise<number | null>
}

/** Starts a command with its output in a log file, registered for cleanup. */
export function startLogged(
  command: string[],
  options: { env: Record<string, string>; log: string },
): Started {
  refuseAfterInterrupt(command)
  // The process writes its log lines (one per request) straight into the file, as it would into a log
  // file or journal in production, not through this process, which shares the load generator's core.
  const out = openSync(options.log, 'w')
  const [file, ...args] = command as [string, ...string[]]
  const child = spawn(file, args, { env: options.env, stdio: ['ignore', out, out] })
  closeSync(out)
  if (child.pid === undefined) throw new Error(`could not start ${command.join(' ')}`)
  const pid = child.pid
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  onCleanup(() => stopUnlessExited(child))
  return { child, pid, exited }
}

/** Runs a command to its end with a time limit, its output passed through; returns its exit code. */
export async function runWithTimeout(
  command: string[],
  options: { env?: Record<string, string>; timeoutMs: number; label: string },
): Promise<number> {
  refuseAfterInterrupt(command)
  const [file, ...args] = command as [string, ...string[]]
  const child = spawn(file, args, {
    env: options.env ?? (process.env as Record<string, string>),
    stdio: 'inherit',
  })
  const pid = child.pid
  if (pid === undefined) throw new Error(`could not start ${options.label}`)
  onCleanup(() => stopUnlessExited(child))
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)))
  const timer = setTimeout(() => {
    console.error(`${options.label} ran past ${Math.round(options.timeoutMs / 1000)}s: stopping it`)
    void stopUnlessExited(child)
  }, options.timeoutMs)
  const code = await exited
  clearTimeout(timer)
  return code
}

/** The CPUs a process may run on, as the kernel reports them (e.g. "0"). */
export function cpusAllowed(pid: number): string | null {
  try {
    return /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? null
  } catch {
    return null
  }
}
