import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatTally, sumTally } from '../../../scripts/adversarial-tally'
import { recordAttacks } from '../../api/adversarial/tally'

const saved = process.env.ADVERSARIAL_TALLY
afterEach(() => {
  if (saved === undefined) delete process.env.ADVERSARIAL_TALLY
  else process.env.ADVERSARIAL_TALLY = saved
})

describe('the adversarial tally', () => {
  test('recordAttacks appends suite<TAB>count to the named file, and does nothing without one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-'))
    try {
      const file = join(dir, 'tally.tsv')
      delete process.env.ADVERSARIAL_TALLY
      recordAttacks('ignored', 5)
      process.env.ADVERSARIAL_TALLY = file
      recordAttacks('money', 12)
      recordAttacks('identity', 3)
      expect(readFileSync(file, 'utf8')).toBe('money\t12\nidentity\t3\n')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('sums per suite and in all, and names lines it could not read', () => {
    const tally = sumTally('money\t12\nidentity\t3\nmoney\t4\n\nbroken line\nheaders\t-1\n')
    expect([...tally.suites]).toEqual([
      ['money', 16],
      ['identity', 3],
    ])
    expect(tally.total).toBe(19)
    expect(tally.skipped).toEqual([5, 6])
    const text = formatTally(tally)
    expect(text).toContain('Suites: 2')
    expect(text).toContain('Attacks tried: 19')
    expect(text).toContain('| money | 16 |')
  })
})
