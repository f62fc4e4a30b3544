// `bun scripts/adversarial-tally.ts [file]`: sums the attack tally the adversarial suites wrote (one line
// `suite<TAB>count` per suite run, appended when ADVERSARIAL_TALLY names the file) into the numbers of
// SECURITY.md's "Suite counts" table, and prints them.
//
//   ADVERSARIAL_TALLY=/tmp/tally.tsv bun test tests/api/adversarial
//   bun scripts/adversarial-tally.ts /tmp/tally.tsv
import { existsSync, readFileSync } from 'node:fs'

export interface Tally {
  /** Attacks tried, per suite, in the order suites first appear. */
  suites: Map<string, number>
  total: number
  /** Lines that were not `suite<TAB>count`, by line number, so a damaged file is noticed. */
  skipped: number[]
}

export function sumTally(text: string): Tally {
  const suites = new Map<string, number>()
  const skipped: number[] = []
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return
    const [suite = '', count = '', ...rest] = line.split('\t')
    const attacks = Number(count)
    if (
      suite.trim() === '' ||
      rest.length > 0 ||
      !/^\d+$/.test(count.trim()) ||
      !Number.isSafeInteger(attacks)
    ) {
      skipped.push(index + 1)
      return
    }
    suites.set(suite.trim(), (suites.get(suite.trim()) ?? 0) + attacks)
  })
  const total = [...suites.values()].reduce((sum, count) => sum + count, 0)
  return { suites, total, skipped }
}

export function formatTally(tally: Tally): string {
  const rows = [...tally.suites].map(([suite, count]) => `| ${suite} | ${count} |`)
  return [
    `Suites: ${tally.suites.size}`,
    `Attacks tried: ${tally.total}`,
    '',
    '| Suite | Attacks tried |',
    '|---|---|',
    ...rows,
    `| **all ${tally.suites.size} suites** | **${tally.total}** |`,
  ].join('\n')
}

if (import.meta.main) {
  const file = process.argv[2] ?? process.env.ADVERSARIAL_TALLY
  if (!file || !existsSync(file)) {
    console.error('Usage: bun scripts/adversarial-tally.ts <tally file> (or set ADVERSARIAL_TALLY)')
    process.exit(2)
  }
  const tally = sumTally(readFileSync(file, 'utf8'))
  console.log(formatTally(tally))
  if (tally.skipped.length > 0) {
    console.error(`Lines not in the form suite<TAB>count were skipped: ${tally.skipped.join(', ')}`)
    process.exit(1)
  }
}
