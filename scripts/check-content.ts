// `npm run check:content`: checks every file under content/ in well under a second, without building the
// site, and names the file, the line, the field and the fix for each problem (content/check.ts). The build
// runs the same check first and stops on the same messages. `-- <folder>` checks another checkout.
import { resolve } from 'node:path'
import { checkContent } from '../content/check'
import { formatProblems, REPO_ROOT } from '../content/read'

const started = performance.now()
const report = checkContent(process.argv[2] ? resolve(process.argv[2]) : REPO_ROOT)
const ms = Math.round(performance.now() - started)
for (const note of report.notes) console.warn(`note: ${note}`)
if (report.problems.length > 0) {
  console.error(formatProblems(report.problems))
  const count = report.problems.length
  console.error(
    `\n${count} problem${count === 1 ? '' : 's'} in content/ (${report.checked} files checked in ${ms} ms)`,
  )
  process.exit(1)
}
const drafts = report.entries.filter((entry) => entry.draft).length
console.log(
  `content/ is fine: ${report.checked} files checked in ${ms} ms${drafts ? ` (${drafts} draft${drafts === 1 ? '' : 's'}, shown by npm run dev only)` : ''}`,
)
