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
