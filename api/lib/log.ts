/**
 * The shop's log: one JSON object per line on standard output. The lines of one turn of the event loop are
 * written together when the turn ends, up to 4,096 bytes a write, so thousands of requests a second cost
 * a write per turn or so, not one each. A pipe keeps a write of that size whole, so the workers of
 * `WORKERS=N`, which share standard output, never cut into each other's lines.
 * Lines still waiting are written when the process exits; only a kill -9 can lose them, and then at most
 * the lines of its last turn. LOG_LEVEL picks what is written: info (everything), warn, error, or silent.
 *
 * Fields are chosen by the caller and never include request bodies, cookies, tokens, query strings or
 * e-mail addresses; `redactPath` keeps addresses out of logged paths.
 */
import { writeSync } from 'node:fs'
import { withoutPersonalData } from './redact'

export const LOG_LEVELS = ['silent', 'error', 'warn', 'info'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

type Fields = Record<string, string | number | boolean | null | undefined>

const rank: Record<LogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3 }

function initialLevel(): LogLevel {
  const raw = process.env.LOG_LEVEL?.trim().toLowerCase()
  return (LOG_LEVELS as readonly string[]).includes(raw ?? '') ? (raw as LogLevel) : 'info'
}

let threshold = rank[initialLevel()]
/** PIPE_BUF on Linux: a write to a pipe of at most this many bytes is never interleaved with another's. */
const WHOLE_WRITE_BYTES = 4096

/** Lines waiting for the end of this turn, their size in bytes, and whether their write is already due. */
let waiting = ''
let waitingBytes = 0
let flushDue = false

function flushLines(): void {
  flushDue = false
  if (waiting === '') return
  const text = waiting
  waiting = ''
  waitingBytes = 0
  process.stdout.write(text)
}

function writeAtTurnEnd(line: string): void {
  const bytes = Buffer.byteLength(line)
  if (waitingBytes + bytes > WHOLE_WRITE_BYTES) flushLines()
  waiting += line
  waitingBytes += bytes
  if (!flushDue) {
    flushDue = true
    setImmediate(flushLines)
  }
}

// An exit (a handled signal, process.exit after a fatal error) writes what the last turn logged, at once:
// nothing written asynchronously after 'exit' would reach the file or pipe.
process.on('exit', () => {
  if (waiting === '') return
  try {
    writeSync(1, waiting)
  } catch {
    // Standard output is gone: there is nowhere left to write.
  }
  waiting = ''
})

let write: (line: string) => void = writeAtTurnEnd

/** Fields every line of this process carries: `worker` when several server processes share the log. */
let processFields: Fields = {}

function emit(level: Exclude<LogLevel, 'silent'>, msg: string, fields?: Fields): void {
  if (rank[level] > threshold) return
  write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...processFields, ...fields })}\n`)
}

/** Adds `fields` to every line this process writes from now on (api/supervisor.ts names each worker). */
export function setProcessLogFields(fields: Fields): void {
  processFields = { ...fields }
}

export const log = {
  info: (msg: string, fields?: Fields) => emit('info', msg, fields),
  warn: (msg: string, fields?: Fields) => emit('warn', msg, fields),
  error: (msg: string, fields?: Fields) => emit('error', msg, fields),
  /** Whether info lines are written: the request log skips building its line when they are not. */
  get infoEnabled(): boolean {
    return threshold >= rank.info
  },
}

export function setLogLevel(level: LogLevel): void {
  threshold = rank[level]
}

/** Sends log lines elsewhere (tests read them); returns a function that puts the previous writer back. */
export function captureLog(sink: (line: string) => void): () => void {
  const previous = write
  write = sink
  return () => {
    write = previous
  }
}

/** An error's message for a log line or a job row: never a stack, no e-mail address, at most 500 characters. */
export function errorMessage(error: unknown): string {
  // A query error's own message quotes the SQL and its parameters (addresses among them): the database's
  // message underneath says what went wrong without them.
  const cause = (error as { cause?: unknown } | null)?.cause
  if (error instanceof Error && error.message.startsWith('Failed query') && cause) return errorMessage(cause)
  const text = error instanceof Error ? error.message : String(error)
  // A mail server's refusal quotes the recipient; the address is personal data.
  return withoutPersonalData(text).slice(0, 500)
}

const EMAIL_IN_PATH = /[^/]*(?:@|%40)[^/]*/gi

/** A request path fit for the log: no query string, and any segment holding an e-mail address replaced. */
export function redactPath(path: string): string {
  const end = path.indexOf('?')
  const bare = end === -1 ? path : path.slice(0, end)
  return bare.includes('@') || bare.includes('%40') ? bare.replace(EMAIL_IN_PATH, '[redacted]') : bare
}
