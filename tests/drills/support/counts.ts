import { appendFileSync } from 'node:fs'

/**
 * Each drill prints one line of counts. DRILL_COUNTS names a file to collect them in as well (a Markdown
 * list), for the security notes that quote them.
 */
export function recordDrill(_name: string, line: string): void {
  const file = process.env.DRILL_COUNTS
  if (file) appendFileSync(file, `- \`${line}\`\n`)
}
