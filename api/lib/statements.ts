import type { ResultSet } from '@libsql/client'
import { fillPlaceholders, type Placeholder, sql } from 'drizzle-orm'
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

/**
 * A statement drizzle has built, its values left as placeholders: a query builder's `.prepare()`, or a
 * `db.run(sql)` statement, which answers for itself.
 */
interface BuiltStatement {
  getQuery(): { sql: string; params: unknown[] }
  mapResult(response: unknown, isFromBatch?: boolean): unknown
  /** Query builders' prepared statements only. */
  run?(values: Record<string, unknown>): Promise<ResultSet>
}

/**
 * A statement whose SQL drizzle builds once. Building is most of what drizzle costs per statement (a
 * 25-column INSERT about 26 µs, on every call) and the busy paths send the same statements with new values,
 * so `build` makes the statement with `sql.placeholder(name)` where each value goes, and each use fills
 * them in. Only for statements whose SQL never changes with their values: one whose text depends on them
 * (a list of lines, an optional condition) is built as usual. scripts/bench/findings.md has the numbers.
 */
export function builtOnce<Values extends Record<string, unknown>>(
  build: () => { prepare(): unknown } | BuiltStatement,
) {
  let built: { statement: BuiltStatement; sql: string; params: unknown[] } | undefined
  const ready = () => {
    if (!built) {
      const made = build()
      const statement = ('prepare' in made ? made.prepare() : made) as BuiltStatement
      // Asked once: a `db.run` statement builds its SQL again each time it is asked.
      const { sql, params } = statement.getQuery()
      built = { statement, sql, params }
    }
    return built
  }
  return {
    /** The statement with these values, for a batch (`runTogether`, `commitTogether`, `db.batch`). */
    with(values: Values): Statement {
      const { statement, sql, params: placeheld } = ready()
      const params = fillPlaceholders(placeheld, values)
      // What drizzle's batch asks of each statement it is given (LibSQLSession.batch): its SQL and
      // arguments, and how to read its result. tests/api/database/built-once.test.ts runs it.
      const filled = {
        _prepare: () => ({
          getQuery: () => ({ sql, params }),
          mapResult: (response: unknown, isFromBatch?: boolean) => statement.mapResult(response, isFromBatch),
        }),
      }
      return filled as unknown as Statement
    },
    /** Runs the statement alone with these values (a query builder's; a `db.run` one goes in a batch). */
    run(values: Values): Promise<ResultSet> {
      const { statement } = ready()
      if (!statement.run) throw new Error('a db.run statement built once runs in a batch')
      return statement.run(values)
    },
  }
}

/** `{ name: sql.placeholder(name) }` for each name: the values of an INSERT built once, one placeholder per column. */
export function placeholders<Name extends string>(names: readonly Name[]): Record<Name, Placeholder<Name>> {
  return Object.fromEntries(names.map((name) => [name, sql.placeholder(name)])) as Record<
    Name,
    Placeholder<Name>
  >
}
