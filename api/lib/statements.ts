import type { BatchItem } from 'drizzle-orm/batch'
import type { Database } from '../../db/client'

/**
 * One statement of a transaction, built but not run. Each module builds the statements for its own tables
 * (the order's rows, the session's completion, the discount's use, a job) and one caller runs them
 * together with `commitTogether`: one libSQL batch, which is one transaction.
 *
 * A batch cannot hand a value from one statement to the next, so a statement that needs an earlier one's
 * result (the new order's id) reads it with a subquery, and a statement that should run only if the one
 * just before it changed a row asks SQLite's changes() right after it.
 */
export type Statement = BatchItem<'sqlite'>

/**
 * Runs `statements`, then `last`, as one transaction: all of them or none. Answers what `last` returns,
 * typically a SELECT reading back what the statements made.
 */
export async function commitTogether<Last extends Statement>(
  db: Database,
  statements: readonly Statement[],
  last: Last,
): Promise<Awaited<Last>> {
  const results = await db.batch([...statements, last] as unknown as [Statement, ...Statement[]])
  return results[results.length - 1] as Awaited<Last>
}

/** Runs `statements` as one transaction, for a step that reads nothing back. */
export async function runTogether(db: Database, statements: readonly Statement[]): Promise<void> {
  const [first, ...rest] = statements
  if (first) await db.batch([first, ...rest])
}
