// The server's memory as the kernel counts it: resident set size (RSS) from /proc/<pid>/status. Used by the
// orchestrator (Bun) and by the load generators (Node), so only node:fs.
import { readFileSync, writeFileSync } from 'node:fs'

/** A size field of /proc/<pid>/status in KiB (VmRSS: now; VmHWM: the peak), or null if unreadable. */
export function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s*(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match?.[1] ? Number(match[1]) : null
  } catch {
    return null
  }
}

/** /proc's kB are KiB; the budget is in MB (10^6 bytes), so 150 MB means 150,000,000 bytes. */
export const kbToMb = (kb: number) => Math.round((kb * 1024) / 100_000) / 10

export interface PeakRss {
  /** Stops following; the peak in MB, or null if the process could not be read. */
  stop(): number | null
}

/**
 * Follows a process's peak RSS over a stretch of work. The kernel's high-water mark (VmHWM) sees spikes
 * that fall between samples; writing 5 to /proc/<pid>/clear_refs resets it, so it covers this stretch
 * only. A sample every 50 ms backs it up, and stands in alone where the reset is refused.
 */
export function followPeakRss(pid: number): PeakRss {
  let highWaterMarkReset = true
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
  } catch {
    highWaterMarkReset = false
  }
  let sampled = statusKb(pid, 'VmRSS')
  const sample = () => {
    const now = statusKb(pid, 'VmRSS')
    if (now !== null) sampled = Math.max(sampled ?? 0, now)
  }
  const timer = setInterval(sample, 50)
  return {
    stop() {
      clearInterval(timer)
      sample()
      const mark = highWaterMarkReset ? statusKb(pid, 'VmHWM') : null
      const peak = Math.max(sampled ?? 0, mark ?? 0)
      return peak > 0 ? kbToMb(peak) : null
    },
  }
}
