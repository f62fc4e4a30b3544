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

/**
 * The process and every process under it (a WORKERS=N server is its supervisor and N workers), from
 * /proc/<pid>/task/<pid>/children; just `pid` where that is unreadable.
 */
export function processTree(pid: number): number[] {
  const tree = [pid]
  for (let i = 0; i < tree.length; i++) {
    try {
      const children = readFileSync(`/proc/${tree[i]}/task/${tree[i]}/children`, 'utf8').trim()
      if (children) tree.push(...children.split(/\s+/).map(Number))
    } catch {
      // gone, or not readable: counted without its children
    }
  }
  return tree
}

/** A size field summed over the process tree (null if the root could not be read). */
export function treeStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  const sizes = processTree(pid).map((each) => statusKb(each, field))
  if (sizes[0] === null) return null
  return sizes.reduce<number>((sum, size) => sum + (size ?? 0), 0)
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
 * only. A sample every 50 ms backs it up, and stands in alone where the reset is refused. A process with
 * children (WORKERS=N) counts the whole tree: the sum of their RSS, sampled only, since their peaks need
 * not come at the same moment.
 */
export function followPeakRss(pid: number): PeakRss {
  const single = processTree(pid).length === 1
  let highWaterMarkReset = single
  if (single) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5')
    } catch {
      highWaterMarkReset = false
    }
  }
  let sampled = treeStatusKb(pid, 'VmRSS')
  const sample = () => {
    const now = treeStatusKb(pid, 'VmRSS')
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
