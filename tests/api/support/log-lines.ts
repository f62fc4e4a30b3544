/** The server's JSON log, read back by tests that start it for real (api/lib/log.ts writes a line each). */
export interface LogLine {
  level?: string
  msg: string
  [field: string]: unknown
}

/**
 * The JSON lines of a server's output, as one text or as lines; anything else it printed (a runtime's own
 * warning, a half-written last line) is left out.
 */
export function logLines(output: string | readonly string[]): LogLine[] {
  const lines = typeof output === 'string' ? output.split('\n') : output
  return lines.flatMap((line) => {
    if (!line.startsWith('{')) return []
    try {
      return [JSON.parse(line) as LogLine]
    } catch {
      return []
    }
  })
}

/**
 * Resolves once the request lines of every request answered so far are written. The request log writes a
 * request's line in Elysia's onAfterResponse (api/plugins/request-log.ts), which Elysia runs in a
 * setImmediate it queues as the answer goes out; immediates run in the order they were queued, so one
 * queued after the answer arrived runs after that line is written. No timer: a stalled event loop only
 * delays both alike.
 */
export function requestLinesWritten(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}
