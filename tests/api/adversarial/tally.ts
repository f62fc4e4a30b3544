/**
 * How many attacks each adversarial suite tried. Every test file in this folder calls `recordAttacks` once
 * per suite; with ADVERSARIAL_TALLY set to a file name, each call appends `suite<TAB>count` to it, so a run
 * can report the total. Without it, nothing is written.
 */
import { appendFileSync } from 'node:fs'

export function recordAttacks(suite: string, count: number): void {
  const file = process.env.ADVERSARIAL_TALLY
  if (!file) return
  appendFileSync(file, `${suite}\t${count}\n`)
}
