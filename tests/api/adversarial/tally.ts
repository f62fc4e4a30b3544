/**
 * How many attacks each adversarial suite tried. A suite calls `recordAttacks(name, count)` once it has run;
 * when ADVERSARIAL_TALLY names a file, a line `suite<TAB>count` is appended to it (otherwise nothing
 * happens). `bun scripts/adversarial-tally.ts <file>` sums the file into SECURITY.md's "Suite counts".
 */
import { appendFileSync } from 'node:fs'

export function recordAttacks(suite: string, count: number): void {
  const file = process.env.ADVERSARIAL_TALLY
  if (!file) return
  appendFileSync(file, `${suite}\t${count}\n`)
}

/** A running count for one suite file: `tried()` once per attack sent, `record()` in afterAll. */
export function attackCounter(suite: string) {
  let count = 0
  return {
    tried(n = 1): void {
      count += n
    },
    get count(): number {
      return count
    },
    record(): void {
      recordAttacks(suite, count)
    },
  }
}
